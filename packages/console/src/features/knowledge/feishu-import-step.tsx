import { CloudDownloadOutlined, EditOutlined, LinkOutlined, SafetyCertificateOutlined } from "@ant-design/icons";
import { Alert, Button, Descriptions, Flex, Form, Input, Skeleton, Tag, Typography } from "antd";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback";
import { checkRule, fileNameRule, validValues } from "./form-helpers";
import { ImportStepFooter, useLinkImport, type LinkImportValues } from "./import-step-parts";
import { knowledgeEndpoints, type FeishuAuthorization, type KnowledgeFile } from "../../lib/api/knowledge";
import { checkFeishuUrl, KNOWLEDGE_LIMITS } from "./knowledge-rules";

/** Props of {@link FeishuImportStep}. */
export interface FeishuImportStepProps {
  knowledgeBaseId: string;
  onBack: () => void;
  onImported: (file: KnowledgeFile) => void;
  onShowFiles: () => void;
}

/**
 * The Feishu import: the space's Feishu app authorization (App ID shown, the secret never),
 * saved after the server has tried it against Feishu; then a document's https address and an
 * optional name. Feishu's own refusals are shown as the server words them.
 */
export function FeishuImportStep({ knowledgeBaseId, onBack, onImported, onShowFiles }: FeishuImportStepProps) {
  const { t } = useTranslation();
  const [authorization, setAuthorization] = useState<FeishuAuthorization>();
  const [editing, setEditing] = useState(false);
  const [form] = Form.useForm<LinkImportValues>();
  const { importing, serverError, failed, submit } = useLinkImport(form, (body) => knowledgeEndpoints.importFeishu(knowledgeBaseId, body), onImported);

  const load = useCallback(async () => {
    const result = await knowledgeEndpoints.feishuAuthorization();
    if (result.ok) {
      setAuthorization(result.data);
      setEditing(!result.data.configured);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  if (!authorization) return <Skeleton active paragraph={{ rows: 4 }} />;
  const ready = authorization.configured && !editing;
  return (
    <div data-testid="import-feishu-step">
      <div className="pl-kb-subpanel">
        <Flex justify="space-between" align="center" gap={8} wrap>
          <Typography.Text strong>
            <SafetyCertificateOutlined /> {t("knowledge.feishu.authorization")}
          </Typography.Text>
          {ready ? (
            <Button size="small" icon={<EditOutlined />} onClick={() => setEditing(true)} data-testid="feishu-auth-edit">
              {t("knowledge.feishu.change")}
            </Button>
          ) : null}
        </Flex>
        {ready ? (
          <Descriptions
            size="small"
            column={1}
            className="pl-kb-descriptions"
            items={[
              {
                key: "appId",
                label: t("knowledge.feishu.appId"),
                children: (
                  <Typography.Text code data-testid="feishu-app-id">
                    {authorization.appId}
                  </Typography.Text>
                ),
              },
              {
                key: "secret",
                label: t("knowledge.feishu.appSecret"),
                children: authorization.secretSet ? (
                  <Tag color="success">{t("knowledge.feishu.secretSaved")}</Tag>
                ) : (
                  <Tag>{t("knowledge.feishu.secretMissing")}</Tag>
                ),
              },
            ]}
          />
        ) : (
          <FeishuAuthorizationForm
            current={authorization}
            onCancel={authorization.configured ? () => setEditing(false) : undefined}
            onSaved={(saved) => {
              setAuthorization(saved);
              setEditing(false);
              feedback.success(t("knowledge.feishu.saved"));
            }}
          />
        )}
      </div>
      <Form form={form} layout="vertical" className="pl-kb-upload-form pl-kb-website-form" disabled={!ready} onFinish={() => void submit()}>
        <Form.Item name="url" label={t("knowledge.feishu.url")} extra={t("knowledge.feishu.urlHint")} rules={[checkRule(checkFeishuUrl)]}>
          <Input prefix={<LinkOutlined />} placeholder="https://example.feishu.cn/docx/…" inputMode="url" data-testid="import-feishu-url" />
        </Form.Item>
        <Form.Item
          name="name"
          label={t("knowledge.import.nameLabel")}
          extra={t("knowledge.feishu.nameHint", { max: KNOWLEDGE_LIMITS.fileNameMax })}
          rules={[fileNameRule(true)]}
        >
          <Input maxLength={KNOWLEDGE_LIMITS.fileNameMax} placeholder={t("knowledge.feishu.namePlaceholder")} data-testid="import-name" />
        </Form.Item>
      </Form>
      {!ready ? <Alert type="info" showIcon className="pl-kb-alert" title={t("knowledge.feishu.authorizeFirst")} /> : null}
      <ImportStepFooter
        serverError={serverError}
        failed={failed}
        failedTitleKey="knowledge.import.websiteFailedTitle"
        onShowFiles={onShowFiles}
        onBack={onBack}
        submitIcon={<CloudDownloadOutlined />}
        submitLabel={t("knowledge.feishu.import")}
        submitting={importing}
        submitDisabled={!ready}
        onSubmit={() => void submit()}
      />
    </div>
  );
}

function FeishuAuthorizationForm({
  current,
  onCancel,
  onSaved,
}: {
  current: FeishuAuthorization;
  onCancel?: () => void;
  onSaved: (authorization: FeishuAuthorization) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ appId: string; appSecret?: string }>();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string>();

  const save = async () => {
    const values = await validValues(form);
    if (!values) return;
    setSaving(true);
    setError(undefined);
    try {
      const secret = values.appSecret?.trim();
      const result = await knowledgeEndpoints.saveFeishuAuthorization({ appId: values.appId.trim(), ...(secret ? { appSecret: secret } : {}) });
      if (result.ok) onSaved(result.data);
      else if (result.error.kind === "http") setError(result.error.message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form form={form} layout="vertical" className="pl-kb-upload-form" initialValues={{ appId: current.appId ?? "" }} data-testid="feishu-auth-form">
      <Typography.Paragraph type="secondary">{t("knowledge.feishu.authorizationHint")}</Typography.Paragraph>
      <Form.Item name="appId" label={t("knowledge.feishu.appId")} rules={[{ required: true, whitespace: true, message: t("knowledge.feishu.appIdRequired") }]}>
        <Input maxLength={200} placeholder="cli_…" autoComplete="off" data-testid="feishu-app-id-input" />
      </Form.Item>
      <Form.Item
        name="appSecret"
        label={t("knowledge.feishu.appSecret")}
        extra={current.secretSet ? t("knowledge.feishu.secretKeep") : undefined}
        rules={current.secretSet ? [] : [{ required: true, whitespace: true, message: t("knowledge.feishu.appSecretRequired") }]}
      >
        <Input.Password maxLength={500} autoComplete="new-password" data-testid="feishu-app-secret-input" />
      </Form.Item>
      {error ? <Alert type="error" showIcon className="pl-kb-alert" title={error} data-testid="feishu-auth-error" /> : null}
      <Flex gap={8}>
        <Button type="primary" loading={saving} onClick={() => void save()} data-testid="feishu-auth-save">
          {t("knowledge.feishu.save")}
        </Button>
        {onCancel ? <Button onClick={onCancel}>{t("common.cancel")}</Button> : null}
      </Flex>
    </Form>
  );
}
