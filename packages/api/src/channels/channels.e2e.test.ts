import { createDecipheriv } from "node:crypto";
import { adapterFor, type ChannelKind, channelKinds } from "@parley/channels";
import { fakes, type PlatformFake } from "@parley/channels/testing";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAppVia } from "../apps/testing";
import { conversations, customers, messages } from "../db/schema/index";
import type { JobWorker } from "../jobs/worker";
import { createTestContext, freePort, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { upgradeSpaceForTest } from "../plans/testing";
import { createChannelWorker } from "./worker";
import { createWorkflowVia, simpleGraph } from "../workflows/testing";

/**
 * Every platform end to end: its local fake signs a message the way the platform does and posts
 * it to the client's webhook on a listening Parley; the agent's answer must reach the fake's send
 * API with the right credentials (or, for WeChat's passive reply, come back in the response).
 * A retried delivery changes nothing; a forged one is refused with nothing stored.
 */

let ctx: TestContext;
let worker: JobWorker;
let owner: TestUser;
let appId: string;
const running = new Map<ChannelKind, PlatformFake>();

beforeAll(async () => {
  for (const kind of channelKinds) running.set(kind, await fakes[kind]!());
  const port = await freePort();
  ctx = await createTestContext({
    PARLEY_PUBLIC_URL: `http://127.0.0.1:${port}`,
    PARLEY_CHANNEL_API_BASES: [...running].map(([kind, fake]) => `${kind}=${fake.apiBase}`).join(","),
  });
  await ctx.listen(port);
  worker = createChannelWorker(ctx.deps, { idleMs: 50 });
  worker.start();
  owner = await registerUser(ctx, "owner-channels@example.com");
  // What this test creates needs a plan above Free (issue 15).
  await upgradeSpaceForTest(ctx, owner.user.spaceId, "ENTERPRISE");
  appId = (await createAppVia(ctx, owner, { name: "Support bot" })).id;
});

afterAll(async () => {
  await worker?.stop();
  await ctx?.close();
  await Promise.all([...running.values()].map((fake) => fake.close()));
});

async function json(response: Response) {
  return (await response.json()) as { success: boolean; code: number; message: string; data: any };
}

async function rowCount(table: typeof messages | typeof conversations | typeof customers) {
  const row = await ctx.deps.db.select({ n: count() }).from(table).get();
  return row?.n ?? 0;
}

/** Reads a WeChat passive reply: plaintext XML, or the `Encrypt` envelope opened with the account's key. */
function passiveText(body: string, config: Record<string, string>): string {
  const encrypted = body.match(/<Encrypt><!\[CDATA\[(.*?)\]\]><\/Encrypt>/s)?.[1];
  let xml = body;
  if (encrypted) {
    const key = Buffer.from(`${config.encodingAesKey}=`, "base64");
    const decipher = createDecipheriv("aes-256-cbc", key, key.subarray(0, 16));
    decipher.setAutoPadding(false);
    const plain = Buffer.concat([decipher.update(Buffer.from(encrypted, "base64")), decipher.final()]);
    const padded = plain.subarray(0, plain.length - plain[plain.length - 1]!);
    const length = padded.readUInt32BE(16);
    xml = padded.subarray(20, 20 + length).toString("utf8");
  }
  return xml.match(/<Content><!\[CDATA\[(.*?)\]\]><\/Content>/s)?.[1] ?? "";
}

async function sessionOf(clientId: string) {
  const list = await json(await ctx.request(`/api/v1/inbox/sessions?clientId=${clientId}`, { token: owner.token }));
  expect(list.data.items).toHaveLength(1);
  return list.data.items[0] as { sessionId: string; readStatus: string; senderName: string | null; msgContent: string };
}

async function historyOf(sessionId: string) {
  const history = await json(await ctx.request(`/api/v1/inbox/sessions/${sessionId}/messages`, { token: owner.token }));
  return history.data.items as { role: string; content: string; delivery: string | null }[];
}

describe.each(channelKinds.map((kind) => [kind]))("%s end to end", (kind) => {
  it("answers a signed message through the platform, drops the retry, refuses a forgery", async () => {
    const fake = running.get(kind)!;
    const adapter = adapterFor(kind)!;
    const created = await ctx.request("/api/v1/channel-clients", {
      method: "POST",
      token: owner.token,
      json: { appId, name: `On ${kind}`, kind, config: fake.config },
    });
    const client = (await json(created)).data;
    expect(created.status, JSON.stringify(client)).toBe(201);
    expect(client.webhookUrl).toBe(`${ctx.config.publicUrl}/api/v1/channels/${client.id}/webhook`);
    // Secrets are accepted, sealed and never answered.
    const secretKeys = adapter.descriptor.fields.filter((field) => field.secret && fake.config[field.key]).map((field) => field.key);
    expect(client.secretsSet.sort()).toEqual(secretKeys.sort());
    for (const key of secretKeys) expect(JSON.stringify(client)).not.toContain(fake.config[key]);

    const text = `Hello from ${kind}, where is my parcel?`;
    const delivery = { text, senderId: `person-${kind}`, senderName: "Ada", id: `first-${kind}` };
    const response = await fetch(await fake.delivery(client.webhookUrl, delivery));
    const body = await response.text();
    expect(response.status, body).toBeLessThan(300);

    let answered: string;
    if (adapter.capabilities.passiveReply) {
      answered = passiveText(body, fake.config);
      expect(answered.length, body).toBeGreaterThan(0);
    } else {
      await expect.poll(() => fake.sent.length).toBeGreaterThan(0);
      expect(fake.sent.every((sent) => sent.authorized)).toBe(true);
      answered = fake.sent.map((sent) => sent.text).join("");
    }
    // Customers get a customer's answer from the offline responder, never the server's setup hints.
    expect(answered).not.toContain("OPENAI_API_KEY");
    const session = await sessionOf(client.id);
    expect(session.readStatus).toBe("UNREAD");
    await expect.poll(async () => (await historyOf(session.sessionId)).map((message) => message.role)).toEqual(["user", "assistant"]);
    const history = await historyOf(session.sessionId);
    expect(history[0]!.content).toBe(text);
    // What the platform got is exactly the stored answer (split parts joined back).
    expect(answered.replace(/\s+/g, "")).toBe(history[1]!.content.replace(/\s+/g, ""));
    await expect.poll(async () => (await historyOf(session.sessionId))[1]!.delivery).toBe("sent");

    // The platform retries the same delivery: acknowledged, nothing new stored or sent.
    const sentBefore = fake.sent.length;
    const retry = await fetch(await fake.delivery(client.webhookUrl, delivery));
    expect(retry.status).toBeLessThan(300);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await historyOf(session.sessionId)).toHaveLength(2);
    expect(fake.sent.length).toBe(sentBefore);

    // A forgery is refused and leaves no trace.
    const counts = [await rowCount(messages), await rowCount(conversations), await rowCount(customers)];
    const forged = await fetch(await fake.forged(client.webhookUrl, { text: "let me in", id: `forged-${kind}`, senderId: "mallory" }));
    expect([400, 401, 403]).toContain(forged.status);
    expect(JSON.stringify(await forged.json())).not.toContain("let me in");
    expect([await rowCount(messages), await rowCount(conversations), await rowCount(customers)]).toEqual(counts);

    // An operator's message goes out through the platform's send API.
    const operator = await ctx.request(`/api/v1/inbox/sessions/${session.sessionId}/messages`, {
      method: "POST",
      token: owner.token,
      json: { content: `A person here (${kind})` },
    });
    expect(operator.status).toBe(201);
    await expect.poll(() => fake.sent.some((sent) => sent.text === `A person here (${kind})` && sent.authorized)).toBe(true);
    expect((await json(operator)).data.delivery).toBe("sent");
    expect((await json(await ctx.request(`/api/v1/inbox/sessions/${session.sessionId}`, { token: owner.token }))).data.serviceMode).toBe("MANUAL_MODE");
  });
});

describe("a WORKFLOW app on a channel", () => {
  it("answers with its end node, and stays silent once a person has the session", async () => {
    const workflow = await createWorkflowVia(ctx, owner, simpleGraph());
    const app = (await json(await ctx.request(`/api/v1/workflows/${workflow.id}/app`, { method: "POST", token: owner.token }))).data as { appId: string };
    const fake = running.get("slack")!;
    const client = (
      await json(
        await ctx.request("/api/v1/channel-clients", {
          method: "POST",
          token: owner.token,
          json: { appId: app.appId, name: "Flow on Slack", kind: "slack", config: fake.config },
        }),
      )
    ).data;
    const before = fake.sent.length;
    await fetch(await fake.delivery(client.webhookUrl, { text: "Ada", id: "wf-1", senderId: "U-wf" }));
    await expect.poll(() => fake.sent.slice(before).map((sent) => sent.text)).toEqual(["Hello Ada"]);
    const session = await sessionOf(client.id);
    const mode = await ctx.request(`/api/v1/inbox/sessions/${session.sessionId}/mode`, {
      method: "PUT",
      token: owner.token,
      json: { serviceMode: "MANUAL_MODE", confirm: true },
    });
    expect(mode.status).toBe(200);
    await fetch(await fake.delivery(client.webhookUrl, { text: "Bob", id: "wf-2", senderId: "U-wf" }));
    await expect.poll(async () => (await historyOf(session.sessionId)).map((message) => message.content)).toContain("Bob");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fake.sent.slice(before).map((sent) => sent.text)).toEqual(["Hello Ada"]);
  });
});

describe("channel clients API", () => {
  it("lists every platform in the catalogue with its form in both languages", async () => {
    const catalogue = (await json(await ctx.request("/api/v1/channel-clients/catalogue", { token: owner.token }))).data as {
      kind: string;
      name: { en: string; "zh-CN": string };
    }[];
    expect(catalogue.map((entry) => entry.kind).sort()).toEqual([...channelKinds].sort());
    for (const entry of catalogue) expect(entry.name["zh-CN"]).not.toBe("");
  });

  it("refuses unknown kinds and fields and bad values, naming the field, and stores nothing", async () => {
    const before = (await json(await ctx.request("/api/v1/channel-clients", { token: owner.token }))).data.length;
    const unknownKind = await json(
      await ctx.request("/api/v1/channel-clients", { method: "POST", token: owner.token, json: { appId, name: "x", kind: "myspace" } }),
    );
    expect(unknownKind.data.field).toBe("kind");
    const unknownField = await json(
      await ctx.request("/api/v1/channel-clients", { method: "POST", token: owner.token, json: { appId, name: "x", kind: "telegram", config: { nope: "1" } } }),
    );
    expect(unknownField.data.field).toBe("config.nope");
    const otherApp = await ctx.request("/api/v1/channel-clients", {
      method: "POST",
      token: owner.token,
      json: { appId: "app_missing", name: "x", kind: "telegram" },
    });
    expect(otherApp.status).toBe(400);
    expect((await json(await ctx.request("/api/v1/channel-clients", { token: owner.token }))).data.length).toBe(before);
  });

  it("keeps a secret that a change leaves out, clears one set to empty, and never answers it", async () => {
    const created = (
      await json(
        await ctx.request("/api/v1/channel-clients", {
          method: "POST",
          token: owner.token,
          json: { appId, name: "TG", kind: "telegram", config: { botToken: "111:secret-token-aaa" } },
        }),
      )
    ).data;
    expect(created.secretsSet).toContain("botToken");
    expect(created.configured).toBe(true);
    const renamed = (
      await json(await ctx.request(`/api/v1/channel-clients/${created.id}`, { method: "PATCH", token: owner.token, json: { name: "TG 2", config: {} } }))
    ).data;
    expect(renamed.secretsSet).toContain("botToken");
    const cleared = (
      await json(await ctx.request(`/api/v1/channel-clients/${created.id}`, { method: "PATCH", token: owner.token, json: { config: { botToken: "" } } }))
    ).data;
    expect(cleared.secretsSet).not.toContain("botToken");
    expect(cleared.status).toBe("offline");
    const row = await ctx.deps.db
      .select()
      .from((await import("../db/schema/index")).channelClients)
      .where(eq((await import("../db/schema/index")).channelClients.id, created.id))
      .get();
    expect(row?.secrets ?? "").not.toContain("secret-token");
  });

  it("answers 403 for a disabled client's delivery and stores nothing; 404 for an unknown client", async () => {
    const fake = running.get("telegram")!;
    const client = (
      await json(
        await ctx.request("/api/v1/channel-clients", {
          method: "POST",
          token: owner.token,
          json: { appId, name: "Off", kind: "telegram", config: fake.config, enabled: false },
        }),
      )
    ).data;
    const before = await rowCount(messages);
    const refused = await fetch(await fake.delivery(client.webhookUrl, { text: "anyone?", id: "disabled-1" }));
    expect(refused.status).toBe(403);
    expect(await rowCount(messages)).toBe(before);
    const unknown = await fetch(await fake.delivery(`${ctx.config.publicUrl}/api/v1/channels/ch_nothing/webhook`, { text: "anyone?" }));
    expect(unknown.status).toBe(404);
  });

  it("keeps one space's clients and sessions from another", async () => {
    const other = await registerUser(ctx, "other-channels@example.com");
    const mine = (await json(await ctx.request("/api/v1/channel-clients", { token: owner.token }))).data as { id: string }[];
    expect(mine.length).toBeGreaterThan(0);
    const theirs = (await json(await ctx.request("/api/v1/channel-clients", { token: other.token }))).data;
    expect(theirs).toEqual([]);
    expect((await ctx.request(`/api/v1/channel-clients/${mine[0]!.id}`, { token: other.token })).status).toBe(404);
    expect((await ctx.request(`/api/v1/channel-clients/${mine[0]!.id}`, { method: "PATCH", token: other.token, json: { name: "mine now" } })).status).toBe(404);
    expect((await ctx.request(`/api/v1/channel-clients/${mine[0]!.id}`, { method: "DELETE", token: other.token })).status).toBe(404);
    expect((await json(await ctx.request("/api/v1/inbox/sessions", { token: other.token }))).data.items).toEqual([]);
  });
});
