import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { stringsFor } from '../core/i18n';
import { identifyAction, isIdentity } from '../core/identity';
import type { ConfigResult, PanelContext, StoredMessage, StoredSession, VisitorIdentity, WidgetSession } from '../core/protocol';
import { bracketQuestions, formatReply, isSafeUrl } from '../core/reply';
import { type ClientSocket, createSocket, VISITOR_RECONNECTION } from '../core/socket';
import { browserStore, tabStore } from '../core/storage';
import { createTransport, fetchConfig, WidgetHttpError } from '../core/transport';
import { renderNodes } from './reply-view';

/** One message in the log. */
interface LogMessage {
  id: string;
  /** `note`: a small line instead of a bubble (a message a person will answer). */
  role: 'user' | 'assistant' | 'operator' | 'error' | 'note';
  content: string;
  /** The operator's name, when the server gave it. */
  name?: string;
  streaming?: boolean;
  /** Source names of the answer's citations, in citation order, each once. */
  sources?: string[];
}

/** Props of {@link Panel}; the chat entry re-renders with new ones on each command. */
export interface PanelProps {
  context: PanelContext;
  open: boolean;
  language: string;
  identity: VisitorIdentity | undefined;
  onClose(): void;
}

const MAX_CONTENT = 2000;

// The session is shared by the tabs of this browser; a message waiting for the network is this tab's.
const storage = browserStore();
const tabStorage = tabStore();

let counter = 0;
const nextId = () => `l${++counter}`;

/** A stored or pushed message as a log entry. */
const logOf = (item: StoredMessage): LogMessage => ({
  id: item.id,
  role: item.role === 'user' || item.role === 'operator' ? item.role : 'assistant',
  content: item.content,
  ...(item.senderName ? { name: item.senderName } : {}),
});

/** The chat panel: header, log, guiding questions, input with send and stop. */
export function Panel({ context, open, language, identity, onClose }: PanelProps) {
  const { options } = context;
  const t = stringsFor(language);
  const sessionKey = `parley:${options.clientId}`;
  const pendingKey = `${sessionKey}:pending`;
  const [config, setConfig] = useState<ConfigResult | undefined>();
  const [messages, setMessages] = useState<LogMessage[]>([]);
  const [input, setInput] = useState('');
  const [busy, setBusy] = useState<AbortController | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const [unread, setUnread] = useState(0);
  const [session, setSession] = useState<StoredSession | undefined>(() => {
    const stored = storage.get<StoredSession>(sessionKey);
    if (identifyAction(stored, identity) === 'keep') return stored;
    storage.set(sessionKey, undefined);
    return undefined;
  });
  const sessionRef = useRef(session);
  const identityRef = useRef(identity);
  identityRef.current = identity;
  const [asking, setAsking] = useState(false);
  const [transferOff, setTransferOff] = useState(false);
  // The visitor's last message, taken back into the input when the server refuses it.
  const lastAsked = useRef<{ id: string; text: string }>(undefined);
  // Server ids of messages in the log: pushed or refetched messages are shown once.
  const known = useRef(new Set<string>());
  const live = useRef<{ id: string; socket: ClientSocket }>(undefined);
  const pending = useRef<string | undefined>(tabStorage.get<string>(pendingKey));
  const retries = useRef(0);
  const retryTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const openRef = useRef(open);
  openRef.current = open;
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const logRef = useRef<HTMLDivElement>(null);
  const languageRef = useRef(language);
  languageRef.current = language;
  const transport = useMemo(() => createTransport(options.api, options.clientId, () => languageRef.current), [options.api, options.clientId]);

  const remember = (value: StoredSession | undefined) => {
    storage.set(sessionKey, value);
    sessionRef.current = value;
    setSession(value);
  };

  /** A person has the session (or no longer has it): the transfer button goes (or comes back). */
  const markManual = (manual: boolean) => {
    const stored = storage.get<StoredSession>(sessionKey);
    if (stored && !!stored.manual !== manual) remember({ ...stored, manual });
    if (manual) setNotice(stringsFor(languageRef.current).manual);
  };

  /** What the visitor is told when a call fails. */
  const explain = (error: unknown): string => {
    const failure = error as WidgetHttpError;
    if (failure?.status === 429) return t.tooMany.replace('{s}', String(failure.retryAfter || 60));
    if (failure?.code === 'manual_transfer_off') return t.transferOff;
    if (failure?.status === 0) return navigator.onLine ? t.network : t.offline;
    if (failure?.status === 404) return t.notFound;
    return failure?.message || (failure?.status === 403 ? t.forbidden : t.failed);
  };

  /** Adds messages the visitor has not seen (operator replies, answers given while away). */
  const receive = (items: StoredMessage[]) => {
    const fresh = items.filter((item) => (item.role === 'operator' || item.role === 'assistant') && !known.current.has(item.id));
    if (!fresh.length) return;
    for (const item of fresh) {
      known.current.add(item.id);
      context.emit('message', { role: item.role, content: item.content, ...(item.senderName ? { senderName: item.senderName } : {}) });
    }
    setMessages((list) => [...list, ...fresh.map(logOf)]);
    if (!openRef.current) setUnread((count) => count + fresh.length);
  };

  const update = (id: string, change: (message: LogMessage) => LogMessage) => setMessages((list) => list.map((message) => (message.id === id ? change(message) : message)));

  /** Shows a session's conversation so far; a session the server no longer knows is dropped. */
  const load = (from: StoredSession) =>
    transport.history(from).then(
      (items: StoredMessage[]) => {
        if (sessionRef.current?.sessionId !== from.sessionId) return;
        const shown = items.filter((item) => item.role === 'user' || item.role === 'assistant' || item.role === 'operator');
        for (const item of shown) known.current.add(item.id);
        setMessages(shown.map(logOf));
      },
      (error: WidgetHttpError) => {
        // Network down: keep the session (the socket refetches once connected).
        if (error?.status !== 401 && error?.status !== 404) return;
        if (storage.get<StoredSession>(sessionKey)?.sessionId === from.sessionId) storage.set(sessionKey, undefined);
        if (sessionRef.current?.sessionId === from.sessionId) follow(undefined);
      },
    );

  /** Another tab of this browser started, ended or handed over the session: this one follows. */
  const follow = (next: StoredSession | undefined) => {
    const current = sessionRef.current;
    if (next && identifyAction(next, identityRef.current) === 'restart') return;
    sessionRef.current = next;
    setSession(next);
    if (!!next?.manual !== !!current?.manual) setNotice(next?.manual ? stringsFor(languageRef.current).manual : undefined);
    if (next?.sessionId === current?.sessionId) return;
    known.current.clear();
    setMessages([]);
    if (next) void load(next);
  };

  useEffect(() => {
    context.config.then(setConfig);
    if (session?.manual) setNotice(t.manual);
    if (session) void load(session);
    const online = () => {
      if (pending.current) void deliver(pending.current);
    };
    const shared = (event: StorageEvent) => {
      if (event.key === sessionKey || event.key === null) follow(storage.get<StoredSession>(sessionKey));
    };
    addEventListener('online', online);
    addEventListener('storage', shared);
    if (pending.current && navigator.onLine) setTimeout(online);
    return () => {
      removeEventListener('online', online);
      removeEventListener('storage', shared);
      live.current?.socket.disconnect();
    };
  }, []);

  // The visitor socket: opened once a session exists and the chat was opened, then kept (the
  // badge counts operator replies while the panel is closed); a new session gets a new socket.
  useEffect(() => {
    if (live.current && live.current.id !== session?.sessionId) {
      live.current.socket.disconnect();
      live.current = undefined;
    }
    if (!open || !session || live.current) return;
    const socket = createSocket({
      url: options.api,
      namespace: '/visitor',
      auth: { clientId: options.clientId, sessionId: session.sessionId, token: session.visitorToken },
      ...VISITOR_RECONNECTION,
    });
    live.current = { id: session.sessionId, socket };
    socket.on('message', (item: StoredMessage) => receive([item]));
    socket.on('mode', (data: { serviceMode?: string }) => {
      const manual = data?.serviceMode === 'MANUAL_MODE';
      markManual(manual);
      if (!manual) setNotice(undefined);
    });
    // Back after a drop: what was said meanwhile comes from the history.
    // An operator may write between the session's start and the socket's first connection: that
    // first time only operators' messages are taken (answers streamed here are already shown).
    socket.on('connect', (again: boolean) =>
      transport.history(session).then((items: StoredMessage[]) => receive(again ? items : items.filter((item) => item.role === 'operator')), () => {}),
    );
    socket.connect();
  }, [open, session]);

  useEffect(() => {
    if (open) {
      setUnread(0);
      inputRef.current?.focus();
    }
  }, [open]);
  useEffect(() => context.setUnread(unread), [unread]);
  // identify after a session exists: another user (or the first identification of an anonymous
  // visitor) starts a new conversation without the old messages; the same user changes nothing.
  useEffect(() => {
    if (identifyAction(storage.get<StoredSession>(sessionKey), identity) === 'keep') return;
    busy?.abort();
    remember(undefined);
    known.current.clear();
    setMessages([]);
    setNotice(undefined);
  }, [identity?.userId]);
  // The config could not be fetched (server or network down): try again until it answers.
  useEffect(() => {
    if (!config || config.ok || config.status !== 0) return;
    const retry = () => fetchConfig(options.api, options.clientId, languageRef.current).then(setConfig);
    const timer = setTimeout(retry, 5000);
    addEventListener('online', retry);
    return () => {
      clearTimeout(timer);
      removeEventListener('online', retry);
    };
  }, [config]);
  useEffect(() => {
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [messages]);

  async function ensureSession(): Promise<WidgetSession> {
    const stored = storage.get<StoredSession>(sessionKey);
    if (stored) return stored;
    const visitorId = storage.get<string>('parley:visitor');
    const user = isIdentity(identity) ? { userId: identity.userId, hash: identity.hash } : undefined;
    const created = await transport.createSession({ ...(visitorId ? { visitorId } : {}), language: /^zh/i.test(languageRef.current) ? 'zh-CN' : 'en', ...(user ? { identity: user } : {}) });
    remember(user ? { ...created, userId: user.userId } : created);
    storage.set('parley:visitor', created.visitorId);
    return created;
  }

  /** "Talk to a person": the server hands the session over and answers its default reply. */
  async function handover(renewed = false): Promise<void> {
    setAsking(true);
    setNotice(undefined);
    try {
      const current = await ensureSession();
      const result = await transport.handover(current);
      if (result.reply) {
        setMessages((list) => [...list, { id: nextId(), role: 'assistant', content: result.reply! }]);
        // The stored copy of the reply must not come back as new after a reconnection.
        transport.history(current).then(
          (items) => items.forEach((item) => item.role === 'assistant' && item.content === result.reply && known.current.add(item.id)),
          () => {},
        );
      }
      markManual(result.serviceMode === 'MANUAL_MODE');
    } catch (error) {
      if (error instanceof WidgetHttpError && error.status === 401 && !renewed) {
        remember(undefined);
        return handover(true);
      }
      if (error instanceof WidgetHttpError && error.code === 'manual_transfer_off') setTransferOff(true);
      setNotice(explain(error));
      context.emit('error', error);
    } finally {
      setAsking(false);
    }
  }

  function keepPending(text: string | undefined) {
    pending.current = text;
    tabStorage.set(pendingKey, text);
  }

  async function deliver(text: string, renewed = false): Promise<void> {
    clearTimeout(retryTimer.current);
    if (!navigator.onLine) {
      keepPending(text);
      setNotice(t.offline);
      return;
    }
    const controller = new AbortController();
    const id = nextId();
    setBusy(controller);
    setNotice(undefined);
    let answer = '';
    let reason: string | undefined;
    let failedAnswer = false;
    try {
      const session = await ensureSession();
      keepPending(undefined);
      setMessages((list) => [...list, { id, role: 'assistant', content: '', streaming: true }]);
      for await (const event of transport.send(session, text, controller.signal)) {
        if (event.type === 'message-start') {
          if (event.messageId) known.current.add(event.messageId);
        } else if (event.type === 'text-delta') {
          answer += event.text;
          update(id, (message) => ({ ...message, content: answer }));
        } else if (event.type === 'citation') {
          update(id, (message) => (message.sources?.includes(event.source) ? message : { ...message, sources: [...(message.sources ?? []), event.source] }));
        } else if (event.type === 'message-end') {
          reason = event.finishReason;
        } else if (event.type === 'error') {
          failedAnswer = true;
          update(id, (message) => ({ ...message, role: 'error', content: event.message || t.failed }));
          context.emit('error', event);
        }
      }
      retries.current = 0;
      // A person has the session: the AI stays silent, so no empty bubble, only a note.
      if (reason === 'handover') markManual(true);
      if (!answer && !failedAnswer) {
        if (reason === 'handover') update(id, (message) => ({ ...message, role: 'note', content: t.sent }));
        else setMessages((list) => list.filter((message) => message.id !== id));
        return;
      }
      context.emit('message', { role: 'assistant', content: answer });
      if (!openRef.current) setUnread((count) => count + 1);
    } catch (error) {
      if ((error as Error)?.name === 'AbortError') {
        update(id, (message) => ({ ...message, content: `${answer} ${t.stopped}` }));
      } else if (error instanceof WidgetHttpError && error.status === 401 && !renewed) {
        remember(undefined);
        setMessages((list) => list.filter((message) => message.id !== id));
        return deliver(text, true);
      } else if (error instanceof WidgetHttpError && error.status === 0) {
        // Network down: keep the message and try again with backoff (and at once when online).
        setMessages((list) => list.filter((message) => message.id !== id || message.content));
        keepPending(text);
        setNotice(navigator.onLine ? t.network : t.offline);
        const delay = Math.min(30_000, 1000 * 2 ** retries.current++);
        retryTimer.current = setTimeout(() => pending.current && void deliver(pending.current), delay);
      } else {
        // Refused (too long, too many sessions, not allowed…): the message was not taken, so it
        // leaves the log and goes back into the input, with the reason.
        const asked = lastAsked.current;
        setMessages((list) => list.filter((message) => message.id !== id && message.id !== asked?.id));
        if (asked?.text === text) setInput((current) => current || text);
        setNotice(explain(error));
        context.emit('error', error);
      }
    } finally {
      update(id, (message) => ({ ...message, streaming: false }));
      setBusy(undefined);
    }
  }

  function ask(raw: string) {
    const text = raw.trim();
    if (!text || busy || asking || pending.current || text.length > MAX_CONTENT) return;
    setInput('');
    const id = nextId();
    lastAsked.current = { id, text };
    setMessages((list) => [...list, { id, role: 'user', content: text }]);
    void deliver(text);
  }

  const failed = config && !config.ok ? config : undefined;
  const loaded = config?.ok ? config.config : undefined;
  const intro = bracketQuestions(loaded?.openingIntroduction ?? '');
  const questions = loaded?.guidingQuestions?.length ? loaded.guidingQuestions : intro.questions;
  const welcome = [loaded?.welcome, intro.text].filter(Boolean).join('\n\n');
  const full = options.mode !== 'bubble';
  const left = (options.position ?? loaded?.position) === 'left';
  const tooLong = input.trim().length > MAX_CONTENT;
  const manual = !!session?.manual;

  return (
    <div
      class={`p${full ? ' f' : ''}${left ? ' l' : ''}`}
      role="dialog"
      aria-label={loaded?.name || 'Chat'}
      hidden={!open}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !full) {
          event.stopPropagation();
          onClose();
        }
      }}
    >
      <div class="h">
        {loaded?.avatarUrl && isSafeUrl(loaded.avatarUrl) && <img src={loaded.avatarUrl} alt="" />}
        <h2>{loaded?.name || loaded?.appName || ''}</h2>
        {!full && (
          <button type="button" class="x" aria-label={t.close} onClick={onClose}>
            ×
          </button>
        )}
      </div>
      <div class="g" role="log" aria-live="polite" aria-label={t.log} ref={logRef}>
        {failed ? (
          <div class="m e" role="alert">
            {failed.status === 0 ? (navigator.onLine ? t.network : t.offline) : explain(new WidgetHttpError(failed.status, failed.message))}
            {failed.status === 0 && (
              <p>
                <button
                  type="button"
                  class="s"
                  onClick={() => {
                    setConfig(undefined);
                    fetchConfig(options.api, options.clientId, language).then(setConfig);
                  }}
                >
                  {t.retry}
                </button>
              </p>
            )}
          </div>
        ) : (
          welcome && <div class="m">{renderNodes(formatReply(welcome))}</div>
        )}
        {loaded && questions.length > 0 && messages.length === 0 && (
          <ul class="q" aria-label={t.questions}>
            {questions.map((question) => (
              <li key={question}>
                <button type="button" onClick={() => ask(question)}>
                  {question}
                </button>
              </li>
            ))}
          </ul>
        )}
        {messages.map((message) =>
          message.role === 'operator' ? (
            <div key={message.id} class="m r">
              <b class="w">{message.name || t.operator}</b>
              {renderNodes(formatReply(message.content))}
            </div>
          ) : message.role === 'note' ? (
            <p key={message.id} class="z">
              {message.content}
            </p>
          ) : message.role === 'user' ? (
            <div key={message.id} class="m u">
              <span class="t">{t.you}: </span>
              {message.content}
            </div>
          ) : (
            <div key={message.id} class={message.role === 'error' ? 'm e' : 'm'} aria-busy={message.streaming ? 'true' : undefined}>
              {message.role === 'error' ? message.content : renderNodes(formatReply(message.content))}
              {message.sources && (
                <ul class="c" aria-label={t.sources}>
                  {message.sources.map((source) => (
                    <li key={source}>{source}</li>
                  ))}
                </ul>
              )}
            </div>
          ),
        )}
      </div>
      {notice && (
        <p class="n" role="status">
          {notice}
        </p>
      )}
      {tooLong && (
        <p class="n" role="alert" id="parley-too-long">
          {t.tooLong} {input.trim().length}/{MAX_CONTENT}
        </p>
      )}
      {loaded?.manualTransfer && !manual && !transferOff && (
        <button type="button" class="y" disabled={asking || !!busy} onClick={() => void handover()}>
          {t.talk}
        </button>
      )}
      <form
        class="i"
        onSubmit={(event) => {
          event.preventDefault();
          ask(input);
        }}
      >
        <textarea
          ref={inputRef}
          rows={1}
          value={input}
          placeholder={t.placeholder}
          aria-label={t.placeholder}
          aria-invalid={tooLong ? 'true' : undefined}
          aria-describedby={tooLong ? 'parley-too-long' : undefined}
          disabled={!!failed}
          onInput={(event) => setInput(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
              event.preventDefault();
              ask(input);
            }
          }}
        />
        {busy ? (
          <button type="button" class="s" onClick={() => busy.abort()}>
            {t.stop}
          </button>
        ) : (
          <button type="submit" class="s" disabled={!!failed || !input.trim() || tooLong || asking}>
            {t.send}
          </button>
        )}
      </form>
      {loaded?.slogan && <div class="o">{loaded.slogan}</div>}
    </div>
  );
}
