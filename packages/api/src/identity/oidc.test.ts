import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { externalIdentities, oauthStates, users } from "../db/schema/index";
import { createBrowser } from "../testing/fakes/browser";
import { startOidcProvider, type OidcProviderFake } from "../testing/fakes/oidc-provider";
import { createTestContext, freePort, registerUser, type TestContext } from "../testing/harness";
import { expectError, expectOk } from "../testing/flows";
import { sessionSchema } from "./schemas";

const ada = { sub: "sub-ada", email: "Ada@Example.com", name: "Ada Lovelace", picture: "https://img.example.com/ada.png" };
const existing = { sub: "sub-zoe", email: "zoe@example.com", name: "Zoe" };
const unverified = { sub: "sub-eve", email: "eve@example.com", name: "Eve", email_verified: false };

let provider: OidcProviderFake;
let ctx: TestContext;
let base: string;

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  provider = await startOidcProvider({
    clients: [{ client_id: "parley-test", client_secret: "oidc-secret-value", redirect_uris: [`${base}/api/v1/auth/oidc/callback`] }],
    accounts: [ada, existing, unverified],
    autoLoginAs: ada.sub,
  });
  ctx = await createTestContext({
    PORT: String(port),
    PARLEY_PUBLIC_URL: base,
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: "parley-test",
    OIDC_CLIENT_SECRET: "oidc-secret-value",
    OIDC_NAME: "Test SSO",
    OIDC_ALLOW_INSECURE_HTTP: "true",
  });
  expect(await ctx.listen(port)).toBe(base);
});
afterAll(async () => {
  await ctx?.close();
  await provider?.close();
});

const atConsoleOrLogin = (url: URL) => url.origin === base && (url.pathname.startsWith("/console") || url.pathname === "/login");

/** Browser part of the flow, through our authorize and callback routes, to where the console takes over. */
async function signIn(sub: string, returnTo = "/console/account") {
  provider.setAutoLogin(sub);
  const visit = await createBrowser().open(`${base}/api/v1/auth/oidc/authorize?returnTo=${encodeURIComponent(returnTo)}`, { stopAt: atConsoleOrLogin });
  expect(visit.response, `stopped at ${visit.url.href}`).toBeUndefined();
  expect(visit.redirects[0]?.origin).toBe(provider.issuer);
  return visit.url;
}

function exchange(code: string) {
  return ctx.request("/api/v1/auth/exchange", { method: "POST", json: { code } });
}

describe("OpenID Connect sign-in through the API", () => {
  it("advertises the provider", async () => {
    const response = await ctx.request("/api/v1/auth/providers");
    expect(response.status).toBe(200);
    expect((await response.json()).data).toEqual({ email: true, phone: true, oidc: { enabled: true, name: "Test SSO" }, wechat: { enabled: false } });
  });

  it("creates a user from the verified e-mail, hands a single-use code to the console, and links the identity", async () => {
    const landed = await signIn(ada.sub);
    expect(landed.pathname).toBe("/console/account");
    const code = landed.searchParams.get("code");
    expect(code).toMatch(/^gc_/);

    const session = await expectOk(await exchange(code!), 200, sessionSchema);
    expect(session.user).toMatchObject({ email: "ada@example.com", name: "Ada Lovelace", avatarUrl: ada.picture, hasPassword: false });
    await expectError(await exchange(code!), 400, { field: "code" });

    const links = await ctx.deps.db.select().from(externalIdentities).where(eq(externalIdentities.subject, ada.sub)).all();
    expect(links).toEqual([expect.objectContaining({ provider: "oidc", userId: session.user.id })]);
    const states = await ctx.deps.db.select().from(oauthStates).where(eq(oauthStates.provider, "oidc")).all();
    expect(states.every((row) => row.status === "consumed")).toBe(true);

    // Signing in again reaches the same user.
    const again = await signIn(ada.sub, "/console/agents");
    expect(again.pathname).toBe("/console/agents");
    const second = await expectOk(await exchange(again.searchParams.get("code")!), 200, sessionSchema);
    expect(second.user.id).toBe(session.user.id);
    expect(await ctx.deps.db.select().from(users).where(eq(users.email, "ada@example.com")).all()).toHaveLength(1);
  });

  it("links to an existing account with the same verified e-mail", async () => {
    const zoe = await registerUser(ctx, "zoe@example.com");
    const landed = await signIn(existing.sub);
    const session = await expectOk(await exchange(landed.searchParams.get("code")!), 200, sessionSchema);
    expect(session.user.id).toBe(zoe.user.id);
    expect(session.user.hasPassword).toBe(true);
  });

  it("does not trust an unverified e-mail: a new account without that address", async () => {
    const owner = await registerUser(ctx, "eve@example.com");
    const landed = await signIn(unverified.sub);
    const session = await expectOk(await exchange(landed.searchParams.get("code")!), 200, sessionSchema);
    expect(session.user.id).not.toBe(owner.user.id);
    expect(session.user.email).toBeNull();
  });

  it("sends a tampered or replayed state to /login with authError, and the real one still works once", async () => {
    provider.setAutoLogin(ada.sub);
    const visit = await createBrowser().open(`${base}/api/v1/auth/oidc/authorize`, {
      stopAt: (url) => url.origin === base && url.pathname === "/api/v1/auth/oidc/callback",
    });
    const callback = visit.url;
    expect(callback.searchParams.get("code")).toBeTruthy();
    const tampered = new URL(callback);
    tampered.searchParams.set("state", `${callback.searchParams.get("state")}x`);
    const refused = await fetch(tampered, { redirect: "manual" });
    expect(refused.status).toBe(302);
    const target = new URL(refused.headers.get("location")!, base);
    expect(target.pathname).toBe("/login");
    expect(target.searchParams.get("authError")).toBe("oauth_state_invalid");
    expect(target.searchParams.has("code")).toBe(false);

    const accepted = await fetch(callback, { redirect: "manual" });
    const home = new URL(accepted.headers.get("location")!, base);
    expect(home.pathname).toBe("/console/agents");
    expect(home.searchParams.get("code")).toMatch(/^gc_/);

    const replayed = await fetch(callback, { redirect: "manual" });
    expect(new URL(replayed.headers.get("location")!, base).searchParams.get("authError")).toBe("oauth_state_invalid");
  });

  it("keeps returnTo on this site", async () => {
    for (const returnTo of ["https://evil.example.com/", "//evil.example.com/x", "/\\evil"]) {
      const landed = await signIn(ada.sub, returnTo);
      expect(landed.origin).toBe(base);
      expect(landed.pathname).toBe("/console/agents");
    }
  });

  it("reports a cancelled sign-in at the provider as an authError", async () => {
    provider.setAutoLogin(undefined);
    const usersBefore = (await ctx.deps.db.select().from(users).all()).length;
    const browser = createBrowser();
    const start = await browser.open(`${base}/api/v1/auth/oidc/authorize`, { stopAt: atConsoleOrLogin });
    expect(start.response?.status).toBe(200);
    const cancel = await browser.open(start.url, { form: { sub: "" }, stopAt: atConsoleOrLogin });
    expect(cancel.url.pathname).toBe("/login");
    expect(cancel.url.searchParams.get("authError")).toBe("provider_failed");
    expect(cancel.url.searchParams.has("code")).toBe(false);
    expect((await ctx.deps.db.select().from(users).all()).length).toBe(usersBefore);
    const pending = await ctx.deps.db
      .select()
      .from(oauthStates)
      .where(and(eq(oauthStates.provider, "oidc"), eq(oauthStates.status, "pending")))
      .all();
    expect(pending).toEqual([]);
  });
});

describe("without OIDC configured", () => {
  it("answers 404 for authorize and says so in providers", async () => {
    const plain = await createTestContext();
    try {
      await expectError(await plain.request("/api/v1/auth/oidc/authorize"), 404, { message: "OIDC sign-in is not configured" });
      expect((await (await plain.request("/api/v1/auth/providers")).json()).data.oidc.enabled).toBe(false);
    } finally {
      await plain.close();
    }
  });
});
