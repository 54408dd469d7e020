import { ArrowLeftOutlined, ReloadOutlined } from "@ant-design/icons";
import { Button, Flex, Table, Tag } from "antd";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "../../lib/format";
import { RunDetail, STATUS_COLORS, type RunView } from "./run-detail";

/** A run in the history list. */
export interface RunSummaryView {
  id: string;
  type: "FLOW" | "TIME" | "NODE";
  status: "running" | "success" | "failure";
  nodeId?: string | null;
  startedAt: string;
  durationMs?: number | null;
}

/** Props of {@link HistoryPanel}. */
export interface HistoryPanelProps {
  runs: RunSummaryView[];
  loading: boolean;
  /** The run opened, if any. */
  detail?: RunView;
  onRefresh: () => void;
  onOpen: (runId: string) => void;
  onBack: () => void;
  onFocusNode?: (nodeId: string) => void;
}

/** Run history (type, status, time, duration), newest first; a row opens its detail with per-node states. */
export function HistoryPanel({ runs, loading, detail, onRefresh, onOpen, onBack, onFocusNode }: HistoryPanelProps) {
  const { t, i18n } = useTranslation();
  if (detail) {
    return (
      <div data-testid="wf-history-detail">
        <Button type="link" icon={<ArrowLeftOutlined />} onClick={onBack} className="pl-wf-history__back" data-testid="wf-history-back">
          {t("workflows.history.back")}
        </Button>
        <RunDetail run={detail} onFocusNode={onFocusNode} />
      </div>
    );
  }
  return (
    <div data-testid="wf-history">
      <Flex justify="flex-end" className="pl-wf-history__bar">
        <Button icon={<ReloadOutlined />} onClick={onRefresh} data-testid="wf-history-refresh">
          {t("common.refresh")}
        </Button>
      </Flex>
      <Table<RunSummaryView>
        size="small"
        rowKey="id"
        loading={loading}
        dataSource={runs}
        pagination={false}
        locale={{ emptyText: t("workflows.history.empty") }}
        onRow={(run) =>
          ({ onClick: () => onOpen(run.id), className: "pl-wf-history__row", "data-testid": `wf-history-run-${run.id}` }) as React.HTMLAttributes<HTMLElement>
        }
        columns={[
          { title: t("workflows.history.type"), key: "type", render: (_, run) => <Tag>{t(`workflows.runType.${run.type}`)}</Tag> },
          {
            title: t("workflows.history.status"),
            key: "status",
            render: (_, run) => <Tag color={STATUS_COLORS[run.status]}>{t(`workflows.runStatus.${run.status}`)}</Tag>,
          },
          { title: t("workflows.history.time"), key: "time", render: (_, run) => formatDateTime(run.startedAt, i18n.language) },
          {
            title: t("workflows.history.took"),
            key: "took",
            render: (_, run) => (run.durationMs === undefined || run.durationMs === null ? "—" : t("workflows.run.duration", { ms: run.durationMs })),
          },
        ]}
      />
    </div>
  );
}
