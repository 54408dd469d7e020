import { DownloadOutlined, UploadOutlined } from "@ant-design/icons";
import { Alert, Button, Descriptions, Form, Input, Modal, Space, Switch, Tooltip, Typography, Upload } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { type PortableExportRequest, type PortableImportResult, portableEndpoints } from "../lib/api/portable";
import { feedback } from "../lib/feedback";
import { saveBlob } from "../lib/save-blob";

/** Props of {@link ExportButton}. */
export interface ExportButtonProps {
  /** What to export (ids of objects, or `space: true`). */
  request: PortableExportRequest;
  /** A text button (row action, icon only) or a toolbar button with its label. */
  compact?: boolean;
  "data-testid"?: string;
}

/**
 * Exports to a portable file and downloads it. A toolbar button asks first whether knowledge
 * contents go along (a zip); a row action exports the settings as YAML at once.
 */
export function ExportButton({ request, compact = false, "data-testid": testId }: ExportButtonProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState(false);
  const [contents, setContents] = useState(false);

  const run = async (includeContents: boolean) => {
    setBusy(true);
    try {
      const result = await portableEndpoints.exportFile({ ...request, includeContents });
      if (!result.ok) return;
      saveBlob(result.data.blob, result.data.fileName);
      feedback.success(t("portable.exported", { name: result.data.fileName }));
      setAsking(false);
    } finally {
      setBusy(false);
    }
  };

  if (compact) {
    return (
      <Tooltip title={t("portable.export")}>
        <Button
          type="text"
          size="small"
          icon={<DownloadOutlined />}
          loading={busy}
          onClick={(event) => {
            event.stopPropagation();
            void run(false);
          }}
          aria-label={t("portable.export")}
          data-testid={testId}
        />
      </Tooltip>
    );
  }
  return (
    <>
      <Button icon={<DownloadOutlined />} onClick={() => setAsking(true)} data-testid={testId}>
        {request.space ? t("portable.exportSpace") : t("portable.export")}
      </Button>
      <Modal
        open={asking}
        title={request.space ? t("portable.exportSpace") : t("portable.export")}
        okText={t("portable.download")}
        cancelText={t("common.cancel")}
        confirmLoading={busy}
        onOk={() => void run(contents)}
        onCancel={() => setAsking(false)}
        okButtonProps={{ ...({ "data-testid": "portable-export-confirm" } as Record<string, string>) }}
      >
        <Typography.Paragraph type="secondary">{t("portable.exportHint")}</Typography.Paragraph>
        <Space>
          <Switch checked={contents} onChange={setContents} data-testid="portable-export-contents" />
          {t("portable.includeContents")}
        </Space>
      </Modal>
    </>
  );
}

/** Props of {@link ImportButton}. */
export interface ImportButtonProps {
  /** Called after a successful import, to reload the lists. */
  onImported?: (result: PortableImportResult) => void;
}

/**
 * Imports a portable file: choose the file, see what the dry run says will be created and which
 * secrets it needs, fill them in, then import (all or nothing).
 */
export function ImportButton({ onImported }: ImportButtonProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [file, setFile] = useState<File>();
  const [plan, setPlan] = useState<PortableImportResult>();
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<Record<string, string>>();

  const reset = () => {
    setFile(undefined);
    setPlan(undefined);
    setProblem(undefined);
    form.resetFields();
  };
  const close = () => {
    setOpen(false);
    reset();
  };

  const check = async (chosen: File) => {
    reset();
    setFile(chosen);
    setBusy(true);
    try {
      const result = await portableEndpoints.importFile(chosen, chosen.name, { dryRun: true }, { silent: true });
      if (result.ok) setPlan(result.data);
      else setProblem(result.error.message);
    } finally {
      setBusy(false);
    }
  };

  const submit = async () => {
    if (!file || !plan) return;
    const secrets = await form.validateFields();
    setBusy(true);
    try {
      const result = await portableEndpoints.importFile(file, file.name, { secrets }, { silent: true });
      if (!result.ok) {
        setProblem(result.error.message);
        return;
      }
      const created = result.data.apps.length + result.data.workflows.length + result.data.plugins.length + result.data.knowledgeBases.length;
      feedback.success(t("portable.imported", { count: created }));
      onImported?.(result.data);
      close();
    } finally {
      setBusy(false);
    }
  };

  const names = (items: PortableImportResult["apps"]) => (items.length > 0 ? items.map((item) => item.name).join(", ") : "—");

  return (
    <>
      <Button icon={<UploadOutlined />} onClick={() => setOpen(true)} data-testid="portable-import">
        {t("portable.import")}
      </Button>
      <Modal
        open={open}
        title={t("portable.importTitle")}
        okText={t("portable.importConfirm")}
        cancelText={t("common.cancel")}
        confirmLoading={busy}
        onOk={() => void submit()}
        onCancel={close}
        okButtonProps={{ disabled: !plan, ...({ "data-testid": "portable-import-confirm" } as Record<string, string>) }}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">{t("portable.importHint")}</Typography.Paragraph>
        <Upload
          accept=".yaml,.yml,.zip"
          maxCount={1}
          showUploadList={false}
          beforeUpload={(chosen) => {
            void check(chosen);
            return false;
          }}
        >
          <Button icon={<UploadOutlined />} loading={busy && !plan} data-testid="portable-import-file">
            {file ? file.name : t("portable.chooseFile")}
          </Button>
        </Upload>
        {problem ? <Alert type="error" showIcon message={problem} style={{ marginTop: 16 }} data-testid="portable-import-problem" /> : null}
        {plan ? (
          <div style={{ marginTop: 16 }} data-testid="portable-import-plan">
            <Descriptions size="small" column={1} bordered>
              <Descriptions.Item label={t("portable.kinds.apps")}>{names(plan.apps)}</Descriptions.Item>
              <Descriptions.Item label={t("portable.kinds.workflows")}>{names(plan.workflows)}</Descriptions.Item>
              <Descriptions.Item label={t("portable.kinds.plugins")}>{names(plan.plugins)}</Descriptions.Item>
              <Descriptions.Item label={t("portable.kinds.knowledgeBases")}>{names(plan.knowledgeBases)}</Descriptions.Item>
              <Descriptions.Item label={t("portable.kinds.knowledgeFiles")}>{plan.knowledgeFiles}</Descriptions.Item>
            </Descriptions>
            {plan.fromVersion < 1 ? (
              <Alert type="info" showIcon style={{ marginTop: 12 }} message={t("portable.migrated", { version: plan.fromVersion })} />
            ) : null}
            {plan.secrets.length > 0 ? (
              <Form form={form} layout="vertical" style={{ marginTop: 16 }}>
                <Typography.Text strong>{t("portable.secretsTitle")}</Typography.Text>
                {plan.secrets.map((secret) => (
                  <Form.Item
                    key={secret.name}
                    name={secret.name}
                    label={<Typography.Text code>{secret.name}</Typography.Text>}
                    extra={secret.description}
                    rules={[{ required: true, message: t("portable.secretRequired", { name: secret.name }) }]}
                  >
                    <Input.Password autoComplete="off" data-testid={`portable-secret-${secret.name}`} />
                  </Form.Item>
                ))}
              </Form>
            ) : null}
          </div>
        ) : null}
      </Modal>
    </>
  );
}
