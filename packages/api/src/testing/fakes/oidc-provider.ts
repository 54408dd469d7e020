import { generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider, { type Adapter, type AdapterPayload, type Configuration, type JWK } from "oidc-provider";

/** A relying party registered with the fake provider. */
export interface OidcFakeClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
  /** Defaults to `client_secret_basic`. */
  token_endpoint_auth_method?: "client_secret_basic" | "client_secret_post";
}

/** A person who can sign in at the fake provider. */
export interface OidcFakeAccount {
  sub: string;
  email: string;
  name: string;
  /** Defaults to true. */
  email_verified?: boolean;
  picture?: string;
}

/** Options for {@link startOidcProvider}. */
export interface OidcProviderOptions {
  clients: OidcFakeClient[];
  accounts: OidcFakeAccount[];
  /** Signs this account in and grants consent without showing a page. */
  autoLoginAs?: string;
  /**
   * Put email/profile claims into the ID token. Off by default, as the spec has it for the
   * code flow (they then come from the userinfo endpoint).
   */
  claimsInIdToken?: boolean;
}

/** A running OpenID Connect provider; see {@link startOidcProvider}. */
export interface OidcProviderFake {
  /** The issuer, `http://127.0.0.1:<port>`; discovery lives at `/.well-known/openid-configuration`. */
  url: string;
  issuer: string;
  /** Changes (or clears, to show the login page) the account signed in automatically. */
  setAutoLogin(sub: string | undefined): void;
  /** Every sign-in the provider completed, oldest first. */
  readonly logins: { sub: string; clientId: string }[];
  close(): Promise<void>;
}

/**
 * Starts a real OpenID Connect provider (the `oidc-provider` package) on 127.0.0.1 with a random port:
 * discovery, JWKS (a fresh RS256 key), authorization code with PKCE S256 required, token, userinfo.
 *
 * Its interaction step is replaced: with `autoLoginAs` the account is signed in and consent granted
 * at once, so a client following redirects (keeping cookies, see `createBrowser`) reaches
 * `redirect_uri?code=…&state=…&iss=…`. Without it, a small HTML page lists the accounts as buttons and
 * a "cancel" button that ends the flow with `error=access_denied`.
 */
export async function startOidcProvider(options: OidcProviderOptions): Promise<OidcProviderFake> {
  const accounts = new Map(options.accounts.map((account) => [account.sub, account]));
  let autoLoginAs = options.autoLoginAs;
  const logins: OidcProviderFake["logins"] = [];

  let handler: (request: IncomingMessage, response: ServerResponse) => void = (_request, response) => {
    response.writeHead(503).end();
  };
  const server = createServer((request, response) => handler(request, response));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const signingKey = { ...(privateKey.export({ format: "jwk" }) as JWK), kid: randomBytes(8).toString("hex"), alg: "RS256", use: "sig" };

  const configuration: Configuration = {
    clients: options.clients.map((client) => ({
      client_id: client.client_id,
      client_secret: client.client_secret,
      redirect_uris: client.redirect_uris,
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: client.token_endpoint_auth_method ?? "client_secret_basic",
    })),
    adapter: createMemoryAdapterFactory(),
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AuthorizationCode: 60, AccessToken: 3600, IdToken: 3600 },
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(32).toString("hex")] },
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["name", "picture"],
    },
    conformIdTokenClaims: !options.claimsInIdToken,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_context, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_context, sub) {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        async claims() {
          return {
            sub,
            email: account.email,
            email_verified: account.email_verified ?? true,
            name: account.name,
            ...(account.picture ? { picture: account.picture } : {}),
          };
        },
      };
    },
  };
  const provider = new Provider(issuer, configuration);
  const providerCallback = provider.callback();

  /** Signs in (login prompt) or grants what the client asked for (consent prompt). */
  const finishInteraction = async (request: IncomingMessage, response: ServerResponse, sub: string | undefined) => {
    const details = await provider.interactionDetails(request, response);
    const clientId = String(details.params.client_id);
    if (sub === undefined) {
      await provider.interactionFinished(
        request,
        response,
        { error: "access_denied", error_description: "the user cancelled the sign-in" },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    if (details.prompt.name === "login") {
      if (!accounts.has(sub)) throw new Error(`unknown account ${sub}`);
      logins.push({ sub, clientId });
      await provider.interactionFinished(request, response, { login: { accountId: sub } }, { mergeWithLastSubmission: false });
      return;
    }
    const grant = details.grantId ? await provider.Grant.find(details.grantId) : new provider.Grant({ accountId: details.session?.accountId ?? sub, clientId });
    if (!grant) throw new Error("grant vanished");
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    const grantId = await grant.save();
    await provider.interactionFinished(request, response, { consent: { grantId } }, { mergeWithLastSubmission: true });
  };

  const interaction = async (request: IncomingMessage, response: ServerResponse, url: URL) => {
    if (request.method === "POST") {
      const form = new URLSearchParams(await readBody(request));
      const choice = form.get("sub");
      return finishInteraction(request, response, choice === null || choice === "" ? undefined : choice);
    }
    if (autoLoginAs !== undefined) return finishInteraction(request, response, autoLoginAs);
    const details = await provider.interactionDetails(request, response);
    if (details.prompt.name !== "login") return finishInteraction(request, response, details.session?.accountId);
    const buttons = options.accounts
      .map((account) => `<button name="sub" value="${escapeHtml(account.sub)}">${escapeHtml(account.name)} &lt;${escapeHtml(account.email)}&gt;</button>`)
      .join("");
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(
      `<!doctype html><meta charset="utf-8"><title>Sign in</title><h1>Sign in to the test provider</h1>` +
        `<form method="post" action="${escapeHtml(url.pathname)}">${buttons}<button name="sub" value="">Cancel</button></form>`,
    );
  };

  handler = (request, response) => {
    const url = new URL(request.url ?? "/", issuer);
    if (url.pathname.startsWith("/interaction/")) {
      interaction(request, response, url).catch((error: unknown) => {
        if (response.headersSent) return;
        response.writeHead(400, { "content-type": "text/plain" });
        response.end(error instanceof Error ? error.message : "interaction failed");
      });
      return;
    }
    providerCallback(request, response);
  };

  return {
    url: issuer,
    issuer,
    setAutoLogin(sub) {
      autoLoginAs = sub;
    },
    logins,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** Per-provider in-memory storage, so several fakes in one process never share state. */
function createMemoryAdapterFactory(): (model: string) => Adapter {
  const entries = new Map<string, { payload: AdapterPayload; expiresAt: number }>();
  const live = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      entries.delete(key);
      return undefined;
    }
    return entry.payload;
  };
  return (model) => {
    const keyOf = (id: string) => `${model}:${id}`;
    const findBy = (field: "userCode" | "uid", value: string) => {
      for (const [key, entry] of entries) {
        if (key.startsWith(`${model}:`) && entry.payload[field] === value) return live(key);
      }
      return undefined;
    };
    return {
      async upsert(id, payload, expiresIn) {
        entries.set(keyOf(id), { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : Number.POSITIVE_INFINITY });
      },
      async find(id) {
        return live(keyOf(id));
      },
      async findByUserCode(userCode) {
        return findBy("userCode", userCode);
      },
      async findByUid(uid) {
        return findBy("uid", uid);
      },
      async consume(id) {
        const payload = live(keyOf(id));
        if (payload) payload.consumed = Math.floor(Date.now() / 1000);
      },
      async destroy(id) {
        entries.delete(keyOf(id));
      },
      async revokeByGrantId(grantId) {
        for (const [key, entry] of entries) if (entry.payload.grantId === grantId) entries.delete(key);
      },
    };
  };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
