import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChannelWorker } from "../channels/worker";
import { jobs } from "../db/schema/index";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { upgradeSpaceForTest } from "../plans/testing";
import { expectError, expectOk, manualClock } from "../testing/flows";
import { HANDOVER_DELAYED_JOB } from "./handover";
import { messageSchema, sessionSchema } from "./routes";
import {
  conversationRow,
  inboxSpace,
  type InboxSpace,
  recordRealtime,
  setManualService,
  startVisitor,
  storedMessages,
  type Visitor,
  visitorHistory,
  visitorSays,
} from "./testing";

// Reply modes of a session (spec §4): switching needs confirmation; an operator's message is
// pushed to the visitor; after a handover the AI stays silent, keeps replying, or replies after N
// minutes unless a person did.
const session = sessionSchema;
const operatorMessage = messageSchema;

const clock = manualClock(Date.parse("2026-11-10T09:00:00.000Z"));
let ctx: TestContext;
let alice: TestUser;
let space: InboxSpace;

beforeAll(async () => {
  ctx = await createTestContext({}, { now: clock.now });
  alice = await registerUser(ctx, "alice-mode@example.com");
  // What this test creates needs a plan above Free (issue 15).
  await upgradeSpaceForTest(ctx, alice.user.spaceId);
  space = await inboxSpace(ctx, alice);
});
afterAll(async () => ctx.close());

async function say(visitor: Visitor, content: string) {
  clock.advance(1000);
  return visitorSays(ctx, visitor, content);
}

const putMode = (sessionId: string, json: unknown) => ctx.request(`/api/v1/inbox/sessions/${sessionId}/mode`, { method: "PUT", token: alice.token, json });
const takeOver = async (sessionId: string) => expectOk(await putMode(sessionId, { serviceMode: "MANUAL_MODE", confirm: true }), 200, session);
const operatorSays = async (sessionId: string, content: string) => {
  clock.advance(1000);
  return expectOk(
    await ctx.request(`/api/v1/inbox/sessions/${sessionId}/messages`, { method: "POST", token: alice.token, json: { content } }),
    201,
    operatorMessage,
  );
};
const delayedJobs = () => ctx.deps.db.select().from(jobs).where(eq(jobs.kind, HANDOVER_DELAYED_JOB));

describe("switching the reply mode", () => {
  it("without confirm: true is 400 and changes nothing", async () => {
    const visitor = await startVisitor(ctx, space.clientId);
    await say(visitor, "Hello");
    const before = await conversationRow(ctx, visitor.sessionId);
    const events = recordRealtime(ctx);
    await expectError(await putMode(visitor.sessionId, { serviceMode: "MANUAL_MODE", confirm: false }), 400, {
      field: "confirm",
      message: "Confirm the switch of reply mode",
    });
    await expectError(await putMode(visitor.sessionId, { serviceMode: "MANUAL_MODE" }), 400, { field: "confirm" });
    await expectError(await putMode(visitor.sessionId, { serviceMode: "ROBOT", confirm: true }), 400, { field: "serviceMode" });
    // A web visitor's session is one to one: there is no group reply for it.
    await expectError(await putMode(visitor.sessionId, { serviceMode: "GROUP_MODE", confirm: true }), 400, { field: "serviceMode" });
    expect(await conversationRow(ctx, visitor.sessionId)).toEqual(before);
    expect(events.events).toEqual([]);
    events.stop();
  });

  it("takes over (MANUAL_MODE, published to the space and the visitor) and hands back to the AI", async () => {
    const visitor = await startVisitor(ctx, space.clientId);
    await say(visitor, "Hello");
    const events = recordRealtime(ctx);
    const taken = await takeOver(visitor.sessionId);
    expect(taken).toMatchObject({ sessionId: visitor.sessionId, serviceMode: "MANUAL_MODE" });
    expect(taken.handoverRequestedAt).toBe(clock.now().toISOString());
    expect((await conversationRow(ctx, visitor.sessionId)).serviceMode).toBe("MANUAL_MODE");
    expect(events.toSpace(alice.user.spaceId, "session.mode").map((item) => item.data)).toEqual([{ sessionId: visitor.sessionId, serviceMode: "MANUAL_MODE" }]);
    expect(events.toVisitor(visitor, "mode").map((item) => item.data)).toEqual([{ serviceMode: "MANUAL_MODE" }]);

    events.clear();
    const back = await expectOk(await putMode(visitor.sessionId, { serviceMode: "FULL_AUTO_MODE", confirm: true }), 200, session);
    expect(back).toMatchObject({ serviceMode: "FULL_AUTO_MODE", handoverRequestedAt: null });
    expect(events.toSpace(alice.user.spaceId, "session.mode").map((item) => item.data)).toEqual([
      { sessionId: visitor.sessionId, serviceMode: "FULL_AUTO_MODE" },
    ]);
    expect(events.toVisitor(visitor, "mode").map((item) => item.data)).toEqual([{ serviceMode: "FULL_AUTO_MODE" }]);
    events.stop();
    // Handed back, the AI answers again.
    const turn = await say(visitor, "Are you there?");
    expect(turn.finishReason).toBe("stop");
    expect(turn.text.length).toBeGreaterThan(0);
  });

  it("an operator's image reaches the web visitor in the live message and opens at its signed address", async () => {
    const visitor = await startVisitor(ctx, space.clientId);
    await say(visitor, "Can you send me the map?");
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==", "base64");
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(png)]), "map.png");
    const uploaded = await ctx.request(`/api/v1/inbox/sessions/${visitor.sessionId}/files`, { method: "POST", token: alice.token, body: form });
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
    const file = ((await uploaded.json()) as { data: { id: string; url: string } }).data;
    // Empty content without files is still refused.
    expect(
      (await ctx.request(`/api/v1/inbox/sessions/${visitor.sessionId}/messages`, { method: "POST", token: alice.token, json: { content: " " } })).status,
    ).toBe(400);
    const events = recordRealtime(ctx);
    clock.advance(1000);
    const sent = await expectOk(
      await ctx.request(`/api/v1/inbox/sessions/${visitor.sessionId}/messages`, {
        method: "POST",
        token: alice.token,
        json: { content: "", fileIds: [file.id] },
      }),
      201,
      operatorMessage,
    );
    expect(sent.attachments).toEqual([expect.objectContaining({ id: file.id, kind: "image", mimeType: "image/png" })]);
    expect(events.toVisitor(visitor, "message").map((item) => item.data)).toEqual([
      expect.objectContaining({
        id: sent.id,
        role: "operator",
        attachments: [expect.objectContaining({ id: file.id, url: expect.stringContaining(`/api/v1/chat-files/${file.id}/content?`) })],
      }),
    ]);
    events.stop();
    const image = await ctx.request(sent.attachments[0]!.url);
    expect(image.status).toBe(200);
    expect(Buffer.from(await image.arrayBuffer())).toEqual(png);
  });

  it("an operator's message is stored with the operator's name, takes over a FULL_AUTO session and reaches the visitor", async () => {
    const visitor = await startVisitor(ctx, space.clientId);
    await say(visitor, "Can a person help me?");
    const events = recordRealtime(ctx);
    const sent = await operatorSays(visitor.sessionId, "Hi, this is Alice. How can I help?");
    expect(sent).toMatchObject({ role: "operator", content: "Hi, this is Alice. How can I help?", senderName: "alice-mode", delivery: "sent" });

    expect((await conversationRow(ctx, visitor.sessionId)).serviceMode).toBe("MANUAL_MODE");
    expect(events.toSpace(alice.user.spaceId, "session.mode").map((item) => item.data)).toEqual([{ sessionId: visitor.sessionId, serviceMode: "MANUAL_MODE" }]);
    expect(events.toVisitor(visitor, "mode").map((item) => item.data)).toEqual([{ serviceMode: "MANUAL_MODE" }]);
    expect(events.toVisitor(visitor, "message").map((item) => item.data)).toEqual([
      { id: sent.id, role: "operator", content: "Hi, this is Alice. How can I help?", senderName: "alice-mode", createdAt: sent.createdAt },
    ]);
    const published = events.toSpace(alice.user.spaceId, "session.message").map((item) => item.data);
    expect(published).toEqual([
      { sessionId: visitor.sessionId, message: expect.objectContaining({ id: sent.id, role: "operator", senderName: "alice-mode" }) },
    ]);
    events.stop();

    const stored = (await storedMessages(ctx, visitor.sessionId)).at(-1)!;
    expect(stored).toMatchObject({ id: sent.id, role: "operator", senderName: "alice-mode", content: sent.content });
    const seen = await visitorHistory(ctx, visitor);
    expect(seen.at(-1)).toMatchObject({ id: sent.id, role: "operator", content: sent.content, senderName: "alice-mode" });
    expect(seen.map((item) => item.role)).toEqual(["user", "assistant", "operator"]);
    // The list shows it as the last message, and an operator's message does not make it unread.
    await ctx.request(`/api/v1/inbox/sessions/${visitor.sessionId}/read`, { method: "POST", token: alice.token });
    await operatorSays(visitor.sessionId, "Still there?");
    const listed = await ctx.request(`/api/v1/inbox/sessions/${visitor.sessionId}`, { token: alice.token });
    expect(((await listed.json()) as { data: { msgContent: string; readStatus: string } }).data).toMatchObject({
      msgContent: "Still there?",
      readStatus: "HAVE_READ",
    });
    await expectError(
      await ctx.request(`/api/v1/inbox/sessions/${visitor.sessionId}/messages`, { method: "POST", token: alice.token, json: { content: "   " } }),
      400,
      { field: "content" },
    );
  });
});

describe("after a handover", () => {
  it("none: the AI stays silent, nothing is stored for it and no job is queued", async () => {
    await setManualService(ctx, space, { replyMode: "none" });
    const visitor = await startVisitor(ctx, space.clientId);
    await say(visitor, "Hello");
    await takeOver(visitor.sessionId);
    const before = (await storedMessages(ctx, visitor.sessionId)).length;
    const jobsBefore = (await delayedJobs()).length;
    const turn = await say(visitor, "Is anyone there?");
    expect(turn.finishReason).toBe("handover");
    expect(turn.text).toBe("");
    const after = await storedMessages(ctx, visitor.sessionId);
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)).toMatchObject({ role: "user", content: "Is anyone there?" });
    expect(after.some((message) => message.id === turn.messageId)).toBe(false);
    expect(await delayedJobs()).toHaveLength(jobsBefore);
    // The customer's message still reaches the inbox as unread.
    expect(await conversationRow(ctx, visitor.sessionId)).toMatchObject({ readStatus: "UNREAD", lastMessage: "Is anyone there?", serviceMode: "MANUAL_MODE" });
  });

  it("continue: the AI keeps replying", async () => {
    await setManualService(ctx, space, { replyMode: "continue" });
    const visitor = await startVisitor(ctx, space.clientId);
    await say(visitor, "Hello");
    await takeOver(visitor.sessionId);
    const turn = await say(visitor, "What are your opening hours?");
    expect(turn.finishReason).toBe("stop");
    expect(turn.text.length).toBeGreaterThan(0);
    const last = (await storedMessages(ctx, visitor.sessionId)).at(-1)!;
    expect(last).toMatchObject({ id: turn.messageId, role: "assistant", content: turn.text });
    expect((await conversationRow(ctx, visitor.sessionId)).serviceMode).toBe("MANUAL_MODE");
  });

  it("delayed: a job answers after the delay when no person did, and the visitor hears it", async () => {
    await setManualService(ctx, space, { replyMode: "delayed", delayMinutes: 1 });
    const visitor = await startVisitor(ctx, space.clientId);
    await say(visitor, "Hello");
    await takeOver(visitor.sessionId);
    const turn = await say(visitor, "Where is my parcel?");
    expect(turn.finishReason).toBe("handover");
    expect(turn.text).toBe("");
    const asked = (await storedMessages(ctx, visitor.sessionId)).at(-1)!;
    const queued = (await delayedJobs()).filter((job) => JSON.parse(job.payload).messageId === asked.id);
    expect(queued).toHaveLength(1);
    expect(JSON.parse(queued[0]!.payload)).toEqual({ conversationId: visitor.sessionId, messageId: asked.id });
    expect(queued[0]!.runAfter).toBe(new Date(clock.now().getTime() + 60_000).toISOString());

    const worker = createChannelWorker(ctx.deps);
    const events = recordRealtime(ctx);
    // Not due yet.
    clock.advance(30_000);
    await worker.drain();
    expect((await storedMessages(ctx, visitor.sessionId)).at(-1)!.id).toBe(asked.id);
    clock.advance(31_000);
    expect(await worker.drain()).toBeGreaterThanOrEqual(1);
    const answer = (await storedMessages(ctx, visitor.sessionId)).at(-1)!;
    expect(answer).toMatchObject({ role: "assistant", status: "complete" });
    expect(answer.content.length).toBeGreaterThan(0);
    expect(events.toVisitor(visitor, "message").map((item) => item.data)).toEqual([
      expect.objectContaining({ id: answer.id, role: "assistant", content: answer.content }),
    ]);
    expect(events.toSpace(alice.user.spaceId, "session.message").map((item) => item.data.message.id)).toEqual([answer.id]);
    events.stop();
    expect((await visitorHistory(ctx, visitor)).at(-1)).toMatchObject({ id: answer.id, role: "assistant" });
    const [job] = await ctx.deps.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.id, queued[0]!.id)));
    expect(job!.status).toBe("done");
    // The session stays with the person.
    expect((await conversationRow(ctx, visitor.sessionId)).serviceMode).toBe("MANUAL_MODE");
  });

  it("delayed: when an operator replied in between, the job answers nothing", async () => {
    await setManualService(ctx, space, { replyMode: "delayed", delayMinutes: 1 });
    const visitor = await startVisitor(ctx, space.clientId);
    await say(visitor, "Hello");
    await takeOver(visitor.sessionId);
    const turn = await say(visitor, "Where is my parcel?");
    expect(turn.finishReason).toBe("handover");
    await operatorSays(visitor.sessionId, "Let me check that for you.");
    const before = await storedMessages(ctx, visitor.sessionId);
    const events = recordRealtime(ctx);
    clock.advance(120_000);
    expect(await createChannelWorker(ctx.deps).drain()).toBeGreaterThanOrEqual(1);
    expect(await storedMessages(ctx, visitor.sessionId)).toEqual(before);
    expect(events.toVisitor(visitor, "message")).toEqual([]);
    events.stop();
    expect((await delayedJobs()).every((job) => job.status === "done")).toBe(true);
  });

  it("delayed: two customer messages before the delay get one answer, to the last one", async () => {
    await setManualService(ctx, space, { replyMode: "delayed", delayMinutes: 1 });
    const visitor = await startVisitor(ctx, space.clientId);
    await say(visitor, "Hello");
    await takeOver(visitor.sessionId);
    await say(visitor, "Where is my parcel?");
    await say(visitor, "It was due on Monday");
    const last = (await storedMessages(ctx, visitor.sessionId)).at(-1)!;
    const events = recordRealtime(ctx);
    clock.advance(120_000);
    await createChannelWorker(ctx.deps).drain();
    const after = await storedMessages(ctx, visitor.sessionId);
    const answers = after.filter((message) => message.role === "assistant" && message.createdAt > last.createdAt);
    expect(answers).toHaveLength(1);
    expect(after.at(-1)!.id).toBe(answers[0]!.id);
    expect(events.toVisitor(visitor, "message")).toHaveLength(1);
    events.stop();
  });

  it("delayed: a job queued before the app switched to silent answers nothing", async () => {
    await setManualService(ctx, space, { replyMode: "delayed", delayMinutes: 1 });
    const visitor = await startVisitor(ctx, space.clientId);
    await say(visitor, "Hello");
    await takeOver(visitor.sessionId);
    await say(visitor, "Where is my parcel?");
    await setManualService(ctx, space, { replyMode: "none" });
    const before = await storedMessages(ctx, visitor.sessionId);
    clock.advance(120_000);
    expect(await createChannelWorker(ctx.deps).drain()).toBeGreaterThanOrEqual(1);
    expect(await storedMessages(ctx, visitor.sessionId)).toEqual(before);
  });

  it("delayed: a session handed back to the AI before the delay is not answered twice", async () => {
    await setManualService(ctx, space, { replyMode: "delayed", delayMinutes: 1 });
    const visitor = await startVisitor(ctx, space.clientId);
    await say(visitor, "Hello");
    await takeOver(visitor.sessionId);
    await say(visitor, "Where is my parcel?");
    await expectOk(await putMode(visitor.sessionId, { serviceMode: "FULL_AUTO_MODE", confirm: true }), 200, session);
    const before = await storedMessages(ctx, visitor.sessionId);
    clock.advance(120_000);
    await createChannelWorker(ctx.deps).drain();
    expect(await storedMessages(ctx, visitor.sessionId)).toEqual(before);
  });
});
