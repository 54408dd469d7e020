import { BellOutlined, CalendarOutlined, ReadOutlined } from "@ant-design/icons";
import { Badge, Button, Popover, Tooltip } from "antd";
import { useTranslation } from "react-i18next";
import { PATHS } from "../../lib/paths";
import { EmptyState } from "../../components/empty-state";

/** The announcement centre's bell: announcements land in a later issue, so it says so. */
export function NotificationsButton() {
  const { t } = useTranslation();
  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      title={t("nav.notifications")}
      content={
        <div className="pl-popover-body">
          <EmptyState compact title={t("notifications.emptyTitle")} description={t("notifications.emptyDescription")} data-testid="notifications-empty" />
        </div>
      }
    >
      <Tooltip title={t("nav.notifications")}>
        <Badge dot={false}>
          <Button type="text" icon={<BellOutlined />} aria-label={t("nav.notifications")} data-testid="notifications" />
        </Badge>
      </Tooltip>
    </Popover>
  );
}

/** Daily check-in (random credits once a day); the credits ledger lands later, so it explains. */
export function CheckInButton({ iconOnly = false }: { iconOnly?: boolean }) {
  const { t } = useTranslation();
  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      title={t("checkIn.title")}
      content={
        <div className="pl-popover-body">
          <EmptyState compact title={t("checkIn.comingTitle")} description={t("checkIn.comingDescription")} data-testid="check-in-empty" />
        </div>
      }
    >
      <Button type="text" icon={<CalendarOutlined />} data-testid="check-in" aria-label={t("nav.checkIn")}>
        {iconOnly ? null : t("nav.checkIn")}
      </Button>
    </Popover>
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
