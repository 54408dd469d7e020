import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { Readable } from "node:stream";

/**
 * The address rules of one server-side fetch. Every fetch to a URL that did not come from the
 * operator's own configuration goes through them: plugins, website import, workflow HTTP nodes,
 * handover webhooks and model providers added in the console.
 */
export interface AddressPolicy {
  /** Private and link-local ranges are reachable. Loopback and cloud metadata never are, unless listed below. */
  allowPrivateNetwork: boolean;
  /** `host` or `host:port` entries reachable whatever they resolve to. */
  allowedHosts: string[];
  /** Loopback (this host) is reachable; cloud metadata still is not. Only remote databases set it, for tests and single-host installs. */
  allowLoopback?: boolean;
}

/** The instance's one policy, from `PARLEY_PLUGINS_ALLOW_PRIVATE_NETWORK` and `PARLEY_PLUGINS_ALLOWED_HOSTS`. */
export function outboundPolicy(config: { plugins: AddressPolicy }): AddressPolicy {
  return { allowPrivateNetwork: config.plugins.allowPrivateNetwork, allowedHosts: config.plugins.allowedHosts };
}

/** Resolves a host name to addresses; tests may replace DNS. */
export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: 4 | 6 }>>;

// This host: refused whatever the private-network setting says (only a listed host reaches it).
const loopbackRanges = new net.BlockList();
loopbackRanges.addSubnet("0.0.0.0", 8, "ipv4");
loopbackRanges.addSubnet("127.0.0.0", 8, "ipv4");
loopbackRanges.addSubnet("::", 96, "ipv6");
loopbackRanges.addAddress("::1", "ipv6");

// RFC 1918, link-local, carrier-grade NAT, multicast, documentation and reserved ranges.
const privateRanges = new net.BlockList();
privateRanges.addSubnet("10.0.0.0", 8, "ipv4");
privateRanges.addSubnet("100.64.0.0", 10, "ipv4");
privateRanges.addSubnet("169.254.0.0", 16, "ipv4");
privateRanges.addSubnet("172.16.0.0", 12, "ipv4");
privateRanges.addSubnet("192.0.0.0", 24, "ipv4");
privateRanges.addSubnet("192.0.2.0", 24, "ipv4");
privateRanges.addSubnet("192.168.0.0", 16, "ipv4");
privateRanges.addSubnet("198.18.0.0", 15, "ipv4");
privateRanges.addSubnet("198.51.100.0", 24, "ipv4");
privateRanges.addSubnet("203.0.113.0", 24, "ipv4");
privateRanges.addSubnet("224.0.0.0", 3, "ipv4");
privateRanges.addSubnet("64:ff9b:1::", 48, "ipv6");
privateRanges.addSubnet("100::", 64, "ipv6");
privateRanges.addSubnet("2001:db8::", 32, "ipv6");
privateRanges.addSubnet("fc00::", 7, "ipv6");
privateRanges.addSubnet("fe80::", 10, "ipv6");
privateRanges.addSubnet("fec0::", 10, "ipv6");
privateRanges.addSubnet("ff00::", 8, "ipv6");

// Instance metadata services (AWS, GCP, Azure, Alibaba, ECS task roles): credentials live there,
// so they stay refused even when the owner opens the private network.
const metadataAddresses = new Set(["169.254.169.254", "169.254.170.2", "100.100.100.200", "fd00:ec2::254"]);
const metadataHosts = new Set(["metadata.google.internal", "metadata.goog", "metadata", "instance-data", "instance-data.ec2.internal"]);

/** Why an address was refused, or undefined when it may be reached. */
export function refusalFor(address: string, policy: AddressPolicy): string | undefined {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const plain = embeddedIpv4(bare) ?? bare;
  const family = net.isIPv4(plain) ? "ipv4" : net.isIPv6(plain) ? "ipv6" : undefined;
  if (!family) return `${address} is not an IP address`;
  if (metadataAddresses.has(canonical(plain, family))) return `${address} is a cloud metadata address`;
  if (!policy.allowLoopback && loopbackRanges.check(plain, family)) return `${address} is a loopback, private or link-local address`;
  if (!policy.allowPrivateNetwork && privateRanges.check(plain, family)) return `${address} is a loopback, private or link-local address`;
  return undefined;
}

// One spelling per address, so that fd00:ec2:0::254 matches fd00:ec2::254.
function canonical(address: string, family: "ipv4" | "ipv6"): string {
  if (family === "ipv4") return address;
  try {
    return new URL(`http://[${address}]/`).hostname.replace(/^\[|\]$/g, "");
  } catch {
    return address.toLowerCase();
  }
}

/**
 * The IPv4 address inside an IPv4-mapped (`::ffff:a.b.c.d`, `::ffff:7f00:1`), IPv4-translated
 * (`::ffff:0:a.b.c.d`), NAT64 (`64:ff9b::a.b.c.d`) or 6to4 (`2002:aabb:ccdd::`) IPv6 address.
 */
function embeddedIpv4(address: string): string | undefined {
  if (!net.isIPv6(address)) return undefined;
  const spelled = canonical(address, "ipv6");
  const sixToFour = /^2002:([0-9a-f]{1,4}):([0-9a-f]{1,4})(?::|$)/i.exec(spelled);
  if (sixToFour) return quad(sixToFour[1]!, sixToFour[2]!);
  const match = /^(?:::ffff:(?:0:)?|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(spelled);
  if (!match) return undefined;
  return match[1] ?? quad(match[2]!, match[3]!);
}

function quad(highWord: string, lowWord: string): string {
  const high = Number.parseInt(highWord, 16);
  const low = Number.parseInt(lowWord, 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** Thrown when a call is refused by the address rules or fails on the wire; the message is for the model. */
export class PluginNetworkError extends Error {
  override name = "PluginNetworkError";
  constructor(
    readonly reason: "refused" | "timeout" | "network" | "redirects" | "url",
    message: string,
  ) {
    super(message);
  }
}

function isAllowedHost(url: URL, policy: AddressPolicy): boolean {
  const host = bareHost(url).toLowerCase();
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return policy.allowedHosts.includes(host) || policy.allowedHosts.includes(`${host}:${port}`);
}

function bareHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, "");
}

/**
 * Checks a URL before connecting: scheme, metadata host names, and literal IP addresses.
 * Names are checked again on the addresses DNS gives, at connect time (see {@link guardedLookup}).
 */
export function checkUrl(url: URL, policy: AddressPolicy): void {
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new PluginNetworkError("url", `only http and https URLs can be called, not ${url.protocol}`);
  if (url.username || url.password) throw new PluginNetworkError("url", "URLs with a user name or password are not allowed; use a header");
  if (isAllowedHost(url, policy)) return;
  const host = bareHost(url).toLowerCase().replace(/\.$/, "");
  if (metadataHosts.has(host)) throw new PluginNetworkError("refused", `refused to call ${host}: it is a cloud metadata address`);
  if (net.isIP(host)) {
    const refusal = refusalFor(host, policy);
    if (refusal) throw new PluginNetworkError("refused", `refused to call ${url.host}: ${refusal}`);
  } else if (host === "localhost" || host.endsWith(".localhost")) {
    throw new PluginNetworkError("refused", `refused to call ${url.host}: it is a loopback address`);
  }
}

const systemResolver: Resolver = async (hostname) => {
  const found = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
};

/**
 * Resolves a host name once and checks every address it gives, for clients that open their own
 * sockets (database drivers): the caller connects to the returned address, never to the name
 * again, so a second answer from DNS (rebinding) cannot lead past the rules. Throws a
 * {@link PluginNetworkError} `refused` when any address is refused.
 */
export async function resolveChecked(hostname: string, policy: AddressPolicy, resolver: Resolver = systemResolver): Promise<string> {
  const host = hostname
    .replace(/^\[|\]$/g, "")
    .toLowerCase()
    .replace(/\.$/, "");
  if (metadataHosts.has(host)) throw new PluginNetworkError("refused", `refused to connect to ${host}: it is a cloud metadata address`);
  const addresses = net.isIP(host) ? [{ address: host, family: net.isIPv6(host) ? (6 as const) : (4 as const) }] : await resolver(host);
  if (addresses.length === 0) throw Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" });
  for (const entry of addresses) {
    const refusal = refusalFor(entry.address, policy);
    if (refusal) throw new PluginNetworkError("refused", `refused to connect to ${hostname}: ${net.isIP(host) ? refusal : `it resolves to ${refusal}`}`);
  }
  return addresses[0]!.address;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A `lookup` for the socket: every address the name resolves to must pass the rules, and the
 * socket connects to exactly those addresses. Checking here rather than before the request
 * means a name that resolves differently the second time (DNS rebinding) gains nothing.
 */
export function guardedLookup(policy: AddressPolicy, resolver: Resolver) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    resolver(hostname).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? addresses.filter((entry) => entry.family === options.family) : addresses;
        if (wanted.length === 0) {
          callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), "");
          return;
        }
        for (const entry of wanted) {
          const refusal = refusalFor(entry.address, policy);
          if (refusal) {
            callback(
              Object.assign(new PluginNetworkError("refused", `refused to call ${hostname}: it resolves to ${refusal}`), { code: "EREFUSEDADDRESS" }),
              "",
            );
            return;
          }
        }
        if (options.all)
          callback(
            null,
            wanted.map((entry) => ({ address: entry.address, family: entry.family })),
          );
        else callback(null, wanted[0]!.address, wanted[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ""),
    );
  };
}

/** One outgoing request. */
export interface GuardedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** What came back, with the body cut at the size limit. */
export interface GuardedResponse {
  status: number;
  url: string;
  headers: Record<string, string>;
  /** At most `maxBytes` bytes of the body. */
  body: Buffer;
  /** True when the body was longer than `maxBytes` and the rest was never read. */
  truncated: boolean;
}

/** Options of {@link guardedFetch}. */
export interface GuardedFetchOptions {
  policy: AddressPolicy;
  timeoutMs: number;
  maxBytes: number;
  maxRedirects?: number;
  signal?: AbortSignal;
  resolver?: Resolver;
}

/**
 * Calls a URL under the address rules, following redirects by hand so that every hop is checked,
 * with one deadline for the whole exchange and a body read only up to `maxBytes`.
 */
export async function guardedFetch(request: GuardedRequest, options: GuardedFetchOptions): Promise<GuardedResponse> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  const lookup = guardedLookup(options.policy, options.resolver ?? systemResolver);
  let current: GuardedRequest = request;
  const maxRedirects = options.maxRedirects ?? 5;
  try {
    for (let hop = 0; ; hop++) {
      let url: URL;
      try {
        url = new URL(current.url);
      } catch {
        throw new PluginNetworkError("url", `${current.url} is not a valid URL`);
      }
      checkUrl(url, options.policy);
      const response = await exchange(url, current, { lookup, signal, maxBytes: options.maxBytes, allowed: isAllowedHost(url, options.policy) });
      const location = response.headers.location;
      if (response.status >= 300 && response.status < 400 && location && [301, 302, 303, 307, 308].includes(response.status)) {
        if (hop >= maxRedirects) throw new PluginNetworkError("redirects", `stopped after ${maxRedirects} redirects`);
        const next = new URL(location, url);
        const keepsMethod = response.status === 307 || response.status === 308;
        const method = keepsMethod || current.method === "GET" || current.method === "HEAD" ? current.method : "GET";
        // Headers may hold the plugin's secrets: they go only to the origin they were written for.
        const headers = next.origin === url.origin ? current.headers : {};
        current = { method, url: next.toString(), headers, ...(keepsMethod && current.body !== undefined ? { body: current.body } : {}) };
        continue;
      }
      return response;
    }
  } catch (error) {
    if (error instanceof PluginNetworkError) throw error;
    if (deadline.aborted) throw new PluginNetworkError("timeout", `no answer within ${options.timeoutMs} ms`);
    if (options.signal?.aborted) throw new PluginNetworkError("network", "the call was cancelled");
    const cause = error as NodeJS.ErrnoException & { cause?: unknown };
    if (cause.cause instanceof PluginNetworkError) throw cause.cause;
    throw new PluginNetworkError("network", describeNetworkError(cause));
  }
}

function describeNetworkError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `the host could not be found (${error.message})`;
    case "ECONNREFUSED":
      return "the connection was refused";
    case "ECONNRESET":
      return "the connection was reset";
    default:
      return error.message || String(error);
  }
}

function exchange(
  url: URL,
  request: GuardedRequest,
  options: { lookup: ReturnType<typeof guardedLookup>; signal: AbortSignal; maxBytes: number; allowed: boolean },
): Promise<GuardedResponse> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === "https:" ? https : http;
    const headers: Record<string, string> = { "accept-encoding": "identity", ...request.headers };
    if (request.body !== undefined) headers["content-length"] = String(Buffer.byteLength(request.body));
    const outgoing = client.request(
      url,
      {
        method: request.method,
        headers,
        agent: false,
        signal: options.signal,
        // A listed host skips the rules entirely; everything else is checked on the resolved address.
        ...(options.allowed ? {} : { lookup: options.lookup as unknown as typeof dns.lookup }),
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        const finish = () =>
          resolve({
            status: incoming.statusCode ?? 0,
            url: url.toString(),
            headers: flattenHeaders(incoming.headers),
            body: Buffer.concat(chunks),
            truncated,
          });
        incoming.on("data", (chunk: Buffer) => {
          if (truncated) return;
          const room = options.maxBytes - size;
          if (chunk.length > room) {
            chunks.push(chunk.subarray(0, room));
            size += room;
            truncated = true;
            // The rest is never read: closing the socket stops the sender.
            incoming.destroy();
            finish();
            return;
          }
          chunks.push(chunk);
          size += chunk.length;
        });
        incoming.on("end", finish);
        incoming.on("error", (error) => {
          if (!truncated) reject(error);
        });
      },
    );
    outgoing.on("error", reject);
    if (request.body !== undefined) outgoing.write(request.body);
    outgoing.end();
  });
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

/** Decodes a body as UTF-8, dropping a character cut in half at the size limit. */
export function bodyText(response: Pick<GuardedResponse, "body" | "truncated">): string {
  const text = response.body.toString("utf8");
  return response.truncated ? text.replace(/\uFFFD+$/, "") : text;
}

/**
 * A `fetch` that obeys the address rules, for clients that want the standard interface and a
 * streamed body (the AI SDK's model providers). Redirects are not followed: the caller gets the
 * 3xx, so a redirect cannot lead past the rules. Refusals reject with a {@link PluginNetworkError}.
 */
export function policedFetch(policy: AddressPolicy, resolver: Resolver = systemResolver): typeof globalThis.fetch {
  const lookup = guardedLookup(policy, resolver);
  return async (input, init) => {
    const request = new Request(input, init);
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      throw new PluginNetworkError("url", `${request.url} is not a valid URL`);
    }
    checkUrl(url, policy);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const headers: Record<string, string> = { "accept-encoding": "identity" };
    request.headers.forEach((value, name) => {
      if (name !== "accept-encoding") headers[name] = value;
    });
    if (body) headers["content-length"] = String(body.length);
    return new Promise<Response>((resolve, reject) => {
      const client = url.protocol === "https:" ? https : http;
      const outgoing = client.request(
        url,
        {
          method: request.method,
          headers,
          signal: request.signal,
          ...(isAllowedHost(url, policy) ? {} : { lookup: lookup as unknown as typeof dns.lookup }),
        },
        (incoming) => {
          const status = incoming.statusCode ?? 502;
          const responseHeaders = new Headers();
          for (let index = 0; index + 1 < incoming.rawHeaders.length; index += 2) {
            responseHeaders.append(incoming.rawHeaders[index]!, incoming.rawHeaders[index + 1]!);
          }
          const empty = request.method === "HEAD" || [204, 205, 304].includes(status);
          if (empty) incoming.resume();
          resolve(
            new Response(empty ? null : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>), {
              status: status >= 200 && status <= 599 ? status : 502,
              statusText: incoming.statusMessage ?? "",
              headers: responseHeaders,
            }),
          );
        },
      );
      outgoing.on("error", (error: NodeJS.ErrnoException & { cause?: unknown }) => {
        if (error.cause instanceof PluginNetworkError) reject(error.cause);
        else if (error instanceof PluginNetworkError) reject(error);
        else reject(Object.assign(new TypeError(`fetch failed: ${describeNetworkError(error)}`), { cause: error }));
      });
      outgoing.end(body);
    });
  };
}
