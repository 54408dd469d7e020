import { CheckCircleFilled, CloseCircleFilled, ExclamationCircleFilled, LoadingOutlined, MinusCircleOutlined } from "@ant-design/icons";
import { Tooltip, Typography } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { NODE_ICONS, nodeColor, nodeTypeLabelKey } from "./node-visuals";
import type { NodeType } from "./workflow-model";

/** Where a node stands in the run shown on the canvas (the server's node states). */
export type NodeRunStatus = "no_execution" | "running" | "success" | "failure";

/** One outgoing row of a branch node: a branch or intention with its own handle. */
export interface NodeCardBranch {
  id: string;
  label: string;
  isElse?: boolean;
}

/** Props of {@link NodeCard}. */
export interface NodeCardProps {
  id: string;
  type: NodeType;
  name: string;
  /** A short summary under the name (the model, the content …). */
  summary?: string;
  selected?: boolean;
  status?: NodeRunStatus;
  /** Milliseconds the node took in the shown run. */
  durationMs?: number | null;
  /** Messages of the problems found on this node (client rules or the server's). */
  issues?: string[];
  /** Branch nodes: one row (and handle) per branch or intention. */
  branches?: NodeCardBranch[];
  /** Renders the incoming handle (the canvas passes xyflow's; stories leave it out). */
  renderTargetHandle?: () => ReactNode;
  /** Renders an outgoing handle; `handleId` is the branch id or null. */
  renderSourceHandle?: (handleId: string | null) => ReactNode;
  /** Whether the node has a single unnamed outgoing handle (all but end and branch nodes). */
  hasSourceHandle?: boolean;
}

const STATUS_ICONS: Record<NodeRunStatus, ReactNode> = {
  no_execution: <MinusCircleOutlined />,
  running: <LoadingOutlined />,
  success: <CheckCircleFilled />,
  failure: <CloseCircleFilled />,
};

/**
 * A node on the workflow canvas: icon, type and name, a summary, its run state and its
 * problems; branch nodes list their branches, each with its own outgoing handle.
 */
export function NodeCard({
  id,
  type,
  name,
  summary,
  selected,
  status,
  durationMs,
  issues = [],
  branches,
  renderTargetHandle,
  renderSourceHandle,
  hasSourceHandle = true,
}: NodeCardProps) {
  const { t } = useTranslation();
  const classes = ["pl-wf-node", selected ? "pl-wf-node--selected" : "", status ? `pl-wf-node--${status}` : "", issues.length > 0 ? "pl-wf-node--invalid" : ""];
  return (
    <div
      className={classes.filter(Boolean).join(" ")}
      style={{ ["--pl-wf-accent" as string]: nodeColor(type) }}
      data-testid={`wf-node-${id}`}
      data-status={status ?? ""}
    >
      {renderTargetHandle?.()}
      <div className="pl-wf-node__head">
        <span className="pl-wf-node__icon">{NODE_ICONS[type]}</span>
        <div className="pl-wf-node__title">
          <Typography.Text type="secondary" className="pl-wf-node__type">
            {t(nodeTypeLabelKey(type))}
          </Typography.Text>
          <Typography.Text strong ellipsis={{ tooltip: name }} className="pl-wf-node__name" data-testid={`wf-node-name-${id}`}>
            {name || t(nodeTypeLabelKey(type))}
          </Typography.Text>
        </div>
        {status ? (
          <Tooltip title={t(`workflows.nodeStatus.${status}`)}>
            <span
              className={`pl-wf-node__status pl-wf-node__status--${status}`}
              data-testid={`wf-node-status-${id}`}
              aria-label={t(`workflows.nodeStatus.${status}`)}
            >
              {STATUS_ICONS[status]}
            </span>
          </Tooltip>
        ) : null}
      </div>
      {summary ? (
        <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} className="pl-wf-node__summary">
          {summary}
        </Typography.Paragraph>
      ) : null}
      {status && durationMs !== undefined && durationMs !== null ? (
        <Typography.Text type="secondary" className="pl-wf-node__duration">
          {t("workflows.run.duration", { ms: durationMs })}
        </Typography.Text>
      ) : null}
      {branches ? (
        <ul className="pl-wf-node__branches">
          {branches.map((branch) => (
            <li key={branch.id} className="pl-wf-node__branch" data-testid={`wf-node-branch-${id}-${branch.id}`}>
              <span className={branch.isElse ? "pl-wf-node__else" : undefined}>{branch.label || t("workflows.form.unnamedBranch")}</span>
              {renderSourceHandle?.(branch.id)}
            </li>
          ))}
        </ul>
      ) : null}
      {issues.length > 0 ? (
        <div className="pl-wf-node__issues" data-testid={`wf-node-issues-${id}`}>
          <ExclamationCircleFilled /> <span>{issues[0]}</span>
          {issues.length > 1 ? <span> {t("workflows.editor.moreIssues", { count: issues.length - 1 })}</span> : null}
        </div>
      ) : null}
      {!branches && hasSourceHandle ? renderSourceHandle?.(null) : null}
    </div>
  );
}
