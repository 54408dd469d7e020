import { InboxOutlined, ReloadOutlined } from "@ant-design/icons";
import { Button, Card, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { mapData, useSpaceQuery } from "../../lib/api/query";
import { CrudTable } from "../../components/crud-table";
import { endpoints } from "../../lib/api/endpoints";
import { formatDateTime } from "../../lib/format";
import type { OutboxMessage } from "../../lib/api/types";

/** The embedded outbox (instance owner only): codes and notices sent while no SMTP server or SMS vendor is set up. */
export function OutboxTab() {
  const { t, i18n } = useTranslation();
  const messages = useSpaceQuery({
    key: ["outbox"],
    fetch: (signal) => mapData(endpoints.outbox({ signal }), (list) => [...list].sort((a, b) => b.createdAt.localeCompare(a.createdAt))),
  });

  return (
    <Card
      className="pl-card-plain"
      title={t("account.outbox.title")}
      extra={
        <Button icon={<ReloadOutlined />} onClick={() => void messages.refetch()} loading={messages.isFetching} data-testid="outbox-refresh">
          {t("common.refresh")}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t("account.outbox.intro")}</Typography.Paragraph>
      <CrudTable<OutboxMessage>
        rowKey="id"
        query={messages}
        pageSize={20}
        data-testid="outbox-table"
        failed={{ title: t("account.outbox.loadFailedTitle"), description: t("account.outbox.loadFailedDescription") }}
        empty={{
          icon: <InboxOutlined className="pl-empty__glyph" />,
          title: t("account.outbox.emptyTitle"),
          description: t("account.outbox.emptyDescription"),
        }}
        columns={[
          {
            key: "channel",
            title: t("account.outbox.columns.channel"),
            dataIndex: "channel",
            width: 100,
            render: (channel: OutboxMessage["channel"]) => <Tag>{channel === "sms" ? t("account.outbox.sms") : t("account.outbox.email")}</Tag>,
          },
          {
            key: "to",
            title: t("account.outbox.columns.to"),
            dataIndex: "to",
            render: (to: string) => <Typography.Text style={{ whiteSpace: "nowrap" }}>{to}</Typography.Text>,
          },
          { key: "subject", title: t("account.outbox.columns.subject"), dataIndex: "subject" },
          {
            key: "text",
            title: t("account.outbox.columns.text"),
            dataIndex: "text",
            render: (text: string) => (
              <Typography.Paragraph className="pl-outbox__text" ellipsis={{ rows: 3, expandable: true }}>
                {text}
              </Typography.Paragraph>
            ),
          },
          {
            key: "createdAt",
            title: t("account.outbox.columns.time"),
            dataIndex: "createdAt",
            width: 180,
            render: (value: string) => formatDateTime(value, i18n.language),
          },
        ]}
      />
    </Card>
  );
}
