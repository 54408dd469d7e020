import { CheckOutlined, DownloadOutlined, ReloadOutlined, RobotOutlined, SearchOutlined, UserSwitchOutlined } from "@ant-design/icons";
import { Avatar, Badge, Button, Input, Modal, Segmented, Select, Space, Tag, Typography } from "antd";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback";
import { PageHeader } from "../../components/page-header";
import { useRealtimeEvent, useRealtimeState } from "../../lib/realtime";
import { CHANNEL_CLIENTS, channelEndpoints } from "../../lib/api/channel-clients";
import { clientsEndpoints, WEB_CLIENTS } from "../../lib/api/web-clients";
import { invalidateSpace, mapData, setSpaceData, useSpaceQuery } from "../../lib/api/query";
import { saveBlob } from "../../lib/save-blob";
import { ConversationView } from "./conversation-view";
import { ExportModal } from "./export-modal";
import { inboxEndpoints, type InboxMessage, type InboxSession, type ReadFilter, type ServiceMode } from "../../lib/api/inbox";
import {
  applyDelivery,
  applyMessage,
  applyRetry,
  fromIncoming,
  matchesFilters,
  patchSession,
  prependOlder,
  upsertMessage,
  type InboxFilters,
} from "./inbox-state";
import { ModeBadge } from "./mode-badge";
import { ReplyBox } from "./reply-box";
import type { AttachedFile } from "../../components/chat/pending-files";
import { chatFileEndpoints } from "../../lib/api/chat-files";
import { sessionTitle } from "./session-format";
import { SessionList } from "./session-list";
import "./chat-manage.css";

interface ClientOption {
  value: string;
  label: string;
}

/** How long typing pauses before the keyword is asked for. */
const SEARCH_DEBOUNCE_MS = 300;

/** Every inbox key of the space (below the space id, see lib/api/query). */
const INBOX = ["inbox"];

/** The cache key of the session list under some filters. */
const sessionsKey = (filters: InboxFilters) => [...INBOX, "sessions", filters.read, filters.clientId ?? null, filters.keyword ?? null];

/** The session list as cached: the sessions shown (live events and "load more" change them in place), where the next page starts and the unread total. */
interface SessionsPage {
  items: InboxSession[];
  nextCursor: string | null;
  unreadCount: number;
}

const optionsOf = (clients: readonly { id: string; name: string }[]): ClientOption[] => clients.map((client) => ({ value: client.id, label: client.name }));

/** The space's web and channel clients, for the client filter. */
function useClientOptions(): ClientOption[] {
  const web = useSpaceQuery({
    key: [...WEB_CLIENTS, "inbox-options"],
    fetch: (signal) => mapData(clientsEndpoints.list({ silent: true, dedupeKey: "inbox-web-clients", signal }), optionsOf),
  });
  const channels = useSpaceQuery({
    key: [...CHANNEL_CLIENTS, "inbox-options"],
    fetch: (signal) => mapData(channelEndpoints.list({ silent: true, dedupeKey: "inbox-channel-clients", signal }), optionsOf),
  });
  return useMemo(() => [...(channels.data ?? []), ...(web.data ?? [])], [channels.data, web.data]);
}

interface History {
  sessionId: string;
  messages: InboxMessage[];
  hasMore: boolean;
  loading: boolean;
  loadingOlder: boolean;
}

/**
 * /console/chatManage: the sessions inbox. Left, the sessions of every client (filters by read
 * type and client, live through the /console socket); right, the open conversation with take
 * over / hand back (confirmed), the operator's reply, and export of ticked sessions.
 */
export function ChatManagePage() {
  const { t } = useTranslation();
  const clientOptions = useClientOptions();
  const realtimeState = useRealtimeState();
  const [filters, setFilters] = useState<InboxFilters>({ read: "all" });
  const [search, setSearch] = useState("");
  // While other filters load, the last list stays shown (as before the cache).
  const list = useSpaceQuery<SessionsPage>({
    key: sessionsKey(filters),
    fetch: (signal) =>
      mapData(inboxEndpoints.sessions({ read: filters.read, clientId: filters.clientId, keyword: filters.keyword }, { signal }), (page) => ({
        items: page.items,
        nextCursor: page.nextCursor,
        unreadCount: page.unreadCount,
      })),
    keepPreviousPage: true,
  });
  const sessions = useMemo(() => list.data?.items ?? [], [list.data]);
  const cursor = list.data?.nextCursor ?? null;
  const unreadCount = list.data?.unreadCount ?? 0;
  const [loadingMore, setLoadingMore] = useState(false);
  const listLoading = list.isFetching || loadingMore;
  const [open, setOpen] = useState<InboxSession>();
  const [history, setHistory] = useState<History>();
  const [checked, setChecked] = useState<Set<string>>(new Set());
  const [exporting, setExporting] = useState(false);
  const [confirming, setConfirming] = useState<ServiceMode>();
  const [switching, setSwitching] = useState(false);
  const filtersRef = useRef(filters);
  filtersRef.current = filters;
  const openRef = useRef(open);
  openRef.current = open;
  const sessionsRef = useRef(sessions);
  sessionsRef.current = sessions;

  /** Changes the shown list (of the filters in force) in the cache. */
  const updateList = useCallback((update: (page: SessionsPage) => SessionsPage) => {
    setSpaceData<SessionsPage>(sessionsKey(filtersRef.current), (current) => (current ? update(current) : current));
  }, []);
  const setSessions = useCallback(
    (update: (items: InboxSession[]) => InboxSession[]) => updateList((page) => ({ ...page, items: update(page.items) })),
    [updateList],
  );

  useEffect(() => {
    const keyword = search.trim() || undefined;
    const timer = setTimeout(() => setFilters((current) => (current.keyword === keyword ? current : { ...current, keyword })), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search]);

  const loadMore = async () => {
    if (!cursor) return;
    setLoadingMore(true);
    const result = await inboxEndpoints.sessions({ read: filters.read, clientId: filters.clientId, keyword: filters.keyword, cursor });
    setLoadingMore(false);
    if (!result.ok) return;
    updateList((page) => ({
      ...page,
      items: [...page.items, ...result.data.items.filter((item) => !page.items.some((known) => known.sessionId === item.sessionId))],
      nextCursor: result.data.nextCursor,
    }));
  };

  // The unread total counts every client; after read changes it is asked for again (once per burst).
  const countTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const refreshCount = useCallback(() => {
    clearTimeout(countTimer.current);
    countTimer.current = setTimeout(() => {
      void inboxEndpoints.sessions({ read: "unread", limit: 1 }, { silent: true, dedupeKey: "inbox-unread-count" }).then((result) => {
        if (result.ok) updateList((page) => ({ ...page, unreadCount: result.data.unreadCount }));
      });
    }, 250);
  }, [updateList]);
  useEffect(() => () => clearTimeout(countTimer.current), []);

  const patchBoth = useCallback(
    (sessionId: string, patch: Partial<InboxSession>) => {
      setSessions((current) => patchSession(current, sessionId, patch));
      setOpen((current) => (current?.sessionId === sessionId ? { ...current, ...patch, sessionId } : current));
    },
    [setSessions],
  );

  const markRead = useCallback(
    async (session: InboxSession) => {
      patchBoth(session.sessionId, { readStatus: "HAVE_READ" });
      const result = await inboxEndpoints.markRead(session.sessionId);
      if (result.ok) refreshCount();
    },
    [patchBoth, refreshCount],
  );

  const openSession = async (session: InboxSession) => {
    setOpen(session);
    setHistory({ sessionId: session.sessionId, messages: [], hasMore: false, loading: true, loadingOlder: false });
    if (session.readStatus === "UNREAD") void markRead(session);
    const result = await inboxEndpoints.messages(session.sessionId, undefined, { dedupeKey: "inbox-history" });
    if (!result.ok) {
      if (result.error.kind !== "aborted") setHistory((current) => (current?.sessionId === session.sessionId ? { ...current, loading: false } : current));
      return;
    }
    setHistory((current) =>
      current?.sessionId === session.sessionId
        ? { ...current, messages: result.data.items.reduce(upsertMessage, current.messages), hasMore: result.data.hasMore, loading: false }
        : current,
    );
  };

  const openSessionRef = useRef(openSession);
  openSessionRef.current = openSession;

  const loadOlder = async () => {
    if (!history?.messages[0]) return;
    const { sessionId } = history;
    setHistory({ ...history, loadingOlder: true });
    const result = await inboxEndpoints.messages(sessionId, history.messages[0].id);
    setHistory((current) =>
      current?.sessionId === sessionId
        ? {
            ...current,
            loadingOlder: false,
            ...(result.ok ? { messages: prependOlder(current.messages, result.data.items), hasMore: result.data.hasMore } : {}),
          }
        : current,
    );
  };

  useRealtimeEvent("session.message", ({ sessionId, message }) => {
    const current = openRef.current;
    if (current?.sessionId === sessionId) {
      setHistory((state) => (state?.sessionId === sessionId ? { ...state, messages: upsertMessage(state.messages, fromIncoming(message)) } : state));
    }
    if (sessionsRef.current.some((item) => item.sessionId === sessionId)) {
      setSessions((list) => applyMessage(list, sessionId, message, filtersRef.current));
    } else {
      // A session the list does not hold (new, or further down): the server says whether the
      // filters (keyword included) take it; only then is it placed.
      const asked = filtersRef.current;
      void inboxEndpoints
        .sessions(
          { read: asked.read, clientId: asked.clientId, keyword: asked.keyword, sessionId, limit: 1 },
          { silent: true, dedupeKey: `inbox-live-${sessionId}` },
        )
        .then((result) => {
          const found = result.ok ? result.data.items.find((item) => item.sessionId === sessionId) : undefined;
          // Filters changed meanwhile: the list was fetched again with them.
          if (!found || filtersRef.current !== asked) return;
          setSessions((list) => applyMessage(list, sessionId, message, asked, found));
        });
    }
    if (current?.sessionId === sessionId) {
      setOpen((state) => (state?.sessionId === sessionId ? { ...state, msgContent: message.content, lastMessageAt: message.createdAt } : state));
      // The operator is looking at it: a customer's new message is read at once.
      if (message.role === "user" && document.visibilityState === "visible") void markRead(current);
    }
  });

  useRealtimeEvent("session.read", ({ sessionId, readStatus }) => {
    setSessions((list) => patchSession(list, sessionId, { readStatus }));
    setOpen((state) => (state?.sessionId === sessionId ? { ...state, readStatus } : state));
    refreshCount();
  });

  useRealtimeEvent("session.mode", ({ sessionId, serviceMode }) => patchBoth(sessionId, { serviceMode }));

  useRealtimeEvent("session.updated", ({ sessionId, session, ...fields }) => {
    const patch = { ...fields, ...(session ?? {}) } as Partial<InboxSession>;
    patchBoth(sessionId, patch);
  });

  useRealtimeEvent("session.delivery", ({ sessionId, messageId, delivery, error }) => {
    setHistory((state) => (state?.sessionId === sessionId ? { ...state, messages: applyDelivery(state.messages, messageId, delivery, error) } : state));
  });

  // After a reconnection, events may have been missed: fetch the list (and the open history) again.
  const previousState = useRef(realtimeState);
  useEffect(() => {
    const before = previousState.current;
    previousState.current = realtimeState;
    if (realtimeState === "connected" && before === "reconnecting") {
      void invalidateSpace([...INBOX, "sessions"]);
      const current = openRef.current;
      if (current) void openSessionRef.current(current);
    }
  }, [realtimeState]);

  const readAll = async () => {
    const result = await inboxEndpoints.readAll(filters.clientId);
    if (!result.ok) return;
    setSessions((list) =>
      list
        .map((item) => (filters.clientId && item.channelId !== filters.clientId ? item : { ...item, readStatus: "HAVE_READ" as const }))
        .filter((item) => matchesFilters(item, filters)),
    );
    setOpen((state) => (state && (!filters.clientId || state.channelId === filters.clientId) ? { ...state, readStatus: "HAVE_READ" } : state));
    refreshCount();
    feedback.success(t("chatManage.list.readAllDone", { count: result.data.read }));
  };

  const switchMode = async () => {
    if (!open || !confirming) return;
    setSwitching(true);
    try {
      const result = await inboxEndpoints.setMode(open.sessionId, confirming);
      if (!result.ok) return;
      patchBoth(open.sessionId, result.data);
      feedback.success(t(confirming === "MANUAL_MODE" ? "chatManage.mode.tookOver" : "chatManage.mode.handedBack"));
      setConfirming(undefined);
    } finally {
      setSwitching(false);
    }
  };

  const reply = async (content: string, files: AttachedFile[]) => {
    if (!open) return false;
    const sessionId = open.sessionId;
    const result = await inboxEndpoints.reply(
      sessionId,
      content,
      files.map((file) => file.id),
    );
    if (!result.ok) return false;
    setHistory((state) => (state?.sessionId === sessionId ? { ...state, messages: upsertMessage(state.messages, result.data) } : state));
    patchBoth(sessionId, { serviceMode: "MANUAL_MODE" });
    return true;
  };

  const retry = async (message: InboxMessage) => {
    if (!open) return;
    const sessionId = open.sessionId;
    const result = await inboxEndpoints.retry(sessionId, message.id);
    if (!result.ok) return;
    setHistory((state) => (state?.sessionId === sessionId ? { ...state, messages: applyRetry(state.messages, result.data) } : state));
  };

  const exportChecked = async (range: { from: string; to: string }) => {
    // The days the operator picked are the browser's days; the file also gets their local times.
    const timezoneOffsetMinutes = new Date(`${range.from}T12:00:00`).getTimezoneOffset();
    const result = await inboxEndpoints.exportSessions({ sessionIds: [...checked], ...range, timezoneOffsetMinutes });
    if (!result.ok) return false;
    saveBlob(result.data.blob, result.data.fileName ?? `sessions-${range.from}-${range.to}.csv`);
    return true;
  };

  const setRead = (read: ReadFilter) => setFilters((current) => ({ ...current, read }));
  const manual = open?.serviceMode === "MANUAL_MODE";
  const live = realtimeState === "connected";

  return (
    <div className="pl-inbox" data-testid="chat-manage-page">
      <PageHeader
        title={<span data-testid="chat-manage-title">{t("chatManage.title")}</span>}
        subtitle={t("chatManage.subtitle")}
        extra={
          <>
            <Tag
              color={live ? "green" : realtimeState === "reconnecting" || realtimeState === "connecting" ? "gold" : "default"}
              data-testid="inbox-realtime"
              data-state={realtimeState}
            >
              {t(`chatManage.realtime.${live ? "live" : realtimeState === "reconnecting" || realtimeState === "connecting" ? "connecting" : "offline"}`)}
            </Tag>
            <Button icon={<ReloadOutlined />} onClick={() => void list.refetch()} data-testid="inbox-refresh">
              {t("common.refresh")}
            </Button>
            <Button icon={<DownloadOutlined />} disabled={checked.size === 0} onClick={() => setExporting(true)} data-testid="inbox-export">
              {t("chatManage.export.button", { count: checked.size })}
            </Button>
          </>
        }
      />
      <div className="pl-inbox__panes">
        <aside className="pl-inbox__left pl-card">
          <div className="pl-inbox__filters">
            <Input
              allowClear
              prefix={<SearchOutlined />}
              placeholder={t("chatManage.filters.search")}
              aria-label={t("chatManage.filters.search")}
              value={search}
              maxLength={100}
              onChange={(event) => setSearch(event.target.value)}
              data-testid="inbox-search"
            />
            <Segmented<ReadFilter>
              block
              aria-label={t("chatManage.filters.readLabel")}
              value={filters.read}
              onChange={setRead}
              options={(["all", "unread", "read"] as const).map((value) => ({
                value,
                label: <span data-testid={`inbox-filter-${value}`}>{t(`chatManage.filters.${value}`)}</span>,
              }))}
            />
            <Select
              allowClear
              showSearch
              optionFilterProp="label"
              placeholder={t("chatManage.filters.allClients")}
              value={filters.clientId}
              onChange={(clientId?: string) => setFilters((current) => ({ ...current, clientId }))}
              options={clientOptions}
              style={{ width: "100%" }}
              data-testid="inbox-filter-client"
            />
            <div className="pl-inbox__filters-row">
              <Badge count={unreadCount} overflowCount={999} showZero={false} offset={[8, 0]}>
                <Typography.Text type="secondary" data-testid="inbox-unread-count" data-count={unreadCount}>
                  {t("chatManage.list.unread", { count: unreadCount })}
                </Typography.Text>
              </Badge>
              <Button size="small" icon={<CheckOutlined />} disabled={unreadCount === 0} onClick={() => void readAll()} data-testid="inbox-read-all">
                {t("chatManage.list.readAll")}
              </Button>
            </div>
          </div>
          <SessionList
            sessions={sessions}
            selectedId={open?.sessionId}
            onSelect={(session) => void openSession(session)}
            checkedIds={checked}
            onCheck={(sessionId, on) =>
              setChecked((current) => {
                const next = new Set(current);
                if (on) next.add(sessionId);
                else next.delete(sessionId);
                return next;
              })
            }
            loading={listLoading}
            hasMore={cursor !== null}
            onLoadMore={() => void loadMore()}
          />
        </aside>
        <section className="pl-inbox__right pl-card" data-testid="conversation">
          {open && history ? (
            <>
              <header className="pl-inbox__conversation-head">
                <Space size={12}>
                  <Avatar src={open.headImageUrl || undefined}>{(sessionTitle(open) || "?").slice(0, 1)}</Avatar>
                  <div>
                    <Typography.Text strong data-testid="conversation-title">
                      {sessionTitle(open) || t("chatManage.roles.customer")}
                    </Typography.Text>
                    <div>
                      <Typography.Text type="secondary">{open.channelName || open.channel}</Typography.Text>
                      {open.isGroup && open.groupName && <Typography.Text type="secondary"> · {t("chatManage.conversation.group")}</Typography.Text>}
                    </div>
                  </div>
                  <ModeBadge mode={open.serviceMode} />
                  {open.handoverRequestedAt && !manual && (
                    <Tag color="red" data-testid="conversation-handover-requested">
                      {t("chatManage.mode.requested")}
                    </Tag>
                  )}
                </Space>
                {manual ? (
                  <Button icon={<RobotOutlined />} onClick={() => setConfirming("FULL_AUTO_MODE")} data-testid="conversation-hand-back">
                    {t("chatManage.mode.handBack")}
                  </Button>
                ) : (
                  <Button type="primary" icon={<UserSwitchOutlined />} onClick={() => setConfirming("MANUAL_MODE")} data-testid="conversation-take-over">
                    {t("chatManage.mode.takeOver")}
                  </Button>
                )}
              </header>
              <ConversationView
                messages={history.messages}
                customerName={open.senderName}
                customerAvatarUrl={open.headImageUrl}
                loading={history.loading}
                hasMore={history.hasMore}
                loadingOlder={history.loadingOlder}
                onLoadOlder={() => void loadOlder()}
                onRetry={(message) => void retry(message)}
              />
              <ReplyBox key={open.sessionId} onSend={reply} onUpload={(file) => chatFileEndpoints.uploadForInbox(open.sessionId, file)} takesOver={!manual} />
            </>
          ) : (
            <div className="pl-inbox__placeholder" data-testid="conversation-none">
              <Typography.Text type="secondary">{t("chatManage.conversation.choose")}</Typography.Text>
            </div>
          )}
        </section>
      </div>
      <Modal
        open={confirming !== undefined}
        title={t(confirming === "MANUAL_MODE" ? "chatManage.mode.takeOverTitle" : "chatManage.mode.handBackTitle")}
        okText={t(confirming === "MANUAL_MODE" ? "chatManage.mode.takeOver" : "chatManage.mode.handBack")}
        cancelText={t("common.cancel")}
        confirmLoading={switching}
        onOk={() => void switchMode()}
        onCancel={() => setConfirming(undefined)}
        okButtonProps={{ "data-testid": "mode-confirm-ok" }}
        cancelButtonProps={{ "data-testid": "mode-confirm-cancel" }}
        data-testid="mode-confirm"
      >
        <Typography.Paragraph data-testid="mode-confirm-text">
          {t(confirming === "MANUAL_MODE" ? "chatManage.mode.takeOverDescription" : "chatManage.mode.handBackDescription")}
        </Typography.Paragraph>
      </Modal>
      <ExportModal open={exporting} sessionIds={[...checked]} onClose={() => setExporting(false)} onExport={exportChecked} />
    </div>
  );
}
