import { describe, expect, it } from "vitest";
import type { InboxMessage, InboxSession } from "../../lib/api/inbox";
import {
  applyDelivery,
  applyMessage,
  applyRetry,
  checkExport,
  daySpan,
  fromIncoming,
  matchesFilters,
  patchSession,
  prependOlder,
  sortSessions,
  upsertMessage,
} from "./inbox-state";

function session(id: string, at: string, patch: Partial<InboxSession> = {}): InboxSession {
  return {
    sessionId: id,
    channelId: "ch_a",
    channelName: "Telegram",
    channel: "telegram",
    appId: "app_1",
    isGroup: false,
    groupName: null,
    senderName: "Ada",
    headImageUrl: null,
    customerId: null,
    msgContent: "hello",
    lastMessageAt: at,
    readStatus: "HAVE_READ",
    serviceMode: "FULL_AUTO_MODE",
    handoverRequestedAt: null,
    tags: [],
    createdAt: at,
    ...patch,
  };
}
function message(id: string, at: string, patch: Partial<InboxMessage> = {}): InboxMessage {
  return { id, role: "user", content: id, senderName: null, delivery: null, deliveryError: null, createdAt: at, attachments: [], ...patch };
}

const list = [
  session("s1", "2026-11-21T10:03:00Z"),
  session("s2", "2026-11-21T10:02:00Z", { readStatus: "UNREAD" }),
  session("s3", "2026-11-21T10:01:00Z", { channelId: "ch_b" }),
];

describe("inbox list", () => {
  it("filters by read type and client", () => {
    expect(list.filter((item) => matchesFilters(item, { read: "unread" })).map((item) => item.sessionId)).toEqual(["s2"]);
    expect(list.filter((item) => matchesFilters(item, { read: "read", clientId: "ch_b" })).map((item) => item.sessionId)).toEqual(["s3"]);
    expect(sortSessions([list[2]!, list[0]!, list[1]!]).map((item) => item.sessionId)).toEqual(["s1", "s2", "s3"]);
  });

  it("a customer message moves the session to the top and marks it unread", () => {
    const next = applyMessage(list, "s3", { id: "m", role: "user", content: "new\n question", createdAt: "2026-11-21T10:05:00Z" }, { read: "all" });
    expect(next.map((item) => item.sessionId)).toEqual(["s3", "s1", "s2"]);
    expect(next[0]).toMatchObject({ msgContent: "new question", readStatus: "UNREAD", lastMessageAt: "2026-11-21T10:05:00Z" });
  });

  it("respects the filters: a now-unread session leaves the read list, other clients stay out", () => {
    const incoming = { id: "m", role: "user" as const, content: "x", createdAt: "2026-11-21T10:05:00Z" };
    expect(applyMessage([list[0]!, list[2]!], "s1", incoming, { read: "read" }).map((item) => item.sessionId)).toEqual(["s3"]);
    const fetched = session("s9", "2026-11-21T10:04:00Z", { channelId: "ch_z" });
    expect(applyMessage(list, "s9", incoming, { read: "all", clientId: "ch_a" }, fetched).map((item) => item.sessionId)).toEqual(["s1", "s2", "s3"]);
    expect(applyMessage([list[1]!], "s9", incoming, { read: "unread" }, fetched).map((item) => item.sessionId)).toEqual(["s9", "s2"]);
    expect(applyMessage(list, "s9", incoming, { read: "all" })).toEqual(list);
  });

  it("an AI or operator message moves the session without marking it unread", () => {
    const next = applyMessage(list, "s3", { id: "m", role: "assistant", content: "answer", createdAt: "2026-11-21T10:05:00Z" }, { read: "all" });
    expect(next[0]).toMatchObject({ sessionId: "s3", readStatus: "HAVE_READ", msgContent: "answer" });
  });

  it("read and mode changes update in place", () => {
    const next = patchSession(list, "s2", { readStatus: "HAVE_READ", serviceMode: "MANUAL_MODE" });
    expect(next.map((item) => item.sessionId)).toEqual(["s1", "s2", "s3"]);
    expect(next[1]).toMatchObject({ readStatus: "HAVE_READ", serviceMode: "MANUAL_MODE" });
    expect(patchSession(list, "nope", { readStatus: "UNREAD" })).toEqual(list);
  });
});

describe("conversation history", () => {
  it("merges the reply answer and the socket event by id, keeping the later delivery state", () => {
    const socket = fromIncoming({ id: "op", role: "operator", content: "hi", createdAt: "2026-11-21T10:06:00Z", senderName: "Olga" });
    let history = upsertMessage([message("a", "2026-11-21T10:00:00Z")], { ...socket, delivery: "sent" });
    history = upsertMessage(history, { ...socket, delivery: "pending", senderName: null });
    expect(history).toHaveLength(2);
    expect(history[1]).toMatchObject({ id: "op", delivery: "sent", senderName: "Olga" });
  });

  it("applies delivery results and prepends older pages without duplicates", () => {
    const history = [message("b", "2026-11-21T10:01:00Z", { role: "operator", delivery: "pending" })];
    expect(applyDelivery(history, "b", "failed", "chat not found")[0]).toMatchObject({ delivery: "failed", deliveryError: "chat not found" });
    expect(applyDelivery(history, "b", "sent")[0]).toMatchObject({ delivery: "sent", deliveryError: null });
    expect(prependOlder(history, [message("a", "2026-11-21T10:00:00Z"), message("b", "2026-11-21T10:01:00Z")]).map((item) => item.id)).toEqual(["a", "b"]);
  });
});

describe("export checks (the server rules)", () => {
  it("counts days inclusively", () => {
    expect(daySpan("2026-11-01", "2026-11-01")).toBe(1);
    expect(daySpan("2026-11-01", "2026-12-01")).toBe(31);
    expect(daySpan("2026-11-01", "soon")).toBeNaN();
  });

  it("needs 1..30 sessions and an ordered range of at most 31 days", () => {
    const ids = (count: number) => Array.from({ length: count }, (_, index) => `s${index}`);
    expect(checkExport([], "2026-11-01", "2026-11-02")).toBe("chatManage.export.noneSelected");
    expect(checkExport(ids(31), "2026-11-01", "2026-11-02")).toBe("chatManage.export.tooMany");
    expect(checkExport(ids(30), "2026-11-01", "2026-12-01")).toBeUndefined();
    expect(checkExport(ids(1), "2026-11-01", "2026-12-02")).toBe("chatManage.export.rangeTooLong");
    expect(checkExport(ids(1), "2026-11-02", "2026-11-01")).toBe("chatManage.export.rangeOrder");
    expect(checkExport(ids(1), "", "2026-11-01")).toBe("chatManage.export.rangeRequired");
  });
});

describe("retry of a failed delivery", () => {
  it("shows the retried message as answered (pending), but never undoes a delivery the socket reported first", () => {
    const failed = [
      message("m1", "2026-11-21T10:00:00Z", { role: "operator", delivery: "failed", deliveryError: "blocked" }),
      message("m2", "2026-11-21T10:01:00Z"),
    ];
    const pending = applyRetry(failed, { ...failed[0]!, delivery: "pending", deliveryError: null });
    expect(pending[0]).toMatchObject({ delivery: "pending", deliveryError: null });
    expect(pending[1]).toBe(failed[1]);
    const delivered = applyDelivery(failed, "m1", "sent");
    expect(applyRetry(delivered, { ...failed[0]!, delivery: "pending", deliveryError: null })[0]!.delivery).toBe("sent");
  });
});
