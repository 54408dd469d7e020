import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBrowser } from "../../testing/fakes/browser.js";
import { startOidcProvider, type OidcProviderFake } from "../../testing/fakes/oidc-provider.js";
import { ExternalProviderError, type OidcClient } from "../ports.js";
import { createOidcClient, type OidcClientConfig } from "./oidc.js";

const redirectUri = "http://127.0.0.1:1/api/auth/oidc/callback";
const isCallback = (url: URL) => url.href.startsWith(redirectUri);
const clientSecret = "client-secret-value-do-not-leak";
const ada = { sub: "user-ada", email: "ada@example.com", name: "Ada Lovelace", picture: "https://img.example.com/ada.png" };
const bob = { sub: "user-bob", email: "bob@example.com", name: "Bob", email_verified: false };

/** Runs the browser part of the flow: authorization URL → provider → our callback URL. */
async function signIn(oidc: OidcClient) {
  const start = await oidc.authorizationUrl({ redirectUri });
  const visit = await createBrowser().open(start.url, { stopAt: isCallback });
  expect(visit.response, "the flow should end at the callback").toBeUndefined();
  return { ...start, callbackUrl: visit.url.href };
}

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ExternalProviderError);
  const providerError = error as ExternalProviderError;
  expect(providerError.provider).toBe("oidc");
  expect(providerError.message).not.toContain(clientSecret);
  expect(JSON.stringify(providerError.detail ?? null)).not.toContain(clientSecret);
  return providerError;
}

describe("createOidcClient against a local oidc-provider", () => {
  let provider: OidcProviderFake;
  let requests: string[];
  let config: OidcClientConfig;

  beforeAll(async () => {
    provider = await startOidcProvider({
      clients: [
        { client_id: "parley", client_secret: clientSecret, redirect_uris: [redirectUri] },
        {
          client_id: "parley-post",
          client_secret: clientSecret,
          redirect_uris: [redirectUri],
          token_endpoint_auth_method: "client_secret_post",
        },
      ],
      accounts: [ada, bob],
      autoLoginAs: ada.sub,
    });
    requests = [];
    const counting: typeof fetch = (input, init) => {
      requests.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
      return fetch(input, init);
    };
    config = { issuer: provider.issuer, clientId: "parley", clientSecret, allowInsecureHttp: true, fetch: counting };
  });
  afterAll(() => provider.close());

  it("builds a PKCE S256 authorization URL with fresh state and nonce", async () => {
    const oidc = createOidcClient(config);
    const first = await oidc.authorizationUrl({ redirectUri });
    const second = await oidc.authorizationUrl({ redirectUri });
    const url = new URL(first.url);
    expect(url.origin + url.pathname).toBe(`${provider.issuer}/auth`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: "parley",
      response_type: "code",
      redirect_uri: redirectUri,
      scope: "openid email profile",
      state: first.state,
      nonce: first.nonce,
      code_challenge_method: "S256",
    });
    const { createHash } = await import("node:crypto");
    expect(url.searchParams.get("code_challenge")).toBe(createHash("sha256").update(first.codeVerifier).digest("base64url"));
    expect(second.state).not.toBe(first.state);
    expect(second.nonce).not.toBe(first.nonce);
    expect(second.codeVerifier).not.toBe(first.codeVerifier);
    expect(requests.filter((path) => path.endsWith("/openid-configuration"))).toHaveLength(1);
  });

  it("signs in and maps the claims (from userinfo, as the code flow leaves them out of the ID token)", async () => {
    const oidc = createOidcClient(config);
    const flow = await signIn(oidc);
    requests.length = 0;
    const identity = await oidc.finish({ ...flow, redirectUri });
    expect(identity).toEqual({
      provider: "oidc",
      subject: "user-ada",
      email: "ada@example.com",
      emailVerified: true,
      name: "Ada Lovelace",
      avatarUrl: "https://img.example.com/ada.png",
    });
    expect(requests).toEqual(["/token", "/jwks", "/me"]);
    expect(provider.logins.at(-1)).toEqual({ sub: "user-ada", clientId: "parley" });
  });

  it("reads the claims from the ID token alone when the provider puts them all there", async () => {
    const generous = await startOidcProvider({
      clients: [{ client_id: "parley", client_secret: clientSecret, redirect_uris: [redirectUri] }],
      accounts: [ada, bob],
      autoLoginAs: ada.sub,
      claimsInIdToken: true,
    });
    try {
      const paths: string[] = [];
      const oidc = createOidcClient({
        ...config,
        issuer: generous.issuer,
        fetch: (input, init) => {
          paths.push(new URL(String(input instanceof Request ? input.url : input)).pathname);
          return fetch(input, init);
        },
      });
      const adaIdentity = await oidc.finish({ ...(await signIn(oidc)), redirectUri });
      expect(adaIdentity).toMatchObject({ subject: "user-ada", email: "ada@example.com", avatarUrl: ada.picture });
      expect(paths).toContain("/jwks");
      expect(paths).not.toContain("/me");

      // Bob has no picture, so userinfo is asked whether it knows one.
      generous.setAutoLogin(bob.sub);
      const bobIdentity = await oidc.finish({ ...(await signIn(oidc)), redirectUri });
      expect(bobIdentity).toEqual({ provider: "oidc", subject: "user-bob", email: "bob@example.com", emailVerified: false, name: "Bob" });
      expect(paths).toContain("/me");
    } finally {
      await generous.close();
    }
  });

  it("authenticates with client_secret_post when configured", async () => {
    const oidc = createOidcClient({ ...config, clientId: "parley-post", tokenEndpointAuthMethod: "client_secret_post" });
    const flow = await signIn(oidc);
    await expect(oidc.finish({ ...flow, redirectUri })).resolves.toMatchObject({ subject: "user-ada" });
  });

  it("refuses a code used twice", async () => {
    const oidc = createOidcClient(config);
    const flow = await signIn(oidc);
    await oidc.finish({ ...flow, redirectUri });
    const error = await refusal(oidc.finish({ ...flow, redirectUri }));
    expect(error.detail).toMatchObject({ step: "callback", error: "invalid_grant" });
  });

  it("refuses a callback whose state does not match", async () => {
    const oidc = createOidcClient(config);
    const flow = await signIn(oidc);
    const error = await refusal(oidc.finish({ ...flow, redirectUri, state: "someone-elses-state" }));
    expect(error.message).toMatch(/state/);
  });

  it("refuses an ID token minted for another nonce", async () => {
    const oidc = createOidcClient(config);
    const flow = await signIn(oidc);
    const error = await refusal(oidc.finish({ ...flow, redirectUri, nonce: "another-nonce" }));
    expect(error.message).toMatch(/nonce/);
  });

  it("refuses a wrong PKCE verifier", async () => {
    const oidc = createOidcClient(config);
    const flow = await signIn(oidc);
    const other = await oidc.authorizationUrl({ redirectUri });
    const error = await refusal(oidc.finish({ ...flow, redirectUri, codeVerifier: other.codeVerifier }));
    expect(error.detail).toMatchObject({ error: "invalid_grant" });
  });

  it("refuses a wrong client secret", async () => {
    const oidc = createOidcClient({ ...config, clientSecret: "wrong-secret-value" });
    const flow = await signIn(oidc);
    const error = await refusal(oidc.finish({ ...flow, redirectUri }));
    expect(error.detail).toMatchObject({ error: "invalid_client" });
    expect(error.message).not.toContain("wrong-secret-value");
  });

  it("refuses an ID token whose signature was tampered with", async () => {
    const tampering: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!String(input instanceof Request ? input.url : input).endsWith("/token")) return response;
      const body = (await response.json()) as { id_token: string };
      const [header, payload, signature] = body.id_token.split(".") as [string, string, string];
      const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, unknown>;
      const forged = Buffer.from(JSON.stringify({ ...claims, sub: "user-bob" })).toString("base64url");
      return Response.json({ ...body, id_token: `${header}.${forged}.${signature}` }, { headers: response.headers });
    };
    const oidc = createOidcClient({ ...config, fetch: tampering });
    const flow = await signIn(oidc);
    const error = await refusal(oidc.finish({ ...flow, redirectUri }));
    expect(error.message).toMatch(/signature/i);
  });

  it("passes on a user's refusal from the callback", async () => {
    provider.setAutoLogin(undefined);
    try {
      const oidc = createOidcClient(config);
      const start = await oidc.authorizationUrl({ redirectUri });
      const browser = createBrowser();
      const page = await browser.open(start.url, { stopAt: isCallback });
      const html = await page.response!.text();
      expect(html).toContain("Ada Lovelace");
      const cancelled = await browser.open(page.url, { form: { sub: "" }, stopAt: isCallback });
      expect(cancelled.url.searchParams.get("error")).toBe("access_denied");
      const error = await refusal(
        oidc.finish({ callbackUrl: cancelled.url.href, redirectUri, state: start.state, nonce: start.nonce, codeVerifier: start.codeVerifier }),
      );
      expect(error.detail).toMatchObject({ error: "access_denied" });
    } finally {
      provider.setAutoLogin(ada.sub);
    }
  });

  it("lets a person pick the account on the login page", async () => {
    provider.setAutoLogin(undefined);
    try {
      const oidc = createOidcClient(config);
      const start = await oidc.authorizationUrl({ redirectUri });
      const browser = createBrowser();
      const page = await browser.open(start.url, { stopAt: isCallback });
      const chosen = await browser.open(page.url, { form: { sub: bob.sub }, stopAt: isCallback });
      const identity = await oidc.finish({ ...start, callbackUrl: chosen.url.href, redirectUri });
      expect(identity).toMatchObject({ subject: "user-bob", email: "bob@example.com", emailVerified: false });
    } finally {
      provider.setAutoLogin(ada.sub);
    }
  });

  it("refuses an http issuer unless allowed", async () => {
    const oidc = createOidcClient({ ...config, allowInsecureHttp: false });
    const error = await refusal(oidc.authorizationUrl({ redirectUri }));
    expect(error.detail).toMatchObject({ step: "discovery" });
  });

  it("retries discovery after a failure instead of caching it", async () => {
    const late = createServer();
    await new Promise<void>((resolve) => late.listen(0, "127.0.0.1", resolve));
    const port = (late.address() as AddressInfo).port;
    await new Promise<void>((resolve) => late.close(() => resolve()));
    let attempts = 0;
    const flaky: typeof fetch = (input, init) => {
      attempts += 1;
      return attempts === 1 ? fetch(`http://127.0.0.1:${port}/`, init) : fetch(input, init);
    };
    const oidc = createOidcClient({ ...config, fetch: flaky });
    await refusal(oidc.authorizationUrl({ redirectUri }));
    await expect(oidc.authorizationUrl({ redirectUri })).resolves.toHaveProperty("state");
  });
});
