import { ArrowLeftOutlined } from "@ant-design/icons";
import { Badge, Button, Drawer, Flex, List, Pagination, Tabs, Typography } from "antd";
import { type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ReplyContent } from "../../components/chat/reply-content";
import { EmptyState } from "../../components/empty-state";
import { PageLoader } from "../../components/page-loader";
import { announcementEndpoints } from "../../lib/api/announcements";
import { invalidateSpace, useSpaceMutation, useSpaceQuery } from "../../lib/api/query";
import { useSession } from "../../lib/api/session";
import { formatDateTime } from "../../lib/format";
import { useRealtimeEvent } from "../../lib/realtime";

const PAGE_SIZE = 10;
/** Scheduled announcements come without an event after a server restart: the count is read again now and then. */
const STATS_REFRESH_MS = 5 * 60_000;

/**
 * The caller's unread announcements: read on sign-in and space change, again whenever the server
 * says one was published (`announcement.published` on the console socket), and every few minutes.
 */
export function useAnnouncementUnread(): number {
  const { token } = useSession();
  const stats = useSpaceQuery({
    key: ["announcements", "stats"],
    enabled: Boolean(token),
    fetch: (signal) => announcementEndpoints.stats({ signal, silent: true }),
  });
  useRealtimeEvent("announcement.published", () => void invalidateSpace(["announcements"]));
  const { refetch } = stats;
  useEffect(() => {
    if (!token) return;
    const timer = setInterval(() => void refetch(), STATS_REFRESH_MS);
    return () => clearInterval(timer);
  }, [token, refetch]);
  return stats.data?.unread ?? 0;
}

/** One announcement, rendered from Markdown; reading it marks it read. */
function AnnouncementDetail({ id, onBack }: { id: string; onBack: () => void }) {
  const { t, i18n } = useTranslation();
  const item = useSpaceQuery({
    key: ["announcement", id],
    fetch: async (signal) => {
      const answer = await announcementEndpoints.read(id, { signal });
      if (answer.ok) void invalidateSpace(["announcements"]);
      return answer;
    },
  });
  return (
    <Flex vertical gap={12} data-testid="announcement-detail">
      <div>
        <Button type="link" icon={<ArrowLeftOutlined />} onClick={onBack} style={{ paddingInline: 0 }} data-testid="announcement-back">
          {t("announcements.back")}
        </Button>
      </div>
      {item.data ? (
        <>
          <Typography.Title level={4} style={{ margin: 0 }} data-testid="announcement-detail-title">
            {item.data.title}
          </Typography.Title>
          <Typography.Text type="secondary">{formatDateTime(item.data.publishAt, i18n.language)}</Typography.Text>
          <div data-testid="announcement-detail-body">
            <ReplyContent text={item.data.body} />
          </div>
        </>
      ) : item.isError ? (
        <EmptyState compact title={t("announcements.gone")} data-testid="announcement-gone" />
      ) : (
        <PageLoader />
      )}
    </Flex>
  );
}

/** The announcements addressed to the caller, newest first, unread ones marked; "mark all read". */
function AnnouncementList({ onOpen }: { onOpen: (id: string) => void }) {
  const { t, i18n } = useTranslation();
  const [pageNo, setPageNo] = useState(1);
  const list = useSpaceQuery({
    key: ["announcements", "list", pageNo],
    keepPreviousPage: true,
    fetch: (signal) => announcementEndpoints.list(pageNo, PAGE_SIZE, { signal }),
  });
  const readAll = useSpaceMutation({ run: () => announcementEndpoints.readAll(), invalidates: [["announcements"]] });
  const items = list.data?.items ?? [];
  if (list.data && list.data.total === 0) {
    return <EmptyState compact title={t("announcements.emptyTitle")} description={t("announcements.emptyDescription")} data-testid="announcements-empty" />;
  }
  return (
    <Flex vertical gap={8} data-testid="announcement-list">
      <Flex justify="space-between" align="center">
        <Typography.Text type="secondary" data-testid="announcement-unread">
          {t("announcements.unreadCount", { count: list.data?.unread ?? 0 })}
        </Typography.Text>
        <Button
          size="small"
          disabled={!list.data?.unread}
          loading={readAll.isPending}
          onClick={() => readAll.mutate(undefined)}
          data-testid="announcement-read-all"
        >
          {t("announcements.readAll")}
        </Button>
      </Flex>
      <List
        loading={list.isFetching && !list.data}
        dataSource={items}
        renderItem={(item) => (
          <List.Item
            key={item.id}
            onClick={() => onOpen(item.id)}
            style={{ cursor: "pointer" }}
            data-testid={`announcement-${item.id}`}
            data-unread={item.readAt === null ? "true" : "false"}
          >
            <Flex vertical gap={2} style={{ minWidth: 0 }}>
              <Flex align="center" gap={8}>
                {item.readAt === null ? <Badge status="processing" aria-label={t("announcements.unread")} /> : null}
                <Typography.Text strong={item.readAt === null} ellipsis>
                  {item.title}
                </Typography.Text>
              </Flex>
              <Typography.Text type="secondary">{formatDateTime(item.publishAt, i18n.language)}</Typography.Text>
            </Flex>
          </List.Item>
        )}
      />
      {(list.data?.total ?? 0) > PAGE_SIZE ? (
        <Pagination size="small" current={pageNo} pageSize={PAGE_SIZE} total={list.data?.total ?? 0} onChange={setPageNo} showSizeChanger={false} />
      ) : null}
    </Flex>
  );
}

/** Props of {@link AnnouncementCenter}. */
export interface AnnouncementCenterProps {
  open: boolean;
  onClose: () => void;
  /** The in-app notices (balance alerts), shown in their own tab. */
  notices: ReactNode;
  noticesUnread: number;
  announcementsUnread: number;
}

/** The announcement center: a drawer with the announcements (list and one read as Markdown) and the notices. */
export function AnnouncementCenter({ open, onClose, notices, noticesUnread, announcementsUnread }: AnnouncementCenterProps) {
  const { t } = useTranslation();
  const [selected, setSelected] = useState<string>();
  const label = (text: string, count: number, testId: string) => (
    <span data-testid={testId}>
      {text} <Badge count={count} size="small" />
    </span>
  );
  return (
    <Drawer
      open={open}
      onClose={() => {
        setSelected(undefined);
        onClose();
      }}
      title={t("announcements.center")}
      size="large"
      destroyOnHidden
      data-testid="announcement-center"
    >
      <Tabs
        items={[
          {
            key: "announcements",
            label: label(t("announcements.tab"), announcementsUnread, "announcement-center-tab"),
            children: selected ? <AnnouncementDetail id={selected} onBack={() => setSelected(undefined)} /> : <AnnouncementList onOpen={setSelected} />,
          },
          { key: "notices", label: label(t("announcements.noticesTab"), noticesUnread, "notices-tab"), children: notices },
        ]}
      />
    </Drawer>
  );
}
