import { InfoCircleOutlined } from "@ant-design/icons";
import { Progress, Tag, Tooltip } from "antd";
import { useTranslation } from "react-i18next";
import "./knowledge.css";

/** A knowledge file's import state (spec §3: effective, failed, processing; pending until confirmed). */
export type FileStatus = "pending" | "processing" | "effective" | "failed";

/** Props of {@link FileStatusTag}. */
export interface FileStatusTagProps {
  status: FileStatus;
  /** 0–100; shown as a bar while processing. */
  progress?: number;
  /** Why it failed, in the interface language; shown on hover. */
  failureReason?: string | null;
  "data-testid"?: string;
}

const COLORS: Record<FileStatus, string> = { pending: "default", processing: "processing", effective: "success", failed: "error" };

/**
 * A file's status as a coloured tag: a progress bar beside it while processing, and the
 * failure reason in a tooltip when it failed.
 */
export function FileStatusTag({ status, progress = 0, failureReason, "data-testid": testId }: FileStatusTagProps) {
  const { t } = useTranslation();
  const label = t(`knowledge.status.${status}`);
  const tag = (
    <Tag color={COLORS[status]} className="pl-kb-status__tag" data-status={status}>
      {label}
      {status === "failed" && failureReason ? <InfoCircleOutlined className="pl-kb-status__info" /> : null}
    </Tag>
  );
  return (
    <span className="pl-kb-status" data-testid={testId} data-status={status}>
      {status === "failed" && failureReason ? (
        <Tooltip title={failureReason}>
          <span data-testid={testId ? `${testId}-reason` : undefined} aria-label={failureReason}>
            {tag}
          </span>
        </Tooltip>
      ) : (
        tag
      )}
      {status === "processing" ? (
        <Progress
          className="pl-kb-status__progress"
          percent={Math.max(0, Math.min(100, Math.round(progress)))}
          size="small"
          status="active"
          aria-label={t("knowledge.status.progress", { percent: Math.round(progress) })}
        />
      ) : null}
    </span>
  );
}
