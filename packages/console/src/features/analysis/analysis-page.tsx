import { DownloadOutlined } from "@ant-design/icons";
import { Button, Card, DatePicker, Dropdown, Empty, Segmented, Select, Space, Statistic, Table, Tabs, Tag, Typography } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { PageHeader } from "../../components/page-header";
import { ANALYSIS, type AnalysisFilters, type AnalysisRecord, type AnalysisTransfer, analysisEndpoints, type ExportKind } from "../../lib/api/analysis";
import { useSpaceQuery } from "../../lib/api/query";
import { feedback } from "../../lib/feedback";
import { formatDateTime } from "../../lib/format";
import { saveBlob } from "../../lib/save-blob";
import { localized } from "../clients/channel-rules";
import { useChannelCatalogue } from "../clients/use-channel-catalogue";
import "./analysis.css";

type Preset = "7" | "30" | "custom";

/** A channel's name in the user's language: the platform's own name, or ours for the web, the API and workflows. */
function useChannelName(): (channel: string | null) => string {
  const { t, i18n } = useTranslation();
  const catalogue = useChannelCatalogue();
  return (channel) => {
    if (!channel) return "";
    const platform = catalogue?.find((descriptor) => descriptor.kind === channel);
    return platform ? localized(platform.name, i18n.language) : t(`analysis.channelName.${channel}`, { defaultValue: channel });
  };
}
const PAGE_SIZE = 10;

/** The filters' time range: the last 7 or 30 days up to the end of today, or the chosen days. */
function rangeOf(preset: Preset, custom: [Dayjs, Dayjs] | null): { from: string; to: string } {
  if (preset === "custom" && custom) return { from: custom[0].startOf("day").toISOString(), to: custom[1].endOf("day").toISOString() };
  const days = preset === "7" ? 7 : 30;
  return {
    from: dayjs()
      .subtract(days - 1, "day")
      .startOf("day")
      .toISOString(),
    to: dayjs().endOf("day").toISOString(),
  };
}

/** Export buttons of one table: CSV or XLSX, downloaded under the server's file name. */
function ExportButton({ kind, filters }: { kind: ExportKind; filters: AnalysisFilters }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const run = async (format: "csv" | "xlsx") => {
    setBusy(true);
    const result = await analysisEndpoints.exportFile(kind, filters, format);
    setBusy(false);
    if (!result.ok) return;
    saveBlob(result.data.blob, result.data.fileName);
    feedback.success(t("analysis.exported"));
  };
  return (
    <Dropdown
      menu={{
        items: [
          { key: "xlsx", label: t("analysis.exportXlsx") },
          { key: "csv", label: t("analysis.exportCsv") },
        ],
        onClick: ({ key }) => void run(key as "csv" | "xlsx"),
      }}
    >
      <Button icon={<DownloadOutlined />} loading={busy} data-testid={`analysis-export-${kind}`}>
        {t("analysis.export")}
      </Button>
    </Dropdown>
  );
}

/** A paged table of records (all, or not-hit). */
function RecordsTable({ kind, filters }: { kind: "records" | "not-hit"; filters: AnalysisFilters }) {
  const { t, i18n } = useTranslation();
  const channelName = useChannelName();
  const [page, setPage] = useState(1);
  const query = useSpaceQuery({
    key: [...ANALYSIS, kind, filters, page],
    keepPreviousPage: true,
    fetch: (signal) =>
      (kind === "records" ? analysisEndpoints.records : analysisEndpoints.notHit)({ ...filters, pageNo: page, pageSize: PAGE_SIZE }, { signal }),
  });
  return (
    <Table<AnalysisRecord>
      rowKey="id"
      size="small"
      loading={query.isFetching}
      dataSource={query.data?.items ?? []}
      pagination={{ current: page, pageSize: PAGE_SIZE, total: query.data?.total ?? 0, onChange: setPage, showSizeChanger: false }}
      expandable={{
        rowExpandable: (row) => row.databaseStatements.length > 0,
        expandedRowRender: (row) => (
          <div data-testid="analysis-record-statements">
            <strong>{t("chatDatabase.statements")}</strong>
            {row.databaseStatements.map((statement) => (
              <div key={`${statement.status}:${statement.database}:${statement.sql}`} className="pl-analysis__statement">
                <span>
                  {statement.database} · {t(`chatDatabase.status.${statement.status}`, { defaultValue: statement.status })}
                  {statement.message ? ` · ${statement.message}` : ""}
                </span>
                <pre style={{ margin: 0, whiteSpace: "pre-wrap" }}>{statement.sql}</pre>
              </div>
            ))}
          </div>
        ),
      }}
      columns={[
        { title: t("analysis.col.time"), dataIndex: "createdAt", width: 170, render: (value: string) => formatDateTime(value, i18n.language) },
        { title: t("analysis.col.app"), dataIndex: "appName", width: 140, render: (value: string | null, row) => value ?? row.appId },
        { title: t("analysis.col.channel"), dataIndex: "channel", width: 100, render: channelName },
        { title: t("analysis.col.model"), dataIndex: "model", width: 150 },
        { title: t("analysis.col.question"), dataIndex: "prompt", ellipsis: true },
        { title: t("analysis.col.answer"), dataIndex: "answer", ellipsis: true },
        { title: t("analysis.col.credits"), dataIndex: "credits", width: 90, align: "right" },
      ]}
    />
  );
}

/** A paged table of conversations transferred to a person. */
function TransfersTable({ filters }: { filters: AnalysisFilters }) {
  const { t, i18n } = useTranslation();
  const channelName = useChannelName();
  const [page, setPage] = useState(1);
  const query = useSpaceQuery({
    key: [...ANALYSIS, "transfers", filters, page],
    keepPreviousPage: true,
    fetch: (signal) => analysisEndpoints.transfers({ ...filters, pageNo: page, pageSize: PAGE_SIZE }, { signal }),
  });
  return (
    <Table<AnalysisTransfer>
      rowKey="id"
      size="small"
      loading={query.isFetching}
      dataSource={query.data?.items ?? []}
      pagination={{ current: page, pageSize: PAGE_SIZE, total: query.data?.total ?? 0, onChange: setPage, showSizeChanger: false }}
      columns={[
        { title: t("analysis.col.time"), dataIndex: "createdAt", width: 170, render: (value: string) => formatDateTime(value, i18n.language) },
        { title: t("analysis.col.app"), dataIndex: "appName", width: 160, render: (value: string | null, row) => value ?? row.appId },
        { title: t("analysis.col.channel"), dataIndex: "channel", width: 110, render: channelName },
        { title: t("analysis.col.user"), dataIndex: "endUserId", ellipsis: true },
        { title: t("analysis.col.reason"), dataIndex: "reason", width: 130, render: (value: string) => t(`analysis.reason.${value}`, { defaultValue: value }) },
        { title: t("analysis.col.detail"), dataIndex: "detail", ellipsis: true },
      ]}
    />
  );
}

/**
 * /console/analysis: the data dashboard over the last 7 or 30 days or chosen days, for all apps
 * and channels or one of each: KPI cards, daily trends, records per channel, the high-frequency
 * words, and the records, not-hit and transfer tables with their exports.
 */
export function AnalysisPage() {
  const { t } = useTranslation();
  const channelName = useChannelName();
  const [preset, setPreset] = useState<Preset>("30");
  const [custom, setCustom] = useState<[Dayjs, Dayjs] | null>(null);
  const [appId, setAppId] = useState<string>();
  const [channel, setChannel] = useState<string>();
  const [tab, setTab] = useState<"records" | "not-hit" | "transfers">("records");
  // Recomputed when the choice changes, not on every render, so the cache key stays put.
  const filters = useMemo<AnalysisFilters>(() => ({ ...rangeOf(preset, custom), appId, channel }), [preset, custom, appId, channel]);

  const enums = useSpaceQuery({ key: [...ANALYSIS, "enums"], fetch: (signal) => analysisEndpoints.enums({ signal }) });
  const board = useSpaceQuery({
    key: [...ANALYSIS, "dashboard", filters],
    keepPreviousPage: true,
    fetch: (signal) => analysisEndpoints.dashboard(filters, { signal }),
  });
  const data = board.data;
  const maxWord = Math.max(1, ...(data?.words ?? []).map((word) => word.count));

  const kpis = [
    { key: "users", value: data?.totals.users },
    { key: "records", value: data?.totals.records },
    { key: "notHit", value: data?.totals.notHit },
    { key: "transfers", value: data?.totals.transfers },
    { key: "credits", value: data?.totals.credits },
  ] as const;

  return (
    <div className="pl-analysis">
      <PageHeader
        title={t("analysis.title")}
        subtitle={t("analysis.subtitle")}
        extra={
          <Space wrap>
            <Segmented<Preset>
              value={preset}
              onChange={setPreset}
              options={[
                { value: "7", label: t("analysis.last7") },
                { value: "30", label: t("analysis.last30") },
                { value: "custom", label: t("analysis.custom") },
              ]}
            />
            {preset === "custom" ? (
              <DatePicker.RangePicker
                value={custom}
                disabledDate={(day) => day.isAfter(dayjs().endOf("day"))}
                onChange={(values) => setCustom(values?.[0] && values[1] ? [values[0], values[1]] : null)}
              />
            ) : null}
            <Select
              allowClear
              style={{ minWidth: 160 }}
              placeholder={t("analysis.allApps")}
              value={appId}
              onChange={setAppId}
              options={(enums.data?.apps ?? []).map((app) => ({ value: app.id, label: app.name }))}
            />
            <Select
              allowClear
              style={{ minWidth: 140 }}
              placeholder={t("analysis.allChannels")}
              value={channel}
              onChange={setChannel}
              options={(enums.data?.channels ?? []).map((value) => ({ value, label: channelName(value) }))}
            />
          </Space>
        }
      />
      <div className="pl-analysis-kpis">
        {kpis.map((kpi) => (
          <Card key={kpi.key} size="small" loading={board.isLoading}>
            <Statistic title={t(`analysis.kpi.${kpi.key}`)} value={kpi.value ?? 0} data-testid={`analysis-kpi-${kpi.key}`} />
          </Card>
        ))}
      </div>
      <div className="pl-analysis-charts">
        <Card size="small" title={t("analysis.trend")}>
          {data && data.daily.length > 0 ? (
            <ResponsiveContainer width="100%" height={260}>
              <LineChart data={data.daily}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="day" />
                <YAxis yAxisId="left" allowDecimals={false} />
                <YAxis yAxisId="right" orientation="right" allowDecimals={false} />
                <Tooltip />
                <Legend />
                <Line yAxisId="left" type="monotone" dataKey="records" name={t("analysis.kpi.records")} stroke="#1677ff" dot={false} />
                <Line yAxisId="left" type="monotone" dataKey="activeUsers" name={t("analysis.activeUsers")} stroke="#52c41a" dot={false} />
                <Line yAxisId="right" type="monotone" dataKey="credits" name={t("analysis.kpi.credits")} stroke="#fa8c16" dot={false} />
              </LineChart>
            </ResponsiveContainer>
          ) : (
            <Empty description={t("analysis.noData")} />
          )}
        </Card>
        <Card size="small" title={t("analysis.perChannel")}>
          {data && data.byChannel.length > 0 ? (
            <ResponsiveContainer width="100%" height={260}>
              <BarChart data={data.byChannel}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="channel" tickFormatter={channelName} />
                <YAxis allowDecimals={false} />
                <Tooltip />
                <Legend />
                <Bar dataKey="records" name={t("analysis.kpi.records")} fill="#1677ff" />
                <Bar dataKey="users" name={t("analysis.kpi.users")} fill="#52c41a" />
              </BarChart>
            </ResponsiveContainer>
          ) : (
            <Empty description={t("analysis.noData")} />
          )}
        </Card>
      </div>
      <Card size="small" title={t("analysis.words")} extra={<ExportButton kind="words" filters={filters} />} className="pl-analysis-words">
        {data && data.words.length > 0 ? (
          <div className="pl-analysis-cloud" data-testid="analysis-words">
            {data.words.map((word, index) => (
              <Tag key={word.word} title={t("analysis.wordCount", { count: word.count })} style={{ fontSize: 12 + Math.round((word.count / maxWord) * 14) }}>
                <Typography.Text type="secondary">{index + 1}.</Typography.Text> {word.word} <Typography.Text type="secondary">{word.count}</Typography.Text>
              </Tag>
            ))}
          </div>
        ) : (
          <Empty description={t("analysis.noData")} />
        )}
      </Card>
      <Card size="small">
        <Tabs
          activeKey={tab}
          onChange={(key) => setTab(key as typeof tab)}
          items={[
            { key: "records", label: t("analysis.tab.records"), children: <RecordsTable kind="records" filters={filters} /> },
            { key: "not-hit", label: t("analysis.tab.notHit"), children: <RecordsTable kind="not-hit" filters={filters} /> },
            { key: "transfers", label: t("analysis.tab.transfers"), children: <TransfersTable filters={filters} /> },
          ]}
          tabBarExtraContent={<ExportButton kind={tab} filters={filters} />}
        />
      </Card>
    </div>
  );
}
