/**
 * The chat's state and its transitions, framework-free: the panel renders {@link ChatState}
 * and calls the store's actions; the store talks to the visitor API, its live events and
 * the browser's stores through the ports it is given. No Preact, no DOM.
 */
import { type en, stringsFor } from "./i18n";
import { identifyAction, isIdentity } from "./identity";
import type { ChatFile, ConfigResult, StoredMessage, StoredSession, VisitorIdentity, WidgetSession } from "./protocol";
import type { LiveConnection } from "./live";
import type { Store } from "./storage";
import { type Transport, WidgetHttpError } from "./transport";

/** The most characters a visitor's message may have. */
export const MAX_CONTENT = 2000;

/** One message in the log. */
export interface LogMessage {
  id: string;
  /** `note`: a small line instead of a bubble (a message a person will answer). */
  role: "user" | "assistant" | "operator" | "error" | "note";
  content: string;
  /** The operator's name, when the server gave it. */
  name?: string;
  streaming?: boolean;
  /** Source names of the answer's citations, in citation order, each once. */
  sources?: string[];
  /** Database rows read for the answer, shown as a table. */
  tables?: Array<{ columns: string[]; rows: Array<Array<string | number | boolean | null>>; truncated: boolean }>;
  /** Database writes waiting for the visitor's confirmation. */
  confirmations?: Array<{ id: string; databaseName: string; sql: string; state: "waiting" | "running" | "done" | "failed"; note?: string }>;
  /** Files sent with the message. */
  attachments?: ChatFile[];
}

/**
 * A file chosen for the next message (a chip above the input): uploading while it has neither
 * `file` (the server's view once stored) nor `error` (why it was refused).
 */
export interface PendingFile {
  key: string;
  name: string;
  size: number;
  /** Upload progress, 0 to 1. */
  progress: number;
  file?: ChatFile;
  error?: string;
}

/** What the panel shows. */
export interface ChatState {
  open: boolean;
  language: string;
  /** The client's config; undefined while it loads. */
  config: ConfigResult | undefined;
  messages: LogMessage[];
  input: string;
  /** The files chosen for the next message (the upload code, loaded on first use, fills it). */
  files: PendingFile[];
  /** An answer is streaming (it can be stopped). */
  busy: boolean;
  /** A line under the log: offline, a person will answer, why a message was refused… */
  notice: string | undefined;
  /** Answers and operator replies that came while the panel was closed. */
  unread: number;
  session: StoredSession | undefined;
  /** "Talk to a person" was asked and has not been answered yet. */
  asking: boolean;
  /** The server said talking to a person is off here: the button goes. */
  transferOff: boolean;
}

/** What the store is built on: the outside world, as ports. */
export interface ChatStoreDeps {
  clientId: string;
  transport: Transport;
  /** The session and visitor id, shared by the tabs of this browser. */
  storage: Store;
  /** What belongs to this tab only: a message waiting for the network. */
  tabStorage: Store;
  /** The config request the loader already started. */
  config: Promise<ConfigResult>;
  fetchConfig(language: string): Promise<ConfigResult>;
  /** The live events of `session` (the visitor API's event stream), not yet connected. */
  openLive(session: StoredSession): LiveConnection;
  /** Whether the browser thinks it is online. */
  online(): boolean;
  /** Where `online` and `storage` events come from (the window). */
  events: Pick<EventTarget, "addEventListener" | "removeEventListener">;
  /** Events for the page's `Parley('on', …)` listeners. */
  emit(event: string, payload?: unknown): void;
  /** The badge on the bubble. */
  setUnread(count: number): void;
  identity: VisitorIdentity | undefined;
  language: string;
}

/** The chat store: state, subscription and actions. */
export interface ChatStore {
  getState(): ChatState;
  /** Calls `listener` after every change; answers the unsubscribe. */
  subscribe(listener: () => void): () => void;
  setOpen(open: boolean): void;
  setLanguage(language: string): void;
  /** `Parley('identify', …)`: another user starts a new conversation; the same one changes nothing. */
  identify(identity: VisitorIdentity | undefined): void;
  setInput(input: string): void;
  /** Replaces the chips of the files chosen for the next message. */
  setFiles(files: PendingFile[]): void;
  /** The session, created when there is none yet (an upload needs one). */
  session(): Promise<WidgetSession>;
  /**
   * Sends a visitor's message with the files uploaded so far (ignored while another is under
   * way or a file is still uploading, empty without files, or too long).
   */
  ask(text: string): void;
  /** Stops the streaming answer. */
  stop(): void;
  /** "Talk to a person": the server hands the session over and answers its default reply. */
  handover(): Promise<void>;
  /** Runs the database write `confirmationId` shown under message `messageId`. */
  confirmWrite(messageId: string, confirmationId: string): Promise<void>;
  /** Transcribes a recording and adds its text to the input; a refusal is shown as the notice. */
  transcribe(audio: Blob, fileName: string): Promise<void>;
  /** Shows a line under the log (the microphone's permission messages). */
  setNotice(notice: string | undefined): void;
  /** Asks for the config again (after a network failure). */
  retryConfig(): void;
  /** Stops listening and disconnects the live events. */
  dispose(): void;
}

/** A stored message as the log shows it; an answer cut off by a server restart says so. */
const logOf = (item: StoredMessage, strings: typeof en): LogMessage => ({
  id: item.id,
  role: item.role === "user" || item.role === "operator" ? item.role : "assistant",
  content: item.status === "interrupted" ? `${item.content} ${strings.interrupted}` : item.content,
  ...(item.senderName ? { name: item.senderName } : {}),
  ...(item.attachments?.length ? { attachments: item.attachments } : {}),
});

/** What the visitor is told when a call fails. */
export function explainError(error: unknown, strings: typeof en, online: boolean): string {
  const failure = error as WidgetHttpError;
  if (failure?.status === 429) return strings.tooMany.replace("{s}", String(failure.retryAfter || 60));
  if (failure?.code === "manual_transfer_off") return strings.transferOff;
  if (failure?.status === 0) return online ? strings.network : strings.offline;
  if (failure?.status === 404) return strings.notFound;
  return failure?.message || (failure?.status === 403 ? strings.forbidden : strings.failed);
}

let counter = 0;
const nextId = () => `l${++counter}`;

/** Creates the store and starts it: config, stored session, listeners. */
export function createChatStore(deps: ChatStoreDeps): ChatStore {
  const { transport, storage, tabStorage } = deps;
  const sessionKey = `parley:${deps.clientId}`;
  const pendingKey = `${sessionKey}:pending`;
  const listeners = new Set<() => void>();
  let identity = deps.identity;

  const stored = storage.get<StoredSession>(sessionKey);
  const kept = identifyAction(stored, identity) === "keep" ? stored : undefined;
  if (!kept) storage.set(sessionKey, undefined);
  let state: ChatState = {
    open: false,
    language: deps.language,
    config: undefined,
    messages: [],
    input: "",
    files: [],
    busy: false,
    notice: undefined,
    unread: 0,
    session: kept,
    asking: false,
    transferOff: false,
  };

  // The visitor's last message, taken back into the input when the server refuses it.
  let lastAsked: { id: string; text: string; files: PendingFile[] } | undefined;
  // Server ids of messages in the log: pushed or refetched messages are shown once.
  const known = new Set<string>();
  let live: { id: string; events: LiveConnection } | undefined;
  let pending = tabStorage.get<string>(pendingKey);
  // The files of the waiting message (kept in memory only: a reload keeps just its text).
  let pendingFiles: ChatFile[] = [];
  let retries = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let controller: AbortController | undefined;
  let configRetry: (() => void) | undefined;
  let configTimer: ReturnType<typeof setTimeout> | undefined;

  const t = () => stringsFor(state.language);
  const set = (change: Partial<ChatState>) => {
    const before = state;
    state = { ...state, ...change };
    if (state.unread !== before.unread) deps.setUnread(state.unread);
    if (state.open !== before.open || state.session !== before.session) syncLive();
    if (state.config !== before.config) watchConfig();
    for (const listener of listeners) listener();
  };
  const setMessages = (change: (list: LogMessage[]) => LogMessage[]) => set({ messages: change(state.messages) });
  const update = (id: string, change: (message: LogMessage) => LogMessage) =>
    setMessages((list) => list.map((message) => (message.id === id ? change(message) : message)));

  const remember = (value: StoredSession | undefined) => {
    storage.set(sessionKey, value);
    set({ session: value });
  };

  /** A person has the session (or no longer has it): the transfer button goes (or comes back). */
  const markManual = (manual: boolean) => {
    const current = storage.get<StoredSession>(sessionKey);
    if (current && !!current.manual !== manual) remember({ ...current, manual });
    if (manual) set({ notice: t().manual });
  };

  const explain = (error: unknown, strings: typeof en = t()) => explainError(error, strings, deps.online());

  /** Adds messages the visitor has not seen (operator replies, answers given while away). */
  const receive = (items: StoredMessage[]) => {
    const fresh = items.filter((item) => (item.role === "operator" || item.role === "assistant") && !known.has(item.id));
    if (!fresh.length) return;
    for (const item of fresh) {
      known.add(item.id);
      deps.emit("message", { role: item.role, content: item.content, ...(item.senderName ? { senderName: item.senderName } : {}) });
    }
    set({ messages: [...state.messages, ...fresh.map((item) => logOf(item, t()))], ...(state.open ? {} : { unread: state.unread + fresh.length }) });
  };

  /** Shows a session's conversation so far; a session the server no longer knows is dropped. */
  const load = (from: StoredSession) =>
    transport.history(from).then(
      (items) => {
        if (state.session?.sessionId !== from.sessionId) return;
        const shown = items.filter((item) => item.role === "user" || item.role === "assistant" || item.role === "operator");
        for (const item of shown) known.add(item.id);
        set({ messages: shown.map((item) => logOf(item, t())) });
      },
      (error: WidgetHttpError) => {
        // Network down: keep the session (the live events refetch once connected).
        if (error?.status !== 401 && error?.status !== 404) return;
        if (storage.get<StoredSession>(sessionKey)?.sessionId === from.sessionId) storage.set(sessionKey, undefined);
        if (state.session?.sessionId === from.sessionId) follow(undefined);
      },
    );

  /** Another tab of this browser started, ended or handed over the session: this one follows. */
  const follow = (next: StoredSession | undefined) => {
    const current = state.session;
    if (next && identifyAction(next, identity) === "restart") return;
    set({ session: next, ...(!!next?.manual !== !!current?.manual ? { notice: next?.manual ? t().manual : undefined } : {}) });
    if (next?.sessionId === current?.sessionId) return;
    known.clear();
    set({ messages: [] });
    if (next) void load(next);
  };

  // The live events: opened once a session exists and the chat was opened, then kept (the
  // badge counts operator replies while the panel is closed); a new session gets a new stream.
  function syncLive() {
    const session = state.session;
    if (live && live.id !== session?.sessionId) {
      live.events.disconnect();
      live = undefined;
    }
    if (!state.open || !session || live) return;
    const stream = deps.openLive(session);
    live = { id: session.sessionId, events: stream };
    stream.on("message", (item: StoredMessage) => receive([item]));
    stream.on("mode", (data: { serviceMode?: string }) => {
      const manual = data?.serviceMode === "MANUAL_MODE";
      markManual(manual);
      if (!manual) set({ notice: undefined });
    });
    // Back after a drop: what was said meanwhile comes from the history.
    // An operator may write between the session's start and the stream's first connection: that
    // first time only operators' messages are taken (answers streamed here are already shown).
    stream.on("connect", (again: boolean) =>
      transport.history(session).then(
        (items) => receive(again ? items : items.filter((item) => item.role === "operator")),
        () => {},
      ),
    );
    stream.connect();
  }

  // The config could not be fetched (server or network down): try again until it answers.
  function watchConfig() {
    clearTimeout(configTimer);
    if (configRetry) deps.events.removeEventListener("online", configRetry);
    configRetry = undefined;
    const config = state.config;
    if (!config || config.ok || config.status !== 0) return;
    const retry = () => void deps.fetchConfig(state.language).then((result) => set({ config: result }));
    configTimer = setTimeout(retry, 5000);
    configRetry = retry;
    deps.events.addEventListener("online", retry);
  }

  async function ensureSession(): Promise<WidgetSession> {
    const current = storage.get<StoredSession>(sessionKey);
    if (current) return current;
    const visitorId = storage.get<string>("parley:visitor");
    const user = isIdentity(identity) ? { userId: identity.userId, hash: identity.hash } : undefined;
    const created = await transport.createSession({
      ...(visitorId ? { visitorId } : {}),
      language: /^zh/i.test(state.language) ? "zh-CN" : "en",
      ...(user ? { identity: user } : {}),
    });
    remember(user ? { ...created, userId: user.userId } : created);
    storage.set("parley:visitor", created.visitorId);
    return created;
  }

  async function handover(renewed = false): Promise<void> {
    set({ asking: true, notice: undefined });
    try {
      const current = await ensureSession();
      const result = await transport.handover(current);
      if (result.reply) {
        const reply = result.reply;
        setMessages((list) => [...list, { id: nextId(), role: "assistant", content: reply }]);
        // The stored copy of the reply must not come back as new after a reconnection.
        transport.history(current).then(
          (items) => items.forEach((item) => item.role === "assistant" && item.content === reply && known.add(item.id)),
          () => {},
        );
      }
      markManual(result.serviceMode === "MANUAL_MODE");
    } catch (error) {
      if (error instanceof WidgetHttpError && error.status === 401 && !renewed) {
        remember(undefined);
        return handover(true);
      }
      if (error instanceof WidgetHttpError && error.code === "manual_transfer_off") set({ transferOff: true });
      set({ notice: explain(error) });
      deps.emit("error", error);
    } finally {
      set({ asking: false });
    }
  }

  function keepPending(text: string | undefined, files: ChatFile[] = []) {
    pending = text;
    pendingFiles = files;
    tabStorage.set(pendingKey, text || undefined);
  }

  async function deliver(text: string, files: ChatFile[], renewed = false): Promise<void> {
    clearTimeout(retryTimer);
    const strings = t();
    if (!deps.online()) {
      keepPending(text, files);
      set({ notice: strings.offline });
      return;
    }
    const abort = new AbortController();
    controller = abort;
    const id = nextId();
    set({ busy: true, notice: undefined });
    let answer = "";
    let reason: string | undefined;
    let failedAnswer = false;
    try {
      const session = await ensureSession();
      keepPending(undefined);
      setMessages((list) => [...list, { id, role: "assistant", content: "", streaming: true }]);
      for await (const event of transport.send(
        session,
        text,
        abort.signal,
        files.map((file) => file.id),
      )) {
        if (event.type === "message-start") {
          if (event.messageId) known.add(event.messageId);
        } else if (event.type === "text-delta") {
          answer += event.text;
          update(id, (message) => ({ ...message, content: answer }));
        } else if (event.type === "citation") {
          update(id, (message) => (message.sources?.includes(event.source) ? message : { ...message, sources: [...(message.sources ?? []), event.source] }));
        } else if (event.type === "tool-result") {
          const { table, confirmation } = event;
          if (table) update(id, (message) => ({ ...message, tables: [...(message.tables ?? []), table] }));
          if (confirmation) {
            const waiting = { id: confirmation.id, databaseName: confirmation.databaseName, sql: confirmation.sql, state: "waiting" as const };
            update(id, (message) => ({ ...message, confirmations: [...(message.confirmations ?? []), waiting] }));
          }
        } else if (event.type === "message-end") {
          reason = event.finishReason;
        } else if (event.type === "error") {
          failedAnswer = true;
          update(id, (message) => ({ ...message, role: "error", content: event.message || strings.failed }));
          deps.emit("error", event);
        }
      }
      retries = 0;
      // A person has the session: the AI stays silent, so no empty bubble, only a note.
      if (reason === "handover") markManual(true);
      if (!answer && !failedAnswer) {
        if (reason === "handover") update(id, (message) => ({ ...message, role: "note", content: strings.sent }));
        else setMessages((list) => list.filter((message) => message.id !== id));
        return;
      }
      deps.emit("message", { role: "assistant", content: answer });
      if (!state.open) set({ unread: state.unread + 1 });
    } catch (error) {
      if ((error as Error)?.name === "AbortError") {
        update(id, (message) => ({ ...message, content: `${answer} ${strings.stopped}` }));
      } else if (error instanceof WidgetHttpError && error.status === 401 && !renewed) {
        remember(undefined);
        setMessages((list) => list.filter((message) => message.id !== id));
        return deliver(text, files, true);
      } else if (error instanceof WidgetHttpError && error.status === 0) {
        // Network down: keep the message and try again with backoff (and at once when online).
        setMessages((list) => list.filter((message) => message.id !== id || message.content));
        keepPending(text, files);
        set({ notice: deps.online() ? strings.network : strings.offline });
        const delay = Math.min(30_000, 1000 * 2 ** retries++);
        retryTimer = setTimeout(() => pending != null && void deliver(pending, pendingFiles), delay);
      } else {
        // Refused (too long, too many sessions, not allowed…): the message was not taken, so it
        // leaves the log and goes back into the input, with the reason.
        const asked = lastAsked;
        setMessages((list) => list.filter((message) => message.id !== id && message.id !== asked?.id));
        if (asked?.text === text) set({ input: state.input || text, files: state.files.length ? state.files : asked.files });
        set({ notice: explain(error, strings) });
        deps.emit("error", error);
      }
    } finally {
      update(id, (message) => ({ ...message, streaming: false }));
      if (controller === abort) controller = undefined;
      set({ busy: false });
    }
  }

  function subscribe(listener: () => void) {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }

  const online = () => {
    if (pending != null) void deliver(pending, pendingFiles);
  };
  const shared = (event: Event) => {
    const key = (event as StorageEvent).key;
    if (key === sessionKey || key === null) follow(storage.get<StoredSession>(sessionKey));
  };
  deps.events.addEventListener("online", online);
  deps.events.addEventListener("storage", shared);
  void deps.config.then((config) => set({ config }));
  if (kept?.manual) state.notice = t().manual;
  deps.setUnread(0);
  if (kept) void load(kept);
  if (pending != null && deps.online()) setTimeout(online);

  return {
    getState: () => state,
    subscribe,
    setOpen(open) {
      if (open === state.open) return;
      set({ open, ...(open ? { unread: 0 } : {}) });
    },
    setLanguage(language) {
      set({ language });
    },
    identify(next) {
      const previous = identity;
      identity = next;
      if (previous?.userId === next?.userId) return;
      if (identifyAction(storage.get<StoredSession>(sessionKey), next) === "keep") return;
      controller?.abort();
      remember(undefined);
      known.clear();
      set({ messages: [], files: [], notice: undefined });
    },
    setInput(input) {
      set({ input });
    },
    setFiles(files) {
      set({ files });
    },
    session: () => ensureSession(),
    ask(raw) {
      const text = raw.trim();
      const chips = state.files;
      const files = chips.flatMap((chip) => (chip.file ? [chip.file] : []));
      const uploading = chips.some((chip) => !chip.file && !chip.error);
      if ((!text && !files.length) || uploading || state.busy || state.asking || pending != null || text.length > MAX_CONTENT) return;
      const id = nextId();
      lastAsked = { id, text, files: chips };
      set({ input: "", files: [], messages: [...state.messages, { id, role: "user", content: text, ...(files.length ? { attachments: files } : {}) }] });
      void deliver(text, files);
    },
    stop() {
      controller?.abort();
    },
    handover: () => handover(),
    async confirmWrite(messageId, confirmationId) {
      const mark = (patch: { state: "running" | "done" | "failed"; note?: string }) =>
        update(messageId, (message) => ({
          ...message,
          confirmations: message.confirmations?.map((item) => (item.id === confirmationId ? { ...item, ...patch } : item)),
        }));
      mark({ state: "running" });
      try {
        const session = await ensureSession();
        if (!transport.confirmWrite) throw new Error("confirming is not available");
        const result = await transport.confirmWrite(session, confirmationId);
        mark({ state: "done", note: t().writeDone.replace("{n}", String(result.affectedRows)) });
      } catch (error) {
        mark({ state: "failed", note: error instanceof WidgetHttpError && error.message ? error.message : t().failed });
      }
    },
    setNotice(notice) {
      set({ notice });
    },
    async transcribe(audio, fileName) {
      try {
        if (!transport.transcribe) throw new Error("speech input is not available");
        const { text } = await transport.transcribe(await ensureSession(), audio, fileName);
        const current = state.input.trim();
        if (text) set({ input: current ? `${current} ${text}` : text, notice: undefined });
      } catch (error) {
        set({ notice: explain(error) });
      }
    },
    retryConfig() {
      set({ config: undefined });
      void deps.fetchConfig(state.language).then((config) => set({ config }));
    },
    dispose() {
      deps.events.removeEventListener("online", online);
      deps.events.removeEventListener("storage", shared);
      if (configRetry) deps.events.removeEventListener("online", configRetry);
      clearTimeout(configTimer);
      clearTimeout(retryTimer);
      live?.events.disconnect();
    },
  };
}
