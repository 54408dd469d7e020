import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { outbox, users } from "../db/schema/index";
import { type LlmFake, startOpenAiFake } from "../testing/fakes/llm-openai";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { upgradeSpaceForTest } from "../plans/testing";
import { addMember } from "../apps/testing";
import { conversationRow, eventually, inboxSpace, type InboxSpace, recordRealtime, setManualService, startVisitor, visitorSays } from "./testing";

// With a real model (an OpenAI fake), a handover fills the summary template in and tags the
// customer (spec §3 Manual-service config: summary template, AI tagging); members get it by
// e-mail and SMS.
let fake: LlmFake;
let ctx: TestContext;
let alice: TestUser;
let carol: TestUser;
let space: InboxSpace;

beforeAll(async () => {
  fake = await startOpenAiFake();
  ctx = await createTestContext({ OPENAI_API_KEY: "sk-test-parley", OPENAI_BASE_URL: fake.url, PARLEY_OPENAI_MODELS: "gpt-4.1-mini" });
  await ctx.deps.models.ready();
  alice = await registerUser(ctx, "alice-summary@example.com");
  // What this test creates needs a plan above Free (issue 15).
  await upgradeSpaceForTest(ctx, alice.user.spaceId);
  carol = await registerUser(ctx, "carol-summary@example.com");
  await addMember(ctx, alice.user.spaceId, carol);
  await ctx.deps.db.update(users).set({ phone: "+8613800138000" }).where(eq(users.id, carol.user.id));
  space = await inboxSpace(ctx, alice, { name: "Summary bot" });
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});
beforeEach(() => fake.reset());

const lastUserPrompt = (index: number) => {
  const sent = fake.requests[index]!.body.messages as Array<{ role: string; content: string }>;
  return sent.at(-1)!.content;
};

describe("summary and AI tags", () => {
  it("the model fills the template in and tags the session; only the chosen member is told, by e-mail and SMS", async () => {
    await setManualService(ctx, space, {
      triggers: [{ type: "keyword", content: "human" }],
      defaultReply: "A colleague will be with you shortly.",
      notify: { email: true, sms: true },
      notifyMemberIds: [carol.user.id],
      summaryTemplate: [{ property: "Order number", content: "The order asked about", description: "Digits only" }],
      aiTagging: true,
    });
    const visitor = await startVisitor(ctx, space.clientId);
    fake.reply("Sorry to hear that. Let me look.");
    expect((await visitorSays(ctx, visitor, "My order 5521 is late")).text).toBe("Sorry to hear that. Let me look.");

    fake.reply('"Late delivery", Order issue, #refund, one tag too many');
    fake.reply("Order number: 5521");
    const events = recordRealtime(ctx);
    const turn = await visitorSays(ctx, visitor, "I want a human");
    expect(turn).toMatchObject({ finishReason: "handover", text: "A colleague will be with you shortly." });

    const mail = await eventually(() =>
      ctx.deps.db
        .select()
        .from(outbox)
        .where(and(eq(outbox.to, carol.email), eq(outbox.channel, "email")))
        .then((rows) => rows.find((row) => row.subject.includes("waiting for a person"))),
    );
    // The answer, the tags, the summary: the handover turn itself asked the model nothing.
    expect(fake.requests).toHaveLength(3);
    expect(lastUserPrompt(1)).toContain("Give at most 3 short tags");
    const summaryPrompt = lastUserPrompt(2);
    expect(summaryPrompt).toContain("- Order number: The order asked about (Digits only)");
    const row = await conversationRow(ctx, visitor.sessionId);
    expect(summaryPrompt).toContain(`${row.senderName}: My order 5521 is late\nAI: Sorry to hear that. Let me look.\n${row.senderName}: I want a human`);

    expect(mail.subject).toBe("A conversation with Summary bot is waiting for a person");
    expect(mail.text).toContain("Order number: 5521");
    expect(mail.text).not.toContain("Order number: -");
    expect(mail.text).toContain("Last message: I want a human");
    const sms = await ctx.deps.db.select().from(outbox).where(eq(outbox.to, "+8613800138000")).get();
    expect(sms).toMatchObject({ channel: "sms", subject: "handover-notice" });
    expect(sms!.text).toContain("Order number: 5521");
    // Alice was not chosen.
    const toAlice = await ctx.deps.db.select().from(outbox).where(eq(outbox.to, alice.email));
    expect(toAlice.some((row) => row.subject.includes("waiting for a person"))).toBe(false);

    expect(JSON.parse(row.tags)).toEqual(["Late delivery", "Order issue", "refund"]);
    const session = (await (await ctx.request(`/api/v1/inbox/sessions/${visitor.sessionId}`, { token: alice.token })).json()) as { data: { tags: string[] } };
    expect(session.data.tags).toEqual(["Late delivery", "Order issue", "refund"]);
    expect(events.toSpace(alice.user.spaceId, "session.updated").map((item) => item.data)).toEqual([
      { sessionId: visitor.sessionId, tags: ["Late delivery", "Order issue", "refund"] },
    ]);
    events.stop();
  });

  it("a model failure while summarising still sends the notice with the template's properties empty", async () => {
    await setManualService(ctx, space, {
      triggers: [{ type: "keyword", content: "human" }],
      notify: { email: true },
      notifyMemberIds: [carol.user.id],
      summaryTemplate: [{ property: "Order number", content: "The order asked about", description: "" }],
    });
    const before = (await ctx.deps.db.select().from(outbox).where(eq(outbox.to, carol.email))).length;
    const visitor = await startVisitor(ctx, space.clientId);
    fake.fail(500);
    const turn = await visitorSays(ctx, visitor, "human please");
    expect(turn.finishReason).toBe("handover");
    const rows = await eventually(async () => {
      const found = await ctx.deps.db.select().from(outbox).where(eq(outbox.to, carol.email));
      return found.length > before ? found : undefined;
    });
    const mail = rows.sort((a, b) => a.createdAt.localeCompare(b.createdAt)).at(-1)!;
    expect(mail.text).toContain("Order number: -");
    expect(mail.text).toContain("Last message: human please");
    expect((await conversationRow(ctx, visitor.sessionId)).tags).toBe("[]");
  });
});
