import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";

/** The address rules of one plugin call. */
export interface AddressPolicy {
  /** Loopback, private and link-local addresses are reachable (cloud metadata never is, unless listed below). */
  allowPrivateNetwork: boolean;
  /** `host` or `host:port` entries reachable whatever they resolve to. */
  allowedHosts: string[];
}

/** Resolves a host name to addresses; tests may replace DNS. */
export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: 4 | 6 }>>;

// Loopback, RFC 1918, link-local, "this network", carrier-grade NAT, multicast and reserved ranges.
const privateRanges = new net.BlockList();
privateRanges.addSubnet("0.0.0.0", 8, "ipv4");
privateRanges.addSubnet("10.0.0.0", 8, "ipv4");
privateRanges.addSubnet("100.64.0.0", 10, "ipv4");
privateRanges.addSubnet("127.0.0.0", 8, "ipv4");
privateRanges.addSubnet("169.254.0.0", 16, "ipv4");
privateRanges.addSubnet("172.16.0.0", 12, "ipv4");
privateRanges.addSubnet("192.0.0.0", 24, "ipv4");
privateRanges.addSubnet("192.168.0.0", 16, "ipv4");
privateRanges.addSubnet("198.18.0.0", 15, "ipv4");
privateRanges.addSubnet("224.0.0.0", 3, "ipv4");
privateRanges.addAddress("::", "ipv6");
privateRanges.addAddress("::1", "ipv6");
privateRanges.addSubnet("fc00::", 7, "ipv6");
privateRanges.addSubnet("fe80::", 10, "ipv6");
privateRanges.addSubnet("ff00::", 8, "ipv6");

// Instance metadata services (AWS, GCP, Azure, Alibaba, ECS task roles): credentials live there,
// so they stay refused even when the owner opens the private network.
const metadataAddresses = new Set(["169.254.169.254", "169.254.170.2", "100.100.100.200", "fd00:ec2::254"]);
const metadataHosts = new Set(["metadata.google.internal", "metadata.goog", "metadata", "instance-data", "instance-data.ec2.internal"]);

/** Why an address was refused, or undefined when it may be reached. */
export function refusalFor(address: string, policy: AddressPolicy): string | undefined {
  const plain = embeddedIpv4(address) ?? address;
  const family = net.isIPv4(plain) ? "ipv4" : net.isIPv6(plain) ? "ipv6" : undefined;
  if (!family) return `${address} is not an IP address`;
  if (metadataAddresses.has(plain.toLowerCase())) return `${address} is a cloud metadata address`;
  if (!policy.allowPrivateNetwork && privateRanges.check(plain, family)) return `${address} is a loopback, private or link-local address`;
  return undefined;
}

/** The IPv4 address inside an IPv4-mapped (`::ffff:a.b.c.d`) or NAT64 (`64:ff9b::a.b.c.d`) IPv6 address. */
function embeddedIpv4(address: string): string | undefined {
  if (!net.isIPv6(address)) return undefined;
  const match = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!match) return undefined;
  if (match[1]) return match[1];
  const high = Number.parseInt(match[2]!, 16);
  const low = Number.parseInt(match[3]!, 16);
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
  } else if (!policy.allowPrivateNetwork && (host === "localhost" || host.endsWith(".localhost"))) {
    throw new PluginNetworkError("refused", `refused to call ${url.host}: it is a loopback address`);
  }
}

const systemResolver: Resolver = async (hostname) => {
  const found = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
};

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
            callback(Object.assign(new PluginNetworkError("refused", `refused to call ${hostname}: it resolves to ${refusal}`), { code: "EREFUSEDADDRESS" }), "");
            return;
          }
        }
        if (options.all) callback(null, wanted.map((entry) => ({ address: entry.address, family: entry.family })));
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
