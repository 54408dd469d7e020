import { Alert, Collapse, Descriptions, Empty, Flex, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "../../lib/format";
import type { NodeRunStatus } from "./node-card";
import { runAnswer, showValue } from "./run-values";

/** One node's state in a run, as the run detail answers it. */
export interface NodeRunView {
  nodeId: string;
  nodeType: string;
  nodeName: string;
  status: NodeRunStatus;
  inputs?: unknown;
  outputs?: unknown;
  branch?: string | null;
  error?: string | null;
  startedAt?: string | null;
  durationMs?: number | null;
}

/** A run as the detail shows it. */
export interface RunView {
  id: string;
  type: "FLOW" | "TIME" | "NODE";
  status: "running" | "success" | "failure";
  output?: unknown;
  error?: string | null;
  startedAt: string;
  durationMs?: number | null;
  waitingUntil?: string | null;
  nodes: NodeRunView[];
}

/** Colour of a status tag. */
export const STATUS_COLORS: Record<string, string> = { running: "processing", success: "success", failure: "error", no_execution: "default" };

/** Props of {@link RunDetail}. */
export interface RunDetailProps {
  run: RunView;
  /** Selects a node on the canvas. */
  onFocusNode?: (nodeId: string) => void;
}

/**
 * A run: its status, answer or error, then every node with its state, duration, inputs,
 * outputs and error (the nodes that ran open by default when they failed).
 */
export function RunDetail({ run, onFocusNode }: RunDetailProps) {
  const { t, i18n } = useTranslation();
  return (
    <div className="pl-wf-run" data-testid="wf-run-detail" data-status={run.status}>
      <Descriptions size="small" column={1} className="pl-wf-run__facts">
        <Descriptions.Item label={t("workflows.run.status")}>
          <Tag color={STATUS_COLORS[run.status]} data-testid="wf-run-status">
            {t(`workflows.runStatus.${run.status}`)}
          </Tag>
          <Tag>{t(`workflows.runType.${run.type}`)}</Tag>
        </Descriptions.Item>
        <Descriptions.Item label={t("workflows.run.started")}>{formatDateTime(run.startedAt, i18n.language)}</Descriptions.Item>
        {run.durationMs !== undefined && run.durationMs !== null ? (
          <Descriptions.Item label={t("workflows.run.took")}>{t("workflows.run.duration", { ms: run.durationMs })}</Descriptions.Item>
        ) : null}
        {run.waitingUntil ? (
          <Descriptions.Item label={t("workflows.run.waitingUntil")}>{formatDateTime(run.waitingUntil, i18n.language)}</Descriptions.Item>
        ) : null}
      </Descriptions>
      {run.error ? <Alert type="error" showIcon title={run.error} className="pl-wf-run__alert" data-testid="wf-run-error" /> : null}
      {run.status === "success" && run.output !== undefined && run.output !== null ? (
        <div className="pl-wf-run__output">
          <Typography.Text strong>{t("workflows.run.output")}</Typography.Text>
          <pre className="pl-wf-pre" data-testid="wf-run-output">
            {runAnswer(run.output)}
          </pre>
        </div>
      ) : null}
      <Typography.Text strong>{t("workflows.run.nodes")}</Typography.Text>
      {run.nodes.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("workflows.run.noNodes")} />
      ) : (
        <Collapse
          size="small"
          className="pl-wf-run__nodes"
          defaultActiveKey={run.nodes.filter((node) => node.status === "failure").map((node) => node.nodeId)}
          items={run.nodes.map((node) => ({
            key: node.nodeId,
            label: (
              <Flex gap={8} align="center" justify="space-between" data-testid={`wf-run-node-${node.nodeId}`} data-status={node.status}>
                <Typography.Link
                  onClick={(event) => {
                    event.stopPropagation();
                    onFocusNode?.(node.nodeId);
                  }}
                >
                  {node.nodeName || node.nodeId}
                </Typography.Link>
                <Flex gap={6} align="center">
                  {node.durationMs !== undefined && node.durationMs !== null ? (
                    <Typography.Text type="secondary">{t("workflows.run.duration", { ms: node.durationMs })}</Typography.Text>
                  ) : null}
                  <Tag color={STATUS_COLORS[node.status]} data-testid={`wf-run-node-status-${node.nodeId}`}>
                    {t(`workflows.nodeStatus.${node.status}`)}
                  </Tag>
                </Flex>
              </Flex>
            ),
            children: (
              <div className="pl-wf-run__node">
                {node.error ? <Alert type="error" showIcon title={node.error} data-testid={`wf-run-node-error-${node.nodeId}`} /> : null}
                {node.branch ? <Typography.Paragraph>{t("workflows.run.branchTaken", { branch: node.branch })}</Typography.Paragraph> : null}
                <Typography.Text type="secondary">{t("workflows.run.inputs")}</Typography.Text>
                <pre className="pl-wf-pre">{showValue(node.inputs) || "—"}</pre>
                <Typography.Text type="secondary">{t("workflows.run.outputs")}</Typography.Text>
                <pre className="pl-wf-pre" data-testid={`wf-run-node-output-${node.nodeId}`}>
                  {showValue(node.outputs) || "—"}
                </pre>
              </div>
            ),
          }))}
        />
      )}
    </div>
  );
}
