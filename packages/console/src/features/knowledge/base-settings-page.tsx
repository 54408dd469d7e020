import { DeleteOutlined, SaveOutlined } from "@ant-design/icons";
import { Alert, Button, Descriptions, Flex, Form, Popconfirm, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { feedback } from "../../lib/feedback";
import { formatDateTime } from "../../lib/format";
import { PATHS } from "../../lib/paths";
import { validValues } from "./form-helpers";
import { KnowledgeBaseFields, knowledgeBaseBody, showKnowledgeBaseError, type KnowledgeBaseValues } from "./knowledge-base-form";
import { knowledgeEndpoints } from "../../lib/api/knowledge";
import { useKnowledgeBase } from "./knowledge-manage-layout";

/**
 * knowledgeManage/baseSetting: name, description and chunking (size 50–4000, overlap below
 * it; new settings cut files imported afterwards), the read-only embedding model, and delete.
 */
export function BaseSettingsPage() {
  const {
    t,
    i18n: { language },
  } = useTranslation();
  const navigate = useNavigate();
  const { base, setBase } = useKnowledgeBase();
  const [form] = Form.useForm<KnowledgeBaseValues>();
  const [saving, setSaving] = useState(false);
  const [dirty, setDirty] = useState(false);

  // Only a changed knowledge base resets the form: rereading the same one must not undo typing.
  const { id, updatedAt } = base;
  useEffect(() => {
    form.setFieldsValue({ name: base.name, description: base.description, chunkTokens: base.chunkTokens, chunkOverlap: base.chunkOverlap });
    setDirty(false);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed on identity and version on purpose
  }, [id, updatedAt, form]);

  const save = async () => {
    const values = await validValues(form);
    if (!values) return;
    setSaving(true);
    try {
      const result = await knowledgeEndpoints.update(base.id, knowledgeBaseBody(values));
      if (!result.ok) {
        showKnowledgeBaseError(form, result.error);
        return;
      }
      setBase(result.data);
      feedback.success(t("knowledge.settings.saved"));
    } finally {
      setSaving(false);
    }
  };

  const remove = async () => {
    const result = await knowledgeEndpoints.remove(base.id);
    if (!result.ok) return;
    feedback.success(t("knowledge.list.deleted", { name: base.name }));
    navigate(PATHS.knowledge);
  };

  return (
    <Flex vertical gap={16} className="pl-kb-settings" data-testid="knowledge-settings">
      <div className="pl-card pl-kb-panel">
        <Typography.Title level={5} className="pl-kb-panel__title">
          {t("knowledge.settings.title")}
        </Typography.Title>
        <Form<KnowledgeBaseValues> form={form} layout="vertical" onValuesChange={() => setDirty(true)} className="pl-kb-settings__form">
          <KnowledgeBaseFields />
          <Alert type="info" showIcon className="pl-kb-alert" title={t("knowledge.settings.chunkingNote")} />
          <Flex justify="flex-end">
            <Button type="primary" icon={<SaveOutlined />} loading={saving} disabled={!dirty} onClick={() => void save()} data-testid="kb-settings-save">
              {t("common.save")}
            </Button>
          </Flex>
        </Form>
      </div>
      <div className="pl-card pl-kb-panel">
        <Typography.Title level={5} className="pl-kb-panel__title">
          {t("knowledge.settings.details")}
        </Typography.Title>
        <Descriptions
          size="small"
          column={{ xs: 1, md: 2 }}
          items={[
            { key: "model", label: t("knowledge.overview.embeddingModel"), children: <Typography.Text code>{base.embeddingModel}</Typography.Text> },
            { key: "code", label: t("knowledge.settings.code"), children: <Typography.Text copyable>{base.code}</Typography.Text> },
            { key: "created", label: t("knowledge.settings.created"), children: formatDateTime(base.createdAt, language) },
            { key: "updated", label: t("knowledge.settings.updated"), children: formatDateTime(base.updatedAt, language) },
          ]}
        />
        {base.lexicalEmbedder ? <Alert type="warning" showIcon className="pl-kb-alert" title={t("knowledge.lexicalNote")} /> : null}
        <Typography.Text type="secondary">{t("knowledge.settings.modelReadOnly")}</Typography.Text>
      </div>
      <div className="pl-card pl-kb-panel pl-kb-danger">
        <Typography.Title level={5} className="pl-kb-panel__title">
          {t("knowledge.settings.dangerTitle")}
        </Typography.Title>
        <Flex justify="space-between" align="center" gap={16} wrap>
          <Typography.Text type="secondary">{t("knowledge.settings.deleteDescription")}</Typography.Text>
          <Popconfirm
            title={t("knowledge.list.deleteTitle")}
            description={t("knowledge.list.deleteDescription", { name: base.name })}
            okText={t("common.delete")}
            cancelText={t("common.cancel")}
            okButtonProps={{ danger: true, "data-testid": "kb-delete-confirm" }}
            onConfirm={remove}
          >
            <Button danger icon={<DeleteOutlined />} data-testid="kb-delete">
              {t("knowledge.settings.delete")}
            </Button>
          </Popconfirm>
        </Flex>
      </div>
    </Flex>
  );
}
