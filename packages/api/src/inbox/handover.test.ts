import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAppVia } from "../apps/testing";
import { outbox, usageRecords } from "../db/schema/index";
import { createKnowledgeBaseVia } from "../knowledge/testing";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { upgradeSpaceForTest } from "../plans/testing";
import { capturingLogger, manualClock } from "../testing/flows";
import robotAnswers from "./fixtures/robot-answers.json";
import { INTENT_SIMILARITY, LEXICAL_INTENT_SIMILARITY, matchTrigger } from "./handover";
import {
  conversationRow,
  eventually,
  inboxSpace,
  type InboxSpace,
  recordRealtime,
  setManualService,
  startVisitor,
  storedMessages,
  type Visitor,
  visitorSays,
} from "./testing";

// Handover (spec §3 Manual-service config): keyword and intent triggers, the knowledge no-hit
// transfer, and the notices members get by e-mail and through DingTalk, Feishu and WeCom robots.
const clock = manualClock(Date.parse("2026-11-10T09:00:00.000Z"));
let ctx: TestContext;
let alice: TestUser;
let space: InboxSpace;

/** A stand-in for the robots' webhook endpoints: records every request, answers as told. */
interface Received {
  path: string;
  query: URLSearchParams;
  body: any;
}
let robots: Server;
let robotUrl: string;
const received: Received[] = [];
const DING_SECRET = "SECding123";
const FEISHU_SECRET = "feishu-secret";
const logger = capturingLogger();

beforeAll(async () => {
  robots = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const url = new URL(request.url ?? "/", "http://robots");
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "null");
      received.push({ path: url.pathname, query: url.searchParams, body });
      if (url.pathname.startsWith("/broken")) {
        response.writeHead(500, { "content-type": "text/plain" });
        response.end("internal error");
        return;
      }
      // Like the platforms: HTTP 200 either way, the signature (or key) checked, the outcome in the body.
      let answer: unknown;
      if (url.pathname.startsWith("/dingtalk")) {
        const timestamp = url.searchParams.get("timestamp") ?? "";
        const expected = createHmac("sha256", DING_SECRET).update(`${timestamp}\n${DING_SECRET}`).digest("base64");
        answer = url.searchParams.get("sign") === expected ? robotAnswers.dingtalk.ok : robotAnswers.dingtalk.badSign;
      } else if (url.pathname.startsWith("/feishu")) {
        const expected = createHmac("sha256", `${body?.timestamp}\n${FEISHU_SECRET}`).update("").digest("base64");
        answer = body?.sign === expected ? robotAnswers.feishu.ok : robotAnswers.feishu.badSign;
      } else {
        answer = url.searchParams.get("key") === "bad-key" ? robotAnswers.wecom.badKey : robotAnswers.wecom.ok;
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => robots.listen(0, "127.0.0.1", resolve));
  robotUrl = `http://127.0.0.1:${(robots.address() as AddressInfo).port}`;
  ctx = await createTestContext({ PARLEY_PLUGINS_ALLOW_PRIVATE_NETWORK: "true", PARLEY_PLUGINS_ALLOWED_HOSTS: "127.0.0.1" }, { now: clock.now, logger });
  alice = await registerUser(ctx, "alice-handover@example.com");
  // What this test creates needs a plan above Free (issue 15).
  await upgradeSpaceForTest(ctx, alice.user.spaceId);
  space = await inboxSpace(ctx, alice, { name: "Shop bot" });
});
afterAll(async () => {
  await ctx.close();
  await new Promise((resolve) => robots.close(resolve));
});

async function say(visitor: Visitor, content: string) {
  clock.advance(1000);
  return visitorSays(ctx, visitor, content);
}

describe("keyword trigger", () => {
  it("hands over on a keyword: MANUAL_MODE, handover time, the default reply streamed and stored, no model answer", async () => {
    await setManualService(ctx, space, { triggers: [{ type: "keyword", content: "human, 人工" }], defaultReply: "A colleague will be with you shortly." });
    const visitor = await startVisitor(ctx, space.clientId);
    const plain = await say(visitor, "Where is my parcel?");
    expect(plain.finishReason).toBe("stop");
    expect((await conversationRow(ctx, visitor.sessionId)).serviceMode).toBe("FULL_AUTO_MODE");

    const events = recordRealtime(ctx);
    const turn = await say(visitor, "I want a HUMAN please");
    expect(turn.finishReason).toBe("handover");
    expect(turn.text).toBe("A colleague will be with you shortly.");
    const row = await conversationRow(ctx, visitor.sessionId);
    expect(row.serviceMode).toBe("MANUAL_MODE");
    expect(row.handoverRequestedAt).toBe(clock.now().toISOString());
    const stored = await storedMessages(ctx, visitor.sessionId);
    expect(stored.slice(-2).map((message) => [message.role, message.content, message.model])).toEqual([
      ["user", "I want a HUMAN please", null],
      ["assistant", "A colleague will be with you shortly.", "handover"],
    ]);
    expect(stored.at(-1)!.id).toBe(turn.messageId);
    // No model ran: no usage was recorded for the turn.
    expect(await ctx.deps.db.select().from(usageRecords).where(eq(usageRecords.messageId, turn.messageId!))).toEqual([]);
    expect(events.toSpace(alice.user.spaceId, "session.mode").map((item) => item.data)).toEqual([{ sessionId: visitor.sessionId, serviceMode: "MANUAL_MODE" }]);
    expect(events.toVisitor(visitor, "mode").map((item) => item.data)).toEqual([{ serviceMode: "MANUAL_MODE" }]);
    events.stop();

    // Chinese keywords (separated by a comma) work as well; without a default reply nothing is said.
    await setManualService(ctx, space, { triggers: [{ type: "keyword", content: "human, 人工" }], defaultReply: null });
    const other = await startVisitor(ctx, space.clientId);
    const chinese = await say(other, "我要转人工");
    expect(chinese).toMatchObject({ finishReason: "handover", text: "" });
    expect((await conversationRow(ctx, other.sessionId)).serviceMode).toBe("MANUAL_MODE");
    expect((await storedMessages(ctx, other.sessionId)).map((message) => message.role)).toEqual(["user"]);
  });
});

describe("intent trigger", () => {
  it("matches a message that shares the intent's words, not one that only shares a few common ones", async () => {
    const intent = "I want a refund for my order";
    await setManualService(ctx, space, { triggers: [{ type: "intent", content: intent }], defaultReply: "Passing you to our refunds team." });
    const refund = await startVisitor(ctx, space.clientId);
    const turn = await say(refund, "Can I get a refund for my order?");
    expect(turn).toMatchObject({ finishReason: "handover", text: "Passing you to our refunds team." });
    expect((await conversationRow(ctx, refund.sessionId)).serviceMode).toBe("MANUAL_MODE");

    // Shares "I want", "order" and "my" with the intent (a cosine of about 0.6 with the lexical embedder), but means something else.
    for (const text of ["I want to order a pizza", "What is the order status for my order?", "How do I reset my password?"]) {
      const visitor = await startVisitor(ctx, space.clientId);
      const other = await say(visitor, text);
      expect(other.finishReason, text).toBe("stop");
      expect((await conversationRow(ctx, visitor.sessionId)).serviceMode, text).toBe("FULL_AUTO_MODE");
    }
  });

  it("uses the lexical threshold with the offline embedder (measured: paraphrases ≥ 0.64, word-sharing unrelated questions up to 0.6)", async () => {
    expect(ctx.deps.knowledge.defaultEmbedder.lexical).toBe(true);
    expect(LEXICAL_INTENT_SIMILARITY).toBeGreaterThan(INTENT_SIMILARITY);
    const manual = { triggers: [{ type: "intent" as const, content: "cancel my subscription" }] } as Parameters<typeof matchTrigger>[1];
    expect(await matchTrigger(ctx.deps, manual, "please cancel my subscription now")).toEqual({ type: "intent", content: "cancel my subscription" });
    expect(await matchTrigger(ctx.deps, manual, "How do I change my password?")).toBeUndefined();
    const chinese = { triggers: [{ type: "intent" as const, content: "转人工客服" }] } as Parameters<typeof matchTrigger>[1];
    expect(await matchTrigger(ctx.deps, chinese, "帮我转人工客服")).toBeDefined();
    expect(await matchTrigger(ctx.deps, chinese, "客服几点上班")).toBeUndefined();
  });
});

describe("knowledge no-hit: transfer to a person", () => {
  it("switches a widget session to MANUAL_MODE", async () => {
    const base = await createKnowledgeBaseVia(ctx, alice);
    const app = await createAppVia(ctx, alice, {
      type: "KNOWLEDGE",
      knowledgeBaseIds: [base.id],
      retrievalMode: "semantic",
      similarityThreshold: 0.3,
      noHitStrategy: "manual",
    });
    const created = await ctx.request("/api/v1/web-clients", { method: "POST", token: alice.token, json: { appId: app.id, name: "Knowledge widget" } });
    const clientId = ((await created.json()) as { data: { id: string } }).data.id;
    const visitor = await startVisitor(ctx, clientId);
    const events = recordRealtime(ctx);
    const turn = await say(visitor, "What is the capital of France?");
    expect(turn.finishReason).toBe("handover");
    expect(turn.text).toMatch(/passing your question to a colleague/);
    const row = await conversationRow(ctx, visitor.sessionId);
    expect(row).toMatchObject({ serviceMode: "MANUAL_MODE", handoverRequestedAt: clock.now().toISOString() });
    expect(events.toVisitor(visitor, "mode").map((item) => item.data)).toEqual([{ serviceMode: "MANUAL_MODE" }]);
    events.stop();
    // With replyMode none the AI is silent from now on.
    expect(await say(visitor, "Hello?")).toMatchObject({ finishReason: "handover", text: "" });
  });

  it("with replyMode continue, a further no-hit in a session a person already has does not hand over (or notify) again", async () => {
    const base = await createKnowledgeBaseVia(ctx, alice);
    const app = await createAppVia(ctx, alice, {
      name: "Continue bot",
      type: "KNOWLEDGE",
      knowledgeBaseIds: [base.id],
      retrievalMode: "semantic",
      similarityThreshold: 0.3,
      noHitStrategy: "manual",
    });
    const created = await ctx.request("/api/v1/web-clients", { method: "POST", token: alice.token, json: { appId: app.id, name: "Continue widget" } });
    const clientId = ((await created.json()) as { data: { id: string } }).data.id;
    await setManualService(ctx, { user: alice, appId: app.id, clientId }, { replyMode: "continue", notify: { email: true }, notifyMemberIds: [alice.user.id] });
    const notices = () =>
      ctx.deps.db
        .select()
        .from(outbox)
        .where(eq(outbox.to, alice.email))
        .then((rows) => rows.filter((row) => row.subject.includes("Continue bot")));
    const visitor = await startVisitor(ctx, clientId);
    const events = recordRealtime(ctx);
    expect((await say(visitor, "What is the capital of France?")).finishReason).toBe("handover");
    const handedOverAt = (await conversationRow(ctx, visitor.sessionId)).handoverRequestedAt;
    await eventually(async () => (await notices()).length === 1);
    // The AI keeps replying after the handover, and finds nothing again.
    const again = await say(visitor, "And the capital of Spain?");
    expect(again.finishReason).toBe("handover");
    expect(again.text).toMatch(/passing your question to a colleague/);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await notices()).toHaveLength(1);
    expect(events.toVisitor(visitor, "mode")).toHaveLength(1);
    expect(events.toSpace(alice.user.spaceId, "session.mode")).toHaveLength(1);
    expect((await conversationRow(ctx, visitor.sessionId)).handoverRequestedAt).toBe(handedOverAt);
    events.stop();
  });
});

describe("notices", () => {
  const mailsTo = (email: string) =>
    ctx.deps.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.to, email), eq(outbox.channel, "email")))
      .then((rows) => rows.filter((row) => row.subject.includes("waiting for a person") || row.subject.includes("等待人工接待")));

  it("e-mails the members to notify, with the summary", async () => {
    await setManualService(ctx, space, {
      triggers: [{ type: "keyword", content: "human" }],
      defaultReply: "A colleague will be with you shortly.",
      notify: { email: true },
      notifyMemberIds: [alice.user.id],
      summaryTemplate: [{ property: "Order number", content: "The order asked about", description: "Digits only" }],
    });
    const before = (await mailsTo(alice.email)).length;
    const visitor = await startVisitor(ctx, space.clientId);
    await say(visitor, "My order 5521 is late");
    const turn = await say(visitor, "I need a human");
    expect(turn.finishReason).toBe("handover");
    const mails = await eventually(async () => {
      const rows = await mailsTo(alice.email);
      return rows.length > before ? rows : undefined;
    });
    expect(mails).toHaveLength(before + 1);
    const mail = mails.at(-1)!;
    expect(mail.subject).toBe("A conversation with Shop bot is waiting for a person");
    const row = await conversationRow(ctx, visitor.sessionId);
    expect(mail.text).toContain(`Customer: ${row.senderName}`);
    expect(mail.text).toContain("Channel: web-embed");
    // The offline model cannot fill the template in: the properties are listed empty.
    expect(mail.text).toContain("Order number: -");
    expect(mail.text).toContain("Last message: I need a human");
    expect(mail.text).toContain(`http://127.0.0.1:3000/console/chatManage?session=${visitor.sessionId}`);
  });

  it("an operator taking a session over notifies too; the last message is the customer's, not the operator's", async () => {
    await setManualService(ctx, space, { notify: { email: true }, notifyMemberIds: [alice.user.id] });
    const visitor = await startVisitor(ctx, space.clientId);
    await say(visitor, "My parcel never arrived");
    // An operator's message takes the session over without a notice; hand it back, then take it over.
    clock.advance(1000);
    expect(
      (await ctx.request(`/api/v1/inbox/sessions/${visitor.sessionId}/messages`, { method: "POST", token: alice.token, json: { content: "Looking into it" } }))
        .status,
    ).toBe(201);
    const before = (await mailsTo(alice.email)).length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await mailsTo(alice.email)).toHaveLength(before);
    const mode = (serviceMode: string) =>
      ctx.request(`/api/v1/inbox/sessions/${visitor.sessionId}/mode`, {
        method: "PUT",
        token: alice.token,
        json: { serviceMode, confirm: true },
        headers: { "accept-language": "zh-CN" },
      });
    expect((await mode("FULL_AUTO_MODE")).status).toBe(200);
    expect((await mode("MANUAL_MODE")).status).toBe(200);
    const mail = (
      await eventually(async () => {
        const rows = await mailsTo(alice.email);
        return rows.length > before ? rows : undefined;
      })
    ).at(-1)!;
    // Written in the operator's language.
    expect(mail.subject).toBe("Shop bot 有一个会话等待人工接待");
    expect(mail.text).toContain("最后一条消息: My parcel never arrived");
    expect(mail.text).not.toContain("最后一条消息: alice-handover");
  });

  it("posts exactly one correctly signed notice to each DingTalk, Feishu and WeCom robot", async () => {
    await setManualService(ctx, space, {
      triggers: [{ type: "keyword", content: "human" }],
      defaultReply: "A colleague will be with you shortly.",
      notify: {
        webhook: true,
        webhooks: [
          { kind: "dingtalk", url: `${robotUrl}/dingtalk/robot/send?access_token=ding-token`, secret: "SECding123" },
          { kind: "feishu", url: `${robotUrl}/feishu/open-apis/bot/v2/hook/abc`, secret: "feishu-secret" },
          { kind: "wecom", url: `${robotUrl}/wecom/cgi-bin/webhook/send?key=wecom-key`, secret: "unused" },
        ],
      },
    });
    received.splice(0);
    const visitor = await startVisitor(ctx, space.clientId);
    const turn = await say(visitor, "human please");
    expect(turn).toMatchObject({ finishReason: "handover", text: "A colleague will be with you shortly." });
    await eventually(() => received.length >= 3);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(received.map((item) => item.path).sort()).toEqual(["/dingtalk/robot/send", "/feishu/open-apis/bot/v2/hook/abc", "/wecom/cgi-bin/webhook/send"]);

    const ding = received.find((item) => item.path.startsWith("/dingtalk"))!;
    expect(ding.query.get("access_token")).toBe("ding-token");
    const dingTimestamp = ding.query.get("timestamp")!;
    expect(dingTimestamp).toBe(String(clock.now().getTime()));
    expect(ding.query.get("sign")).toBe(createHmac("sha256", "SECding123").update(`${dingTimestamp}\nSECding123`).digest("base64"));
    expect(ding.body.msgtype).toBe("text");
    expect(ding.body.text.content).toContain("A conversation with Shop bot is waiting for a person");
    expect(ding.body.text.content).toContain(`session=${visitor.sessionId}`);

    const feishu = received.find((item) => item.path.startsWith("/feishu"))!;
    expect(feishu.body.timestamp).toBe(String(Math.floor(clock.now().getTime() / 1000)));
    expect(feishu.body.sign).toBe(createHmac("sha256", `${feishu.body.timestamp}\nfeishu-secret`).update("").digest("base64"));
    expect(feishu.body.msg_type).toBe("text");
    expect(feishu.body.content.text).toContain("Last message:");

    const wecom = received.find((item) => item.path.startsWith("/wecom"))!;
    expect(wecom.query.get("key")).toBe("wecom-key");
    expect(wecom.body).toEqual({ msgtype: "text", text: { content: expect.stringContaining("waiting for a person") } });
    // Every robot accepted its notice.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(logger.lines.filter((line) => line.includes("handover notice") && line.includes(visitor.sessionId))).toEqual([]);
  });

  it("a failing robot does not break the handover, and the other notices still go out", async () => {
    await setManualService(ctx, space, {
      triggers: [{ type: "keyword", content: "human" }],
      defaultReply: "A colleague will be with you shortly.",
      notify: {
        email: true,
        webhook: true,
        webhooks: [
          { kind: "dingtalk", url: `${robotUrl}/broken/dingtalk`, secret: "SECx" },
          { kind: "feishu", url: "http://127.0.0.1:1/unreachable", secret: "s" },
          { kind: "dingtalk", url: `${robotUrl}/dingtalk/robot/send?access_token=t`, secret: "SECwrong" },
          { kind: "feishu", url: `${robotUrl}/feishu/hook/x`, secret: "wrong-secret" },
          { kind: "wecom", url: `${robotUrl}/wecom/send?key=bad-key`, secret: "s" },
          { kind: "wecom", url: `${robotUrl}/wecom/after-failures?key=k`, secret: "s" },
        ],
      },
      notifyMemberIds: [alice.user.id],
    });
    received.splice(0);
    const before = (await mailsTo(alice.email)).length;
    const visitor = await startVisitor(ctx, space.clientId);
    const turn = await say(visitor, "human!");
    expect(turn).toMatchObject({ finishReason: "handover", text: "A colleague will be with you shortly." });
    expect((await conversationRow(ctx, visitor.sessionId)).serviceMode).toBe("MANUAL_MODE");
    await eventually(() => received.some((item) => item.path === "/wecom/after-failures"));
    expect(received.filter((item) => item.path === "/broken/dingtalk")).toHaveLength(1);
    await eventually(async () => (await mailsTo(alice.email)).length > before);
    // Each refusal is logged, also those answered with HTTP 200 and an error code in the body.
    const warning = await eventually(() =>
      logger.lines.find((line) => line.startsWith("warn some handover notices failed") && line.includes(visitor.sessionId)),
    );
    const failures = (JSON.parse(warning.slice(warning.indexOf("{"))) as { failures: string[] }).failures;
    expect(failures).toHaveLength(5);
    expect(failures[0]).toContain("HTTP 500");
    expect(failures[2]).toContain("310000 sign not match");
    expect(failures[3]).toContain("19021 sign match fail");
    expect(failures[4]).toContain("93000 invalid webhook url");
  });
});
