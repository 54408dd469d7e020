import { BellOutlined, CalendarOutlined, ReadOutlined, WalletOutlined } from "@ant-design/icons";
import { Badge, Button, Flex, Tag, Tooltip, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { benefitsEndpoints } from "../../lib/api/benefits";
import { endpoints } from "../../lib/api/endpoints";
import { invalidateSpace, useSpaceMutation, useSpaceQuery } from "../../lib/api/query";
import { useSession } from "../../lib/api/session";
import { feedback } from "../../lib/feedback";
import { formatDateTime } from "../../lib/format";
import { checkInButtonState } from "../benefits/benefits-rules";
import { PATHS } from "../../lib/paths";
import { EmptyState } from "../../components/empty-state";
import { AnnouncementCenter, useAnnouncementUnread } from "../announcements/announcement-center";

/**
 * The bell: the unread announcements and notices counted; it opens the announcement center
 * (announcements, then the in-app notices such as balance alerts).
 */
export function NotificationsButton() {
  const { t, i18n } = useTranslation();
  const { token } = useSession();
  const [open, setOpen] = useState(false);
  const notices = useSpaceQuery({ key: ["notices"], enabled: Boolean(token), fetch: (signal) => benefitsEndpoints.notices({ signal, silent: true }) });
  const read = useSpaceMutation({ run: (noticeId: string) => benefitsEndpoints.readNotice(noticeId, { silent: true }), invalidates: [["notices"]] });
  const announcementsUnread = useAnnouncementUnread();
  const noticesUnread = notices.data?.unread ?? 0;
  const items = notices.data?.items ?? [];
  const noticeList = (
    <div data-testid="notices">
      {items.length === 0 ? (
        <EmptyState compact title={t("notifications.emptyTitle")} description={t("notifications.emptyDescription")} data-testid="notifications-empty" />
      ) : (
        <Flex vertical gap={8}>
          {items.map((notice) => (
            <Flex key={notice.id} vertical gap={2} data-testid={`notice-${notice.id}`}>
              <Typography.Text strong={notice.readAt === null}>
                {notice.kind === "balance-alert" ? t("balanceAlert.notice", notice.params) : notice.kind}
              </Typography.Text>
              <Flex justify="space-between" align="center" gap={8}>
                <Typography.Text type="secondary">{formatDateTime(notice.createdAt, i18n.language)}</Typography.Text>
                {notice.readAt === null ? (
                  <Button size="small" type="link" onClick={() => read.mutate(notice.id)} data-testid={`notice-read-${notice.id}`}>
                    {t("balanceAlert.markRead")}
                  </Button>
                ) : null}
              </Flex>
            </Flex>
          ))}
        </Flex>
      )}
    </div>
  );
  return (
    <>
      <Tooltip title={t("nav.notifications")}>
        <Badge count={announcementsUnread + noticesUnread} size="small" data-testid="notifications-badge" data-count={announcementsUnread + noticesUnread}>
          <Button
            type="text"
            icon={<BellOutlined />}
            aria-label={t("nav.notifications")}
            onClick={() => {
              setOpen(true);
              if (token) void notices.refetch();
            }}
            data-testid="notifications"
          />
        </Badge>
      </Tooltip>
      <AnnouncementCenter
        open={open}
        onClose={() => setOpen(false)}
        notices={noticeList}
        noticesUnread={noticesUnread}
        announcementsUnread={announcementsUnread}
      />
    </>
  );
}

/**
 * Daily check-in (random credits once a day, to the personal space) and the current space's
 * balance: the button shows today's result and is disabled once used.
 */
export function CheckInButton({ iconOnly = false }: { iconOnly?: boolean }) {
  const { t } = useTranslation();
  const status = useSpaceQuery({ key: ["check-in"], fetch: (signal) => benefitsEndpoints.checkInStatus({ signal, silent: true }) });
  const balance = useSpaceQuery({ key: ["credits", "balance"], fetch: (signal) => endpoints.billing.balance({ signal, silent: true }) }).data?.balance;
  const checkIn = useSpaceMutation({
    run: () => benefitsEndpoints.checkIn(),
    invalidates: [["check-in"], ["credits"], ["records"]],
    onSuccess: (result) => feedback.success(t("checkIn.success", { credits: result.credits ?? 0 })),
    // Checked in elsewhere meanwhile: the server said so; show today's state.
    onError: () => void invalidateSpace(["check-in"]),
  });
  const state = checkInButtonState(status.data);
  const hint =
    state.credits !== null
      ? t("checkIn.todayResult", { credits: state.credits })
      : status.data
        ? t("checkIn.hint", { min: status.data.min, max: status.data.max })
        : t("checkIn.title");
  return (
    <Flex align="center" gap={4}>
      <Tooltip title={hint}>
        <Button
          type="text"
          icon={<CalendarOutlined />}
          disabled={state.disabled}
          loading={checkIn.isPending}
          onClick={() => checkIn.mutate(undefined)}
          data-testid="check-in"
          data-checked-in={status.data?.checkedIn ? "true" : "false"}
          aria-label={t(state.labelKey)}
        >
          {iconOnly ? null : state.credits !== null ? t("checkIn.doneWith", { credits: state.credits }) : t(state.labelKey)}
        </Button>
      </Tooltip>
      {balance !== undefined ? (
        <Tooltip title={t("checkIn.balance")}>
          <Tag icon={<WalletOutlined />} bordered={false} data-testid="top-balance">
            {balance}
          </Tag>
        </Tooltip>
      ) : null}
    </Flex>
  );
}

/** The API documentation, served by the API server at /docs. */
export function DocsLink({ iconOnly = false }: { iconOnly?: boolean }) {
  const { t } = useTranslation();
  return (
    <Button type="text" icon={<ReadOutlined />} href={PATHS.docs} target="_blank" rel="noopener" data-testid="docs-link" aria-label={t("nav.docs")}>
      {iconOnly ? null : t("nav.docs")}
    </Button>
  );
}
