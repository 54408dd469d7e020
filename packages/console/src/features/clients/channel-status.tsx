import { Space, Tag, Tooltip, Typography } from "antd";
import { WarningOutlined } from "@ant-design/icons";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "../../lib/format";

export interface ChannelStatusProps {
  status: "online" | "offline";
  lastActiveAt: string | null;
  lastError?: string | null;
  lastErrorAt?: string | null;
  /** Every required field is set (channel clients); a web client leaves it out. */
  configured?: boolean;
}

/** A client's status: online/offline, last active time, and the latest failure talking to the platform. */
export function ChannelStatus({ status, lastActiveAt, lastError, lastErrorAt, configured }: ChannelStatusProps) {
  const { t, i18n } = useTranslation();
  return (
    <Space direction="vertical" size={0}>
      <Space size={4}>
        <Tag color={status === "online" ? "green" : "default"} data-testid="client-status">
          {t(`clients.status.${status}`)}
        </Tag>
        {configured === false && (
          <Tag color="orange" data-testid="client-not-configured">
            {t("clients.channelList.notConfigured")}
          </Tag>
        )}
      </Space>
      <Typography.Text type="secondary">
        {lastActiveAt ? t("clients.list.lastActive", { time: formatDateTime(lastActiveAt, i18n.language) }) : t("clients.list.neverActive")}
      </Typography.Text>
      {lastError && (
        <Tooltip title={lastErrorAt ? formatDateTime(lastErrorAt, i18n.language) : undefined}>
          <Typography.Text type="danger" ellipsis style={{ maxWidth: 280 }} data-testid="client-last-error">
            <WarningOutlined /> {t("clients.channelList.lastError", { error: lastError })}
          </Typography.Text>
        </Tooltip>
      )}
    </Space>
  );
}
