import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bootstrap } from "./bootstrap";
import { sha256 } from "./crypto";
import { users } from "./db/schema/index";
import { createTestContext, latestCode, type TestContext } from "./testing/harness";
import { capturingLogger, codeFor, expectError, login } from "./testing/flows";

// Password hashes, session tokens and keys never travel back except in the one answer that
// issues them, and never reach the log. (The outbox logs verification codes on purpose.)
const logger = capturingLogger();
const bootstrapKey = "pk_bootstrap-secret-value-abcdefghijklmnop";
let ctx: TestContext;
const answers: { label: string; body: string }[] = [];

async function call(label: string, path: string, init: Parameters<TestContext["request"]>[1] = {}) {
  const response = await ctx.request(path, init);
  const body = await response.text();
  answers.push({ label, body });
  return { status: response.status, json: () => JSON.parse(body) as { data: Record<string, unknown> } };
}

beforeAll(async () => {
  ctx = await createTestContext({ PARLEY_BOOTSTRAP_API_KEY: bootstrapKey, PARLEY_CODE_RESEND_SECONDS: "0", PARLEY_LOG_LEVEL: "debug" }, { logger });
});
afterAll(async () => ctx.close());

describe("secrets stay secret", () => {
  it("no answer and no log line carries a password, hash, token or key it should not", async () => {
    const issued = new Map<string, string>();
    const result = await bootstrap(ctx.deps);
    const loginCode = new URL(result.signInUrl!).searchParams.get("loginCode")!;
    const owner = (await call("exchange", "/api/v1/auth/exchange", { method: "POST", json: { loginCode } })).json().data;
    issued.set(owner.token as string, "exchange");

    const password = "Sekrit-passw0rd-42";
    const code = await codeFor(ctx, { target: "gwen@example.com", purpose: "register" });
    const registered = (
      await call("register", "/api/v1/auth/register", { method: "POST", json: { channel: "email", target: "gwen@example.com", code, password } })
    ).json().data;
    issued.set(registered.token as string, "register");
    const token = registered.token as string;

    const signedIn = (await call("login", "/api/v1/auth/login", { method: "POST", form: { username: "gwen@example.com", password } })).json().data;
    issued.set(signedIn.token as string, "login");
    await call("login-wrong", "/api/v1/auth/login", { method: "POST", form: { username: "gwen@example.com", password: `${password}x` } });

    const apiKey = (await call("api-key", "/api/v1/me/api-keys", { method: "POST", token, json: { name: "k" } })).json().data;
    issued.set(apiKey.key as string, "api-key");
    const userKey = (await call("user-key", "/api/v1/user-keys", { method: "POST", token, json: { name: "u" } })).json().data;
    issued.set(userKey.key as string, "user-key");

    await call("me", "/api/v1/me", { token });
    await call("me-by-key", "/api/v1/me", { token: apiKey.key as string });
    await call("me-by-bootstrap-key", "/api/v1/me", { token: bootstrapKey });
    await call("api-keys", "/api/v1/me/api-keys", { token });
    await call("user-keys", "/api/v1/user-keys", { token });
    await call("spaces", "/api/v1/me/spaces", { token });
    await call("outbox", "/api/v1/outbox", { token: owner.token as string });
    await call("privileges", "/api/v1/privileges", { token });

    const changeCode = await codeFor(ctx, { target: "gwen@example.com", purpose: "change-password" }, token);
    const newPassword = "Another-passw0rd-7";
    await call("change-password", "/api/v1/me/password", { method: "POST", token, json: { oldPassword: password, newPassword, code: changeCode } });
    await call("logout", "/api/v1/auth/logout", { method: "POST", token });
    await call("after-logout", "/api/v1/me", { token });

    // A database failure while storing a password hash: the error must not leak the hash.
    await ctx.deps.db.run(sql.raw("CREATE TRIGGER refuse_users BEFORE INSERT ON users BEGIN SELECT RAISE(ABORT, 'refused by test'); END"));
    const failingPassword = "Failing-passw0rd-9";
    const failingCode = await codeFor(ctx, { target: "hal@example.com", purpose: "register" });
    const failed = await ctx.request("/api/v1/auth/register", {
      method: "POST",
      json: { channel: "email", target: "hal@example.com", code: failingCode, password: failingPassword },
    });
    answers.push({ label: "register-failing", body: await failed.clone().text() });
    await expectError(failed, 500);
    await ctx.deps.db.run(sql.raw("DROP TRIGGER refuse_users"));
    expect(logger.lines.some((line) => line.includes("refused by test"))).toBe(true);

    const hashes = (await ctx.deps.db.select({ hash: users.passwordHash }).from(users).all())
      .map((row) => row.hash)
      .filter((hash): hash is string => hash !== null);
    expect(hashes.length).toBeGreaterThanOrEqual(1);
    const saltsAndKeys = hashes.flatMap((hash) => hash.split("$").slice(4));
    const never = [password, newPassword, failingPassword, bootstrapKey, ...hashes, ...saltsAndKeys, ...[...issued.keys()].map(sha256)];

    for (const { label, body } of answers) {
      for (const secret of never) expect(body.includes(secret), `${label} leaks ${secret.slice(0, 12)}…`).toBe(false);
      expect(body, label).not.toMatch(/scrypt\$|passwordHash|password_hash|keyHash|tokenHash/);
      for (const [secret, issuer] of issued) {
        if (label !== issuer) expect(body.includes(secret), `${label} repeats the ${issuer} secret`).toBe(false);
      }
    }

    const log = logger.lines.join("\n");
    expect(log).toContain("outbox email to gwen@example.com");
    for (const secret of [...never, ...issued.keys(), loginCode]) {
      expect(log.includes(secret), `the log carries ${secret.slice(0, 12)}…`).toBe(false);
    }
    expect(log).not.toMatch(/scrypt\$/);
    // Sanity: the code really was logged, so the scan looked at the outbox lines.
    expect(log).toContain(await latestCode(ctx, "hal@example.com"));
    expect((await login(ctx, "gwen@example.com", newPassword)).status).toBe(200);
  });
});
