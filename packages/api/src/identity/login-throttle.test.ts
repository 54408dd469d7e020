import http from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { createMemoryThrottle } from "../http/throttle";
import { createUser } from "./service/accounts";
import { createTestContext, registerUser, type TestContext } from "../testing/harness";
import { codeFor } from "../testing/flows";

const contexts: TestContext[] = [];
afterAll(async () => {
  for (const created of contexts) await created.close();
});

async function listening(env: Record<string, string>, clock?: { at: number }) {
  const ctx = await createTestContext(env, clock ? { throttle: createMemoryThrottle(() => clock.at) } : {});
  contexts.push(ctx);
  return { ctx, base: await ctx.listen() };
}

interface Answer {
  status: number;
  retryAfter: number;
  body: { code: number; message: string };
}

// Loopback is a /8 on Linux: binding the client socket to 127.0.0.N gives each "address" its own IP.
function post(base: string, from: string, path: string, body: string, type: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${base}${path}`,
      { method: "POST", localAddress: from, agent: false, headers: { "content-type": type, "content-length": Buffer.byteLength(body), ...headers } },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, retryAfter: Number(response.headers["retry-after"] ?? 0), body: JSON.parse(text) }),
        );
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

const login = (base: string, from: string, username: string, password: string, headers: Record<string, string> = {}) =>
  post(base, from, "/api/v1/auth/login", new URLSearchParams({ username, password }).toString(), "application/x-www-form-urlencoded", headers);

const loginByCode = (base: string, from: string, target: string, code: string) =>
  post(base, from, "/api/v1/auth/login/code", JSON.stringify({ channel: "email", target, code }), "application/json");

const attackers = ["127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"];
const fifth = "127.0.0.6";
const env = {
  PARLEY_THROTTLE_LOGIN_PER_ACCOUNT: "5",
  PARLEY_THROTTLE_LOGIN_ACCOUNT_CEILING: "12",
  PARLEY_THROTTLE_LOGIN_PER_IP: "1000",
};

function tally(answers: Answer[]) {
  return {
    refusedPassword: answers.filter((answer) => answer.status === 401).length,
    throttled: answers.filter((answer) => answer.status === 429 && answer.body.code === 429 && answer.retryAfter > 0).length,
  };
}

describe("password guessing, parallel and sequential alike", () => {
  // 200 guesses from 4 addresses; pairs allow 5 each (20), the account ceiling 12 in all.
  const guesses = Array.from({ length: 200 }, (_, index) => attackers[index % attackers.length]!);

  for (const mode of ["parallel", "sequential"] as const) {
    it(`${mode}: only the ceiling's worth of guesses reach the password check, then the owner gets in by e-mail code`, async () => {
      const { ctx, base } = await listening(env);
      await registerUser(ctx, "owner@example.com", "owner-pass-1");
      // The owner signed in from home before the attack: that address keeps its password sign-in.
      expect((await login(base, "127.0.0.9", "owner@example.com", "owner-pass-1")).status).toBe(200);

      let answers: Answer[];
      if (mode === "parallel") {
        answers = await Promise.all(guesses.map((from, index) => login(base, from, "owner@example.com", `wrong-guess-${index}`)));
      } else {
        answers = [];
        for (const [index, from] of guesses.entries()) answers.push(await login(base, from, "owner@example.com", `wrong-guess-${index}`));
      }
      expect(tally(answers)).toEqual({ refusedPassword: 12, throttled: 188 });

      // The right password from a fifth address is refused too: the account's ceiling is reached.
      const right = await login(base, fifth, "owner@example.com", "owner-pass-1");
      expect(right.status).toBe(429);
      expect(right.body.message).toMatch(/sign in with a code sent to your e-mail or phone/);
      // So is an unknown account's after as many guesses: the answers tell nothing.
      const ghost = await Promise.all(guesses.map((from, index) => login(base, from, "ghost@example.com", `wrong-guess-${index}`)));
      expect(tally(ghost)).toEqual({ refusedPassword: 12, throttled: 188 });

      // The owner: by e-mail code from the new address, and by password from the known one.
      const code = await codeFor(ctx, { target: "owner@example.com", purpose: "login" });
      expect((await loginByCode(base, fifth, "owner@example.com", code)).status).toBe(200);
      expect((await login(base, fifth, "owner@example.com", "owner-pass-1")).status).toBe(200);
      expect((await login(base, "127.0.0.9", "owner@example.com", "owner-pass-1")).status).toBe(200);
      // The attackers stay throttled.
      expect((await login(base, attackers[0]!, "owner@example.com", "owner-pass-1")).status).toBe(429);
    });
  }

  it("a stranger's guesses lock only the stranger's address, which backs off twice as long each time", async () => {
    const clock = { at: Date.now() };
    const { ctx, base } = await listening({ ...env, PARLEY_THROTTLE_WINDOW_SECONDS: "60" }, clock);
    await registerUser(ctx, "ruth@example.com", "ruth-pass-1");
    for (let attempt = 0; attempt < 5; attempt++) expect((await login(base, attackers[0]!, "ruth@example.com", "bad-pass-1")).status).toBe(401);
    const first = await login(base, attackers[0]!, "ruth@example.com", "bad-pass-1");
    expect(first.status).toBe(429);
    expect(first.retryAfter).toBe(60);
    // The owner, from another address, is not locked out.
    expect((await login(base, fifth, "ruth@example.com", "ruth-pass-1")).status).toBe(200);

    clock.at += 61_000;
    for (let attempt = 0; attempt < 5; attempt++) expect((await login(base, attackers[0]!, "ruth@example.com", "bad-pass-2")).status).toBe(401);
    const second = await login(base, attackers[0]!, "ruth@example.com", "bad-pass-2");
    expect(second.status).toBe(429);
    expect(second.retryAfter).toBe(120);
    expect((await login(base, fifth, "ruth@example.com", "ruth-pass-1")).status).toBe(200);
  });
});

describe("behind a load balancer", () => {
  const balancer = "127.0.0.7";
  const via = (visitor: string) => ({ "x-forwarded-for": `${visitor}, ${balancer}` });

  it("counts the visitor named by a trusted balancer, not the balancer", async () => {
    // The balancer appends the peer it saw; here a second, trusted hop (127.0.0.7) sits in front.
    const { ctx, base } = await listening({ ...env, PARLEY_TRUSTED_PROXIES: "127.0.0.7/32, 127.0.0.8" });
    await registerUser(ctx, "lena@example.com", "lena-pass-1");
    for (let attempt = 0; attempt < 5; attempt++) expect((await login(base, "127.0.0.8", "lena@example.com", "bad", via("198.51.100.4"))).status).toBe(401);
    expect((await login(base, "127.0.0.8", "lena@example.com", "bad", via("198.51.100.4"))).status).toBe(429);
    // Another visitor through the same balancer is not locked out.
    expect((await login(base, "127.0.0.8", "lena@example.com", "lena-pass-1", via("198.51.100.5"))).status).toBe(200);
  });

  it("ignores X-Forwarded-For from a peer it does not trust, so a caller cannot pick its address", async () => {
    const { ctx, base } = await listening({ ...env, PARLEY_TRUSTED_PROXIES: "127.0.0.8" });
    await registerUser(ctx, "omar@example.com", "omar-pass-1");
    for (let attempt = 0; attempt < 5; attempt++)
      expect((await login(base, "127.0.0.9", "omar@example.com", "bad", { "x-forwarded-for": `203.0.113.${attempt}` })).status).toBe(401);
    expect((await login(base, "127.0.0.9", "omar@example.com", "bad", { "x-forwarded-for": "203.0.113.99" })).status).toBe(429);
  });

  it("refuses a trust list it cannot read, naming the setting", async () => {
    await expect(createTestContext({ PARLEY_TRUSTED_PROXIES: "10.0.0.0/99" })).rejects.toThrow(/PARLEY_TRUSTED_PROXIES/);
  });
});

describe("equal work for known and unknown accounts", () => {
  it("a wrong password takes as long on an unknown account, and on one without a password, as on a real one", async () => {
    const { ctx, base } = await listening({ PARLEY_THROTTLE_LOGIN_PER_ACCOUNT: "1000", PARLEY_THROTTLE_LOGIN_PER_IP: "1000" });
    await registerUser(ctx, "sam@example.com", "sam-pass-1");
    await createUser(ctx.deps, { name: "No password", email: "nopass@example.com" });
    const median = async (username: string) => {
      const times: number[] = [];
      for (let index = 0; index < 21; index++) {
        const started = performance.now();
        const answer = await login(base, "127.0.0.2", username, `wrong-pass-${index}`);
        times.push(performance.now() - started);
        expect(answer.status).toBe(401);
      }
      return times.sort((a, b) => a - b)[10]!;
    };
    await median("warmup@example.com");
    const known = await median("sam@example.com");
    const unknown = await median("nobody@example.com");
    const passwordless = await median("nopass@example.com");
    // Without the dummy hash an unknown account answered ~20× faster; noise stays well inside 2×.
    for (const other of [unknown, passwordless]) {
      expect(other).toBeGreaterThan(known / 2);
      expect(other).toBeLessThan(known * 2);
    }
  });
});
