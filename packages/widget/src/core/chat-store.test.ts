import { afterEach, describe, expect, it, vi } from "vitest";
import { type ChatStoreDeps, createChatStore, MAX_CONTENT } from "./chat-store";
import { en } from "./i18n";
import type { ChatFile, ConfigResult, StoredMessage, StoredSession } from "./protocol";
import type { LiveConnection, LiveHandler } from "./live";
import { createStore } from "./storage";
import { createTransport } from "./transport";

/**
 * The store over the real transport, with the visitor API played by a local fetch handler
 * speaking its HTTP and SSE protocol, the visitor socket by a small emitter (the server's push
 * side), and the browser's stores in memory.
 */
interface FakeApi {
  calls: string[];
  /** The JSON bodies of the messages posted, in order. */
  sent: unknown[];
  history: Record<string, StoredMessage[]>;
  /** The next answer to a message: SSE events, or an error status with a message and an error id. */
  answers: ({ events: object[] } | { status: number; message?: string; code?: string })[];
  handover?: { status: number; body: object; code?: string };
  down: boolean;
}

const sse = (events: object[]) =>
  new Response(events.map((event) => `event: ${(event as { type: string }).type}\ndata: ${JSON.stringify(event)}\n\n`).join(""), {
    headers: { "content-type": "text/event-stream" },
  });

function fakeApi(): FakeApi & { fetcher: typeof fetch } {
  let sessions = 0;
  const api: FakeApi = { calls: [], sent: [], history: {}, answers: [], down: false };
  const fetcher = (async (url: string, init: RequestInit = {}) => {
    const path = new URL(url).pathname.replace("/api/v1/widget/demo", "");
    api.calls.push(`${init.method ?? "GET"} ${path}`);
    if (api.down) throw new TypeError("fetch failed");
    if (path === "/sessions") {
      sessions += 1;
      return Response.json({ success: true, data: { sessionId: `s${sessions}`, visitorToken: `t${sessions}`, visitorId: "v1" } }, { status: 201 });
    }
    if (/^\/sessions\/[^/]+\/database-writes\/dbw_1\/confirm$/.test(path)) return Response.json({ success: true, data: { affectedRows: 1, sql: "x" } });
    const [, id, action] = /^\/sessions\/([^/]+)\/(messages|handover)$/.exec(path) ?? [];
    if (action === "messages" && (init.method ?? "GET") === "GET") {
      return api.history[id!]
        ? Response.json({ success: true, data: { items: api.history[id!] } })
        : Response.json({ success: false, message: "gone" }, { status: 404 });
    }
    if (action === "messages") {
      api.sent.push(JSON.parse(String(init.body)));
      const answer = api.answers.shift() ?? { events: [] };
      if ("events" in answer) return sse(answer.events);
      return Response.json(
        { success: false, message: answer.message ?? "" },
        { status: answer.status, headers: answer.code ? { "X-Parley-Error": answer.code } : {} },
      );
    }
    if (action === "handover" && api.handover) {
      return Response.json(api.handover.body, { status: api.handover.status, headers: api.handover.code ? { "X-Parley-Error": api.handover.code } : {} });
    }
    return Response.json({ success: false }, { status: 404 });
  }) as typeof fetch;
  return Object.assign(api, { fetcher });
}

/** The server's push side of the visitor's live events. */
class FakeSocket implements LiveConnection {
  connected = false;
  disconnected = false;
  private handlers: Record<string, LiveHandler[]> = {};
  constructor(readonly session: StoredSession) {}
  connect() {
    this.connected = true;
  }
  disconnect() {
    this.disconnected = true;
  }
  on(event: string, handler: LiveHandler) {
    (this.handlers[event] ??= []).push(handler);
    return () => {};
  }
  push(event: string, data: unknown) {
    for (const handler of this.handlers[event] ?? []) handler(data);
  }
}

const OK_CONFIG: ConfigResult = { ok: true, config: { clientId: "demo", name: "Demo" } };

function setup(overrides: Partial<ChatStoreDeps> = {}, api = fakeApi()) {
  const events = new EventTarget();
  const sockets: FakeSocket[] = [];
  const emitted: [string, unknown][] = [];
  const unread: number[] = [];
  const storage = overrides.storage ?? createStore();
  const tabStorage = overrides.tabStorage ?? createStore();
  let online = true;
  const deps: ChatStoreDeps = {
    clientId: "demo",
    transport: createTransport("https://api.test", "demo", () => "en", api.fetcher),
    storage,
    tabStorage,
    config: Promise.resolve(OK_CONFIG),
    fetchConfig: async () => OK_CONFIG,
    openLive: (session) => {
      const socket = new FakeSocket(session);
      sockets.push(socket);
      return socket;
    },
    online: () => online,
    events,
    emit: (event, payload) => void emitted.push([event, payload]),
    setUnread: (count) => void unread.push(count),
    identity: undefined,
    language: "en",
    ...overrides,
  };
  const store = createChatStore(deps);
  const setOnline = (value: boolean) => {
    online = value;
    if (value) events.dispatchEvent(new Event("online"));
  };
  return { store, api, events, sockets, emitted, unread, storage, tabStorage, setOnline };
}

/** Waits until `check` holds (the store's work is promise-driven). */
async function until(check: () => boolean) {
  for (let index = 0; index < 200 && !check(); index++) await new Promise((resolve) => setTimeout(resolve, 1));
  expect(check()).toBe(true);
}

afterEach(() => {
  vi.useRealTimers();
});

const PNG: ChatFile = {
  id: "f1",
  name: "shot.png",
  kind: "image",
  mimeType: "image/png",
  sizeBytes: 3,
  url: "/api/v1/chat-files/f1/content?expires=1&signature=ab",
  createdAt: "2026-11-26T00:00:00Z",
};

describe("chat store", () => {
  it("sends the uploaded files' ids with the message (text may be empty) and shows them in the visitor's message", async () => {
    const { store, api } = setup();
    store.setFiles([{ key: "a1", name: "shot.png", size: 3, progress: 0.5 }]);
    store.ask("");
    expect(store.getState().messages).toEqual([]);
    // Still uploading: nothing is sent.
    store.setFiles([
      { key: "a1", name: "shot.png", size: 3, progress: 1, file: PNG },
      { key: "a2", name: "x.exe", size: 1, progress: 0, error: "no" },
    ]);
    api.answers.push({ events: [{ type: "text-delta", text: "A screenshot." }] });
    store.ask("  ");
    expect(store.getState().files).toEqual([]);
    await until(() => !store.getState().busy);
    expect(api.sent).toEqual([{ content: "", fileIds: ["f1"] }]);
    expect(store.getState().messages[0]).toMatchObject({ role: "user", content: "", attachments: [PNG] });

    // A refusal puts the text and the chips back.
    const chips = [{ key: "a3", name: "shot.png", size: 3, progress: 1, file: PNG }];
    store.setFiles(chips);
    api.answers.push({ status: 400, message: "This model does not see images." });
    store.ask("look");
    await until(() => !store.getState().busy);
    expect(api.sent.at(-1)).toEqual({ content: "look", fileIds: ["f1"] });
    expect(store.getState()).toMatchObject({ input: "look", files: chips, notice: "This model does not see images." });
    expect(store.getState().messages).toHaveLength(2);
  });

  it("shows the files of stored and live messages", async () => {
    const storage = createStore();
    storage.set("parley:demo", { sessionId: "s1", visitorToken: "t1", visitorId: "v1" });
    const api = fakeApi();
    api.history.s1 = [{ id: "m1", role: "user", content: "", createdAt: "2026-01-01", attachments: [PNG] }];
    const { store, sockets } = setup({ storage }, api);
    await until(() => store.getState().messages.length === 1);
    expect(store.getState().messages[0]!.attachments).toEqual([PNG]);
    store.setOpen(true);
    const doc: ChatFile = { ...PNG, id: "f2", name: "terms.pdf", kind: "document", mimeType: "application/pdf" };
    sockets[0]!.push("message", { id: "m2", role: "operator", content: "Here", createdAt: "2026-01-01", attachments: [doc] });
    expect(store.getState().messages[1]).toMatchObject({ role: "operator", attachments: [doc] });
  });

  it("starts with the config, notifies subscribers and stops notifying after unsubscribe", async () => {
    const { store } = setup();
    let calls = 0;
    const unsubscribe = store.subscribe(() => void (calls += 1));
    await until(() => store.getState().config === OK_CONFIG);
    expect(calls).toBe(1);
    unsubscribe();
    store.setInput("hi");
    expect(calls).toBe(1);
    expect(store.getState().input).toBe("hi");
  });

  it("keeps a database read's rows as a table and runs a confirmed write through the visitor API", async () => {
    const { store, api } = setup();
    api.answers.push({
      events: [
        { type: "message-start", messageId: "m1" },
        { type: "tool-result", id: "c1", ok: true, table: { columns: ["name", "price"], rows: [["Tea", 3.5]], truncated: false } },
        { type: "tool-result", id: "c2", ok: true, confirmation: { id: "dbw_1", databaseName: "Shop", kind: "update", sql: "UPDATE t SET a = 1 WHERE b = 2" } },
        { type: "text-delta", text: "Please confirm." },
        { type: "message-end", finishReason: "stop" },
      ],
    });
    store.ask("Change it");
    await until(() => !store.getState().busy);
    const answer = store.getState().messages.at(-1)!;
    expect(answer.tables).toEqual([{ columns: ["name", "price"], rows: [["Tea", 3.5]], truncated: false }]);
    expect(answer.confirmations).toEqual([{ id: "dbw_1", databaseName: "Shop", sql: "UPDATE t SET a = 1 WHERE b = 2", state: "waiting" }]);
    await store.confirmWrite(answer.id, "dbw_1");
    expect(api.calls).toContain("POST /sessions/s1/database-writes/dbw_1/confirm");
    expect(store.getState().messages.at(-1)!.confirmations![0]).toMatchObject({ state: "done", note: "Done: 1 rows changed." });
  });

  it("asks: the question and a streamed answer go into the log, with its sources, and the session is kept", async () => {
    const { store, api, emitted, storage, unread } = setup();
    api.answers.push({
      events: [
        { type: "message-start", messageId: "m1" },
        { type: "text-delta", text: "Hel" },
        { type: "citation", index: 1, source: "guide.md", content: "x" },
        { type: "citation", index: 2, source: "guide.md", content: "y" },
        { type: "text-delta", text: "lo" },
        { type: "message-end", finishReason: "stop" },
      ],
    });
    store.setInput("  Hi there  ");
    store.ask("  Hi there  ");
    expect(store.getState().input).toBe("");
    expect(store.getState().busy).toBe(true);
    await until(() => !store.getState().busy);
    expect(store.getState().messages.map(({ role, content, sources, streaming }) => ({ role, content, sources, streaming }))).toEqual([
      { role: "user", content: "Hi there", sources: undefined, streaming: undefined },
      { role: "assistant", content: "Hello", sources: ["guide.md"], streaming: false },
    ]);
    expect(storage.get<StoredSession>("parley:demo")).toMatchObject({ sessionId: "s1", visitorToken: "t1" });
    expect(storage.get("parley:visitor")).toBe("v1");
    expect(emitted).toContainEqual(["message", { role: "assistant", content: "Hello" }]);
    // Closed panel: the answer counts as unread.
    expect(store.getState().unread).toBe(1);
    expect(unread.at(-1)).toBe(1);
    expect(api.calls).toEqual(["POST /sessions", "POST /sessions/s1/messages"]);
  });

  it("ignores empty, too long and overlapping questions", async () => {
    const { store, api } = setup();
    store.ask("   ");
    store.ask("x".repeat(MAX_CONTENT + 1));
    expect(store.getState().messages).toEqual([]);
    api.answers.push({ events: [{ type: "text-delta", text: "one" }] });
    store.ask("first");
    store.ask("second");
    await until(() => !store.getState().busy);
    expect(
      store
        .getState()
        .messages.filter((message) => message.role === "user")
        .map((message) => message.content),
    ).toEqual(["first"]);
  });

  it("a refused message leaves the log and goes back into the input, with the reason", async () => {
    const { store, api, emitted } = setup();
    api.answers.push({ status: 400, message: "Too long for this client" });
    store.ask("refuse me");
    await until(() => !store.getState().busy);
    expect(store.getState().messages).toEqual([]);
    expect(store.getState().input).toBe("refuse me");
    expect(store.getState().notice).toBe("Too long for this client");
    expect(emitted.some(([event]) => event === "error")).toBe(true);
  });

  it("tells a throttled visitor when to try again", async () => {
    const { store, api } = setup();
    api.answers.push({ status: 429 });
    store.ask("again");
    await until(() => !store.getState().busy);
    expect(store.getState().notice).toBe(en.tooMany.replace("{s}", "60"));
  });

  it("keeps a message typed offline for this tab and sends it once back online", async () => {
    const { store, api, tabStorage, setOnline } = setup();
    setOnline(false);
    store.ask("sent later");
    expect(store.getState().notice).toBe(en.offline);
    expect(tabStorage.get("parley:demo:pending")).toBe("sent later");
    store.ask("not while one waits");
    expect(store.getState().messages.map((message) => message.content)).toEqual(["sent later"]);
    api.answers.push({ events: [{ type: "text-delta", text: "got it" }] });
    setOnline(true);
    await until(() => store.getState().messages.some((message) => message.content === "got it") && !store.getState().busy);
    expect(tabStorage.get("parley:demo:pending")).toBeUndefined();
    expect(store.getState().notice).toBeUndefined();
  });

  it("a network failure keeps the message and retries with backoff", async () => {
    const api = fakeApi();
    const { store, tabStorage } = setup({}, api);
    api.down = true;
    store.ask("through the outage");
    await until(() => !store.getState().busy);
    expect(store.getState().notice).toBe(en.network);
    expect(tabStorage.get("parley:demo:pending")).toBe("through the outage");
    api.down = false;
    api.answers.push({ events: [{ type: "text-delta", text: "back" }] });
    // The first retry comes after 1 s.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await until(() => store.getState().messages.some((message) => message.content === "back"));
  });

  it("stop ends the answer and marks it stopped", async () => {
    const api = fakeApi();
    const slow = api.fetcher;
    const fetcher = (async (url: string, init: RequestInit = {}) => {
      if (init.method === "POST" && url.endsWith("/messages")) {
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('event: text-delta\ndata: {"type":"text-delta","text":"Partial"}\n\n'));
            init.signal?.addEventListener("abort", () => controller.error(new DOMException("aborted", "AbortError")));
          },
        });
        return new Response(body, { headers: { "content-type": "text/event-stream" } });
      }
      return slow(url, init);
    }) as typeof fetch;
    const { store } = setup({ transport: createTransport("https://api.test", "demo", () => "en", fetcher) }, api);
    store.ask("long one");
    await until(() => store.getState().messages.some((message) => message.content === "Partial"));
    store.stop();
    await until(() => !store.getState().busy);
    expect(store.getState().messages.at(-1)?.content).toBe(`Partial ${en.stopped}`);
  });

  it("a handover answer with no text leaves a note, not an empty bubble, and marks the session manual", async () => {
    const { store, api, storage } = setup();
    api.answers.push({ events: [{ type: "message-end", finishReason: "handover" }] });
    store.ask("a person please");
    await until(() => !store.getState().busy);
    expect(store.getState().messages.at(-1)).toMatchObject({ role: "note", content: en.sent });
    expect(storage.get<StoredSession>("parley:demo")?.manual).toBe(true);
    expect(store.getState().session?.manual).toBe(true);
    expect(store.getState().notice).toBe(en.manual);
  });

  it("opens the visitor socket once open with a session; pushed replies show once and count while closed", async () => {
    const storage = createStore();
    storage.set("parley:demo", { sessionId: "s9", visitorToken: "t9", visitorId: "v1" });
    const api = fakeApi();
    api.history.s9 = [
      { id: "a", role: "user", content: "earlier", createdAt: "" },
      { id: "b", role: "assistant", content: "answered", createdAt: "" },
    ];
    const { store, sockets, unread } = setup({ storage }, api);
    await until(() => store.getState().messages.length === 2);
    expect(sockets).toEqual([]);
    store.setOpen(true);
    expect(sockets).toHaveLength(1);
    expect(sockets[0]?.connected).toBe(true);
    store.setOpen(false);
    const operator: StoredMessage = { id: "c", role: "operator", content: "Hi, Sam here", createdAt: "", senderName: "Sam" };
    sockets[0]?.push("message", operator);
    sockets[0]?.push("message", operator);
    expect(store.getState().messages.at(-1)).toMatchObject({ role: "operator", content: "Hi, Sam here", name: "Sam" });
    expect(store.getState().messages).toHaveLength(3);
    expect(store.getState().unread).toBe(1);
    store.setOpen(true);
    expect(store.getState().unread).toBe(0);
    expect(unread.slice(-2)).toEqual([1, 0]);
    expect(sockets).toHaveLength(1);
    // The mode event: a person took the session, then gave it back.
    sockets[0]?.push("mode", { serviceMode: "MANUAL_MODE" });
    expect(store.getState().session?.manual).toBe(true);
    expect(store.getState().notice).toBe(en.manual);
    sockets[0]?.push("mode", { serviceMode: "AI_MODE" });
    expect(store.getState().session?.manual).toBe(false);
    expect(store.getState().notice).toBeUndefined();
    store.dispose();
    expect(sockets[0]?.disconnected).toBe(true);
  });

  it("drops a stored session the server no longer knows", async () => {
    const storage = createStore();
    storage.set("parley:demo", { sessionId: "gone", visitorToken: "t", visitorId: "v1" });
    const { store } = setup({ storage });
    await until(() => store.getState().session === undefined);
    expect(storage.get("parley:demo")).toBeUndefined();
  });

  it("follows another tab that started a new session", async () => {
    const api = fakeApi();
    api.history.s7 = [{ id: "x", role: "assistant", content: "from the other tab", createdAt: "" }];
    const { store, storage, events } = setup({}, api);
    storage.set("parley:demo", { sessionId: "s7", visitorToken: "t7", visitorId: "v1" });
    const change = new Event("storage") as Event & { key: string };
    Object.defineProperty(change, "key", { value: "parley:demo" });
    events.dispatchEvent(change);
    expect(store.getState().session?.sessionId).toBe("s7");
    await until(() => store.getState().messages.length === 1);
    expect(store.getState().messages[0]?.content).toBe("from the other tab");
  });

  it("an answer the server was interrupted in shows what was sent and says it was interrupted", async () => {
    const api = fakeApi();
    api.history.s8 = [
      { id: "q", role: "user", content: "opening hours?", createdAt: "" },
      { id: "a", role: "assistant", content: "We open at 07:30 and", createdAt: "", status: "interrupted" },
      { id: "b", role: "assistant", content: "Whole answer", createdAt: "", status: "complete" },
    ];
    const { store, storage, events } = setup({}, api);
    storage.set("parley:demo", { sessionId: "s8", visitorToken: "t8", visitorId: "v1" });
    const change = new Event("storage") as Event & { key: string };
    Object.defineProperty(change, "key", { value: "parley:demo" });
    events.dispatchEvent(change);
    await until(() => store.getState().messages.length === 3);
    expect(store.getState().messages.map((message) => message.content)).toEqual(["opening hours?", "We open at 07:30 and (interrupted)", "Whole answer"]);
  });

  it("identify: another user starts anew without the old messages; the same user changes nothing", async () => {
    const storage = createStore();
    storage.set("parley:demo", { sessionId: "s3", visitorToken: "t3", visitorId: "v1", userId: "ann" });
    const api = fakeApi();
    api.history.s3 = [{ id: "q", role: "user", content: "mine", createdAt: "" }];
    const { store } = setup({ storage, identity: { userId: "ann", hash: "h" } }, api);
    await until(() => store.getState().messages.length === 1);
    store.identify({ userId: "ann", hash: "h" });
    expect(store.getState().session?.sessionId).toBe("s3");
    store.identify({ userId: "bob", hash: "h2" });
    expect(store.getState().session).toBeUndefined();
    expect(store.getState().messages).toEqual([]);
    expect(storage.get("parley:demo")).toBeUndefined();
  });

  it("a stored session of another user is dropped at start", () => {
    const storage = createStore();
    storage.set("parley:demo", { sessionId: "s4", visitorToken: "t4", visitorId: "v1", userId: "ann" });
    const { store } = setup({ storage, identity: { userId: "bob", hash: "h" } });
    expect(store.getState().session).toBeUndefined();
    expect(storage.get("parley:demo")).toBeUndefined();
  });

  it("talk to a person: the default reply comes in and the session goes manual; a client without transfer hides the button", async () => {
    const api = fakeApi();
    api.handover = { status: 200, body: { success: true, data: { serviceMode: "MANUAL_MODE", reply: "A person will be with you." } } };
    const { store } = setup({}, api);
    const asked = store.handover();
    expect(store.getState().asking).toBe(true);
    await asked;
    expect(store.getState().asking).toBe(false);
    expect(store.getState().messages.at(-1)).toMatchObject({ role: "assistant", content: "A person will be with you." });
    expect(store.getState().session?.manual).toBe(true);

    const off = fakeApi();
    off.handover = { status: 403, body: { success: false, message: "off" }, code: "manual_transfer_off" };
    const second = setup({}, off);
    await second.store.handover();
    expect(second.store.getState().transferOff).toBe(true);
    expect(second.store.getState().notice).toBe(en.transferOff);
  });

  it("a config the network could not fetch is asked again after 5 s", async () => {
    vi.useFakeTimers();
    let asked = 0;
    const { store } = setup({
      config: Promise.resolve({ ok: false, status: 0 }),
      fetchConfig: async () => {
        asked += 1;
        return OK_CONFIG;
      },
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(store.getState().config).toEqual({ ok: false, status: 0 });
    await vi.advanceTimersByTimeAsync(4900);
    expect(asked).toBe(0);
    await vi.advanceTimersByTimeAsync(200);
    expect(asked).toBe(1);
    expect(store.getState().config).toBe(OK_CONFIG);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(asked).toBe(1);
  });
});
