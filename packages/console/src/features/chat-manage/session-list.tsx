import { TeamOutlined, UserOutlined } from "@ant-design/icons";
import { Avatar, Badge, Button, Checkbox, Skeleton, Tag, Tooltip, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../../components/empty-state";
import type { InboxSession } from "../../lib/api/inbox";
import { ModeBadge } from "./mode-badge";
import { formatListTime, sessionTitle } from "./session-format";

export interface SessionListProps {
  sessions: readonly InboxSession[];
  selectedId?: string | undefined;
  onSelect: (session: InboxSession) => void;
  /** Sessions ticked for export. */
  checkedIds: ReadonlySet<string>;
  onCheck: (sessionId: string, checked: boolean) => void;
  loading?: boolean;
  hasMore?: boolean;
  onLoadMore?: () => void;
}

/** The inbox's sessions, latest first: avatar, name or group, preview, time, unread dot and mode. */
export function SessionList({ sessions, selectedId, onSelect, checkedIds, onCheck, loading = false, hasMore = false, onLoadMore }: SessionListProps) {
  const { t, i18n } = useTranslation();
  if (loading && sessions.length === 0)
    return (
      <div className="pl-inbox__list-pad">
        <Skeleton avatar active paragraph={{ rows: 1 }} />
        <Skeleton avatar active paragraph={{ rows: 1 }} />
      </div>
    );
  if (sessions.length === 0)
    return <EmptyState compact title={t("chatManage.list.emptyTitle")} description={t("chatManage.list.emptyDescription")} data-testid="inbox-empty" />;
  return (
    <div className="pl-inbox__sessions" role="list" data-testid="inbox-sessions">
      {sessions.map((session) => {
        const unread = session.readStatus === "UNREAD";
        const title = sessionTitle(session) || t("chatManage.roles.customer");
        return (
          <div
            key={session.sessionId}
            role="listitem"
            tabIndex={0}
            className={`pl-inbox__session${session.sessionId === selectedId ? " pl-inbox__session--active" : ""}${unread ? " pl-inbox__session--unread" : ""}`}
            onClick={() => onSelect(session)}
            onKeyDown={(event) => {
              if (event.key === "Enter" || event.key === " ") {
                event.preventDefault();
                onSelect(session);
              }
            }}
            data-testid={`inbox-session-${session.sessionId}`}
            data-read={session.readStatus}
          >
            <Checkbox
              checked={checkedIds.has(session.sessionId)}
              onClick={(event) => event.stopPropagation()}
              onChange={(event) => onCheck(session.sessionId, event.target.checked)}
              aria-label={t("chatManage.list.selectForExport")}
              data-testid="inbox-session-check"
            />
            <Badge dot={unread} offset={[-4, 4]} data-testid={unread ? "inbox-session-unread" : undefined}>
              <Avatar src={session.headImageUrl || undefined} icon={session.isGroup ? <TeamOutlined /> : <UserOutlined />} />
            </Badge>
            <div className="pl-inbox__session-main">
              <div className="pl-inbox__session-row">
                <Typography.Text strong={unread} ellipsis className="pl-inbox__session-name" data-testid="inbox-session-name">
                  {session.isGroup && <TeamOutlined style={{ marginRight: 4 }} />}
                  {title}
                </Typography.Text>
                <Typography.Text type="secondary" className="pl-inbox__session-time" data-testid="inbox-session-time">
                  {formatListTime(session.lastMessageAt, i18n.language)}
                </Typography.Text>
              </div>
              <Typography.Text type="secondary" ellipsis className="pl-inbox__session-preview" data-testid="inbox-session-preview">
                {session.msgContent}
              </Typography.Text>
              <div className="pl-inbox__session-row pl-inbox__session-tags">
                <Tooltip title={session.channel}>
                  <Tag bordered={false} className="pl-inbox__channel">
                    {session.channelName || session.channel}
                  </Tag>
                </Tooltip>
                {session.isGroup && session.senderName && session.groupName && (
                  <Typography.Text type="secondary" ellipsis>
                    {session.senderName}
                  </Typography.Text>
                )}
                <ModeBadge mode={session.serviceMode} compact />
              </div>
            </div>
          </div>
        );
      })}
      {hasMore && (
        <div className="pl-inbox__more">
          <Button type="link" loading={loading} onClick={onLoadMore} data-testid="inbox-load-more">
            {t("chatManage.list.loadMore")}
          </Button>
        </div>
      )}
    </div>
  );
}
