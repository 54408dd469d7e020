import { ReloadOutlined, WalletOutlined } from "@ant-design/icons";
import type { components } from "@parley/sdk";
import { Button, Card, Flex, Statistic, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { mapData, useSpaceQuery } from "../../lib/api/query";
import { useTranslation } from "react-i18next";
import type { ApiResult } from "../../lib/api/request";
import { endpoints } from "../../lib/api/endpoints";
import { formatDateTime } from "../../lib/format";
import { EmptyState } from "../../components/empty-state";

type CreditMovement = components["schemas"]["CreditMovement"];
type UsageRecord = components["schemas"]["UsageRecord"];

export const RECORDS_PAGE_SIZE = 20;
const NO_NAMES: Record<string, string> = {};

/**
 * One page of a newest-first list the server pages without a total: a full page means there
 * may be another. Tracks the highest page reached so the pager can offer one page beyond it.
 */
function usePagedList<T>(name: string, fetchPage: (pageNo: number, pageSize: number, signal: AbortSignal) => Promise<ApiResult<T[]>>) {
  const [pageNo, setPageNo] = useState(1);
  const [known, setKnown] = useState(0);
  const query = useSpaceQuery({
    key: ["records", name, pageNo],
    keepPreviousPage: true,
    fetch: async (signal) => {
      const result = await fetchPage(pageNo, RECORDS_PAGE_SIZE, signal);
      if (result.ok) {
        const seen = (pageNo - 1) * RECORDS_PAGE_SIZE + result.data.length;
        const more = result.data.length === RECORDS_PAGE_SIZE ? 1 : 0;
        setKnown((current) => Math.max(pageNo === 1 ? 0 : current, seen + more));
      }
      return result;
    },
  });
  const rows = query.data ?? [];

  return {
    rows,
    loading: query.isFetching,
    failed: query.isError,
    reload: () => void query.refetch(),
    pagination: {
      current: pageNo,
      pageSize: RECORDS_PAGE_SIZE,
      total: Math.max(known, rows.length),
      showSizeChanger: false,
      hideOnSinglePage: true,
      onChange: (page: number) => setPageNo(page),
    },
  };
}

const fetchLedger = (pageNo: number, pageSize: number, signal: AbortSignal) => endpoints.billing.ledger(pageNo, pageSize, { signal });
const fetchUsage = (pageNo: number, pageSize: number, signal: AbortSignal) => endpoints.billing.usage(pageNo, pageSize, { signal });

/** Credits record: the space's balance and its append-only ledger, newest first. */
export function CreditsTab() {
  const { t, i18n } = useTranslation();
  const balance = useSpaceQuery({ key: ["credits", "balance"], fetch: (signal) => endpoints.billing.balance({ signal }) }).data?.balance;
  const list = usePagedList<CreditMovement>("ledger", fetchLedger);

  return (
    <Flex vertical gap={16}>
      <Card className="pl-card-plain">
        <Statistic title={t("account.credits.balance")} value={balance ?? "—"} prefix={<WalletOutlined />} data-testid="credits-balance" />
      </Card>
      <Card
        className="pl-card-plain"
        title={t("account.credits.title")}
        extra={
          <Button icon={<ReloadOutlined />} onClick={list.reload} loading={list.loading}>
            {t("common.refresh")}
          </Button>
        }
      >
        <Table<CreditMovement>
          rowKey="id"
          loading={list.loading}
          dataSource={list.rows}
          pagination={list.pagination}
          data-testid="credits-table"
          locale={{
            emptyText: (
              <EmptyState
                compact
                title={list.failed ? t("account.records.loadFailed") : t("account.records.creditsTitle")}
                description={list.failed ? undefined : t("account.credits.emptyDescription")}
                data-testid="credits-empty"
              />
            ),
          }}
          columns={[
            {
              key: "reason",
              title: t("account.credits.reason"),
              dataIndex: "reason",
              render: (reason: CreditMovement["reason"]) => <Tag>{t(`account.credits.reasons.${reason}`)}</Tag>,
            },
            {
              key: "delta",
              title: t("account.credits.delta"),
              dataIndex: "delta",
              align: "right",
              render: (delta: number) => <Typography.Text type={delta < 0 ? "danger" : "success"}>{delta > 0 ? `+${delta}` : String(delta)}</Typography.Text>,
            },
            { key: "balanceAfter", title: t("account.credits.balanceAfter"), dataIndex: "balanceAfter", align: "right" },
            {
              key: "reference",
              title: t("account.credits.reference"),
              dataIndex: "reference",
              responsive: ["lg"],
              render: (value: string | null) => (value ? <Typography.Text code>{value}</Typography.Text> : ""),
            },
            { key: "createdAt", title: t("account.credits.time"), dataIndex: "createdAt", render: (value: string) => formatDateTime(value, i18n.language) },
          ]}
        />
      </Card>
    </Flex>
  );
}

/** Usage records: one row per answer — app, model, prompt and answer, tokens and credits. */
export function UsageTab() {
  const { t, i18n } = useTranslation();
  const list = usePagedList<UsageRecord>("usage", fetchUsage);
  const apps =
    useSpaceQuery({
      key: ["apps", "usage-names"],
      fetch: (signal) =>
        mapData(
          endpoints.apiAccessApps({ silent: true, signal }),
          (page): Record<string, string> => Object.fromEntries(page.items.map((app) => [app.id, app.name])),
        ),
    }).data ?? NO_NAMES;

  return (
    <Card
      className="pl-card-plain"
      title={t("account.usage.title")}
      extra={
        <Button icon={<ReloadOutlined />} onClick={list.reload} loading={list.loading}>
          {t("common.refresh")}
        </Button>
      }
    >
      <Table<UsageRecord>
        rowKey="id"
        loading={list.loading}
        dataSource={list.rows}
        pagination={list.pagination}
        scroll={{ x: "max-content" }}
        data-testid="usage-table"
        locale={{
          emptyText: (
            <EmptyState
              compact
              title={list.failed ? t("account.records.loadFailed") : t("account.records.usageTitle")}
              description={list.failed ? undefined : t("account.records.usageDescription")}
              data-testid="usage-empty"
            />
          ),
        }}
        columns={[
          { key: "createdAt", title: t("account.usage.time"), dataIndex: "createdAt", render: (value: string) => formatDateTime(value, i18n.language) },
          {
            key: "app",
            title: t("account.usage.app"),
            render: (_value, record) =>
              record.appId ? (
                (apps[record.appId] ?? <Typography.Text code>{record.appId}</Typography.Text>)
              ) : (
                <Typography.Text type="secondary">—</Typography.Text>
              ),
          },
          { key: "model", title: t("account.usage.model"), dataIndex: "model", render: (value: string) => <Typography.Text code>{value}</Typography.Text> },
          {
            key: "exchange",
            title: t("account.usage.exchange"),
            render: (_value, record) => (
              <div className="pl-usage-exchange">
                <Typography.Paragraph ellipsis={{ rows: 1, tooltip: record.prompt }} style={{ margin: 0, maxWidth: 360 }}>
                  <Typography.Text type="secondary">{t("account.usage.prompt")} </Typography.Text>
                  {record.prompt}
                </Typography.Paragraph>
                <Typography.Paragraph ellipsis={{ rows: 1, tooltip: record.answer }} style={{ margin: 0, maxWidth: 360 }}>
                  <Typography.Text type="secondary">{t("account.usage.answer")} </Typography.Text>
                  {record.answer}
                </Typography.Paragraph>
              </div>
            ),
          },
          {
            key: "tokens",
            title: t("account.usage.tokens"),
            align: "right",
            render: (_value, record) => (
              <Typography.Text title={t("account.usage.tokensDetail", { prompt: record.promptTokens, completion: record.completionTokens })}>
                {record.promptTokens + record.completionTokens}
              </Typography.Text>
            ),
          },
          { key: "credits", title: t("account.usage.credits"), dataIndex: "credits", align: "right" },
        ]}
      />
    </Card>
  );
}
