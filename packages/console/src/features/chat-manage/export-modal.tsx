import { Alert, Form, Input, Modal, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { checkExport, dayOf, EXPORT_LIMITS } from "./inbox-state";

export interface ExportModalProps {
  open: boolean;
  sessionIds: readonly string[];
  onClose: () => void;
  /** Downloads the file; answers whether it worked. */
  onExport: (range: { from: string; to: string }) => Promise<boolean>;
}

/** The last seven days, today included. */
function defaultRange(now = new Date()) {
  const from = new Date(now);
  from.setDate(from.getDate() - 6);
  return { from: dayOf(from), to: dayOf(now) };
}

/** Export of the ticked sessions over a range of days, checked like the server (≤30 sessions, ≤31 days). */
export function ExportModal({ open, sessionIds, onClose, onExport }: ExportModalProps) {
  const { t } = useTranslation();
  const [range, setRange] = useState(defaultRange);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (open) setError(undefined);
  }, [open]);

  const submit = async () => {
    const problem = checkExport(sessionIds, range.from, range.to);
    if (problem) {
      setError(t(problem, { max: EXPORT_LIMITS.maxSessions, days: EXPORT_LIMITS.maxDays }));
      return;
    }
    setBusy(true);
    try {
      if (await onExport(range)) onClose();
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t("chatManage.export.title")}
      okText={t("chatManage.export.submit")}
      cancelText={t("common.cancel")}
      confirmLoading={busy}
      onOk={() => void submit()}
      onCancel={onClose}
      okButtonProps={{ "data-testid": "export-submit" }}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary" data-testid="export-count">
        {t("chatManage.export.selected", { count: sessionIds.length, max: EXPORT_LIMITS.maxSessions })}
      </Typography.Paragraph>
      <Form layout="inline">
        <Form.Item label={t("chatManage.export.from")}>
          <Input
            type="date"
            value={range.from}
            onChange={(event) => setRange((current) => ({ ...current, from: event.target.value }))}
            data-testid="export-from"
          />
        </Form.Item>
        <Form.Item label={t("chatManage.export.to")}>
          <Input type="date" value={range.to} onChange={(event) => setRange((current) => ({ ...current, to: event.target.value }))} data-testid="export-to" />
        </Form.Item>
      </Form>
      <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
        {t("chatManage.export.help", { days: EXPORT_LIMITS.maxDays })}
      </Typography.Paragraph>
      {error && <Alert type="error" showIcon message={error} data-testid="export-error" />}
    </Modal>
  );
}
