import { SpeechProviderFields, speechFieldsOf } from "../voice/speech-provider-fields";
import { DeleteOutlined, EditOutlined, PlusOutlined, ThunderboltOutlined } from "@ant-design/icons";
import type { components } from "@parley/sdk";
import { Alert, Button, Card, Flex, Form, Input, Modal, Popconfirm, Select, Space, Switch, Table, Tag, Tooltip, Typography } from "antd";
import { useEffect, useState } from "react";
import { invalidateSpace, useSpaceQuery } from "../../lib/api/query";
import { useTranslation } from "react-i18next";
import { endpoints } from "../../lib/api/endpoints";
import { feedback } from "../../lib/feedback";
import { ImageProviderFields } from "./image-provider-fields";

type Model = components["schemas"]["Model"];
type Provider = components["schemas"]["ModelProvider"];
type ProviderKind = Provider["kind"];
type TestResult = components["schemas"]["ModelProviderTestResult"];
const KINDS: readonly ProviderKind[] = ["openai", "openai-compatible", "anthropic", "gemini"];

interface ProviderFields {
  kind: ProviderKind;
  name: string;
  baseUrl?: string;
  apiKey?: string;
  models: string[];
  rerankModels: string[];
  rerankFormat: Provider["rerankFormat"];
  transcriptionModels: string[];
  imageModels: string[];
  imageFormat: Provider["imageFormat"];
  speechModels?: string[];
  speechFormat?: Provider["speechFormat"];
  speechVoices?: string[];
  enabled: boolean;
}

const NO_MODELS: Model[] = [];
const NO_PROVIDERS: Provider[] = [];

/** The model catalogue and the model providers behind it (instance owner only). */
export function ModelsSection() {
  const { t } = useTranslation();
  const modelList = useSpaceQuery({ key: ["models", "catalogue"], fetch: (signal) => endpoints.models.list({ signal }) });
  const providerList = useSpaceQuery({ key: ["models", "providers"], fetch: (signal) => endpoints.models.providers({ signal }) });
  const models: Model[] = modelList.data ?? NO_MODELS;
  const providers: Provider[] = providerList.data ?? NO_PROVIDERS;
  const loading = modelList.isFetching || providerList.isFetching;
  // A provider change changes the catalogue too (and every model picker).
  const load = () => invalidateSpace(["models"]);
  const [editing, setEditing] = useState<Provider | "new">();
  const [tests, setTests] = useState<Record<string, TestResult | "running">>({});

  const test = async (provider: Provider) => {
    setTests((current) => ({ ...current, [provider.id]: "running" }));
    const result = await endpoints.models.testProvider(provider.id);
    setTests((current) => {
      const next = { ...current };
      if (result.ok) next[provider.id] = result.data;
      else delete next[provider.id];
      return next;
    });
  };

  const remove = async (provider: Provider) => {
    const result = await endpoints.models.deleteProvider(provider.id);
    if (!result.ok) return;
    feedback.success(t("apiAccess.models.deleted", { name: provider.name }));
    void load();
  };

  return (
    <Flex vertical gap={16} data-testid="models-section">
      <Card className="pl-card-plain" title={t("apiAccess.models.catalogue")}>
        <Typography.Paragraph type="secondary">{t("apiAccess.models.catalogueIntro")}</Typography.Paragraph>
        <Table<Model>
          rowKey={(model) => `${model.providerId}:${model.id}`}
          loading={loading}
          dataSource={models}
          pagination={false}
          size="small"
          data-testid="model-table"
          columns={[
            {
              key: "id",
              title: t("apiAccess.models.model"),
              render: (_value, model) => (
                <Space wrap>
                  <Typography.Text strong>{model.label}</Typography.Text>
                  <Typography.Text code>{model.id}</Typography.Text>
                  {model.offline ? (
                    <Tag color="orange" data-testid="model-offline">
                      {t("apiAccess.models.offline")}
                    </Tag>
                  ) : null}
                  {model.default ? <Tag color="blue">{t("apiAccess.models.default")}</Tag> : null}
                </Space>
              ),
            },
            {
              key: "provider",
              title: t("apiAccess.models.provider"),
              render: (_value, model) => (model.offline ? t("apiAccess.models.offlineProvider") : t(`apiAccess.models.kinds.${model.providerKind}`)),
            },
            { key: "context", title: t("apiAccess.models.context"), dataIndex: "contextWindow", render: (value: number) => value.toLocaleString() },
            {
              key: "tools",
              title: t("apiAccess.models.tools"),
              dataIndex: "supportsTools",
              render: (value: boolean) => (value ? t("apiAccess.models.yes") : t("apiAccess.models.no")),
            },
          ]}
        />
        {models.length > 0 && models.every((model) => model.offline) ? (
          <Alert type="info" showIcon title={t("apiAccess.models.offlineOnly")} style={{ marginTop: 12 }} />
        ) : null}
      </Card>
      <Card
        className="pl-card-plain"
        title={t("apiAccess.models.providers")}
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing("new")} data-testid="provider-create">
            {t("apiAccess.models.addProvider")}
          </Button>
        }
      >
        <Typography.Paragraph type="secondary">{t("apiAccess.models.providersIntro")}</Typography.Paragraph>
        <Table<Provider>
          rowKey="id"
          loading={loading}
          dataSource={providers}
          pagination={false}
          data-testid="provider-table"
          scroll={{ x: "max-content" }}
          locale={{ emptyText: t("apiAccess.models.noProviders") }}
          columns={[
            {
              key: "name",
              title: t("apiAccess.models.name"),
              render: (_value, provider) => (
                <Space wrap>
                  <Typography.Text strong>{provider.name}</Typography.Text>
                  <Tag>{t(`apiAccess.models.kinds.${provider.kind}`)}</Tag>
                  {provider.source === "config" ? (
                    <Tooltip title={t("apiAccess.models.configHint")}>
                      <Tag color="purple">{t("apiAccess.models.fromConfig")}</Tag>
                    </Tooltip>
                  ) : null}
                  {!provider.enabled ? <Tag>{t("apiAccess.models.disabled")}</Tag> : null}
                </Space>
              ),
            },
            {
              key: "baseUrl",
              title: t("apiAccess.models.baseUrl"),
              render: (_value, provider) => provider.baseUrl ?? <Typography.Text type="secondary">{t("apiAccess.models.vendorDefault")}</Typography.Text>,
            },
            {
              key: "apiKey",
              title: t("apiAccess.models.apiKey"),
              render: (_value, provider) =>
                provider.hasApiKey ? (
                  <Typography.Text code>{provider.apiKeyHint ?? "••••"}</Typography.Text>
                ) : (
                  <Typography.Text type="secondary">{t("apiAccess.models.noKey")}</Typography.Text>
                ),
            },
            {
              key: "models",
              title: t("apiAccess.models.models"),
              render: (_value, provider) => [
                ...provider.models.map((id) => <Tag key={id}>{id}</Tag>),
                ...provider.speechModels.map((id) => (
                  <Tag key={`voice-${id}`} color="volcano">
                    {t("voice.providerTag", { id })}
                  </Tag>
                )),
                ...provider.rerankModels.map((id) => (
                  <Tag key={`rerank-${id}`} color="geekblue">
                    {t("rerank.tag", { id })}
                  </Tag>
                )),
                ...provider.transcriptionModels.map((id) => (
                  <Tag key={`transcription-${id}`} color="purple">
                    {t("speech.tag", { id })}
                  </Tag>
                )),
                ...provider.imageModels.map((id) => (
                  <Tag key={`image-${id}`} color="magenta">
                    {t("paint.provider.tag", { id })}
                  </Tag>
                )),
              ],
            },
            {
              key: "test",
              title: t("apiAccess.models.test"),
              render: (_value, provider) => {
                const outcome = tests[provider.id];
                return (
                  <Space direction="vertical" size={2}>
                    <Button
                      size="small"
                      icon={<ThunderboltOutlined />}
                      loading={outcome === "running"}
                      onClick={() => void test(provider)}
                      data-testid={`provider-test-${provider.id}`}
                    >
                      {t("apiAccess.models.test")}
                    </Button>
                    {outcome && outcome !== "running" ? (
                      outcome.ok ? (
                        <Typography.Text type="success" data-testid={`provider-test-result-${provider.id}`}>
                          {t("apiAccess.models.testOk", { ms: outcome.latencyMs, model: outcome.model })}
                        </Typography.Text>
                      ) : (
                        <Typography.Text type="danger" data-testid={`provider-test-result-${provider.id}`}>
                          {t("apiAccess.models.testFailed", { message: outcome.error?.message ?? "", ms: outcome.latencyMs })}
                        </Typography.Text>
                      )
                    ) : null}
                  </Space>
                );
              },
            },
            {
              key: "actions",
              title: t("apiKeys.columns.actions"),
              align: "right",
              render: (_value, provider) =>
                provider.source === "config" ? (
                  <Typography.Text type="secondary">{t("apiAccess.models.readOnly")}</Typography.Text>
                ) : (
                  <Space>
                    <Button type="text" icon={<EditOutlined />} onClick={() => setEditing(provider)} data-testid={`provider-edit-${provider.id}`}>
                      {t("plugins.edit")}
                    </Button>
                    <Popconfirm
                      title={t("apiAccess.models.deleteTitle")}
                      description={t("apiAccess.models.deleteDescription", { name: provider.name })}
                      okText={t("common.delete")}
                      cancelText={t("common.cancel")}
                      okButtonProps={{ danger: true }}
                      onConfirm={() => remove(provider)}
                    >
                      <Button type="text" danger icon={<DeleteOutlined />} data-testid={`provider-delete-${provider.id}`}>
                        {t("common.delete")}
                      </Button>
                    </Popconfirm>
                  </Space>
                ),
            },
          ]}
        />
      </Card>
      <ProviderModal
        editing={editing}
        onClose={() => setEditing(undefined)}
        onSaved={() => {
          setEditing(undefined);
          void load();
        }}
      />
    </Flex>
  );
}

/** Adds or edits a console provider. The API key is write-only: empty keeps it, a value sets or replaces it. */
function ProviderModal({ editing, onClose, onSaved }: { editing: Provider | "new" | undefined; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ProviderFields>();
  const [saving, setSaving] = useState(false);
  const [removeKey, setRemoveKey] = useState(false);
  const existing = editing && editing !== "new" ? editing : undefined;
  const kind = Form.useWatch("kind", form);

  useEffect(() => {
    if (!editing) return;
    setRemoveKey(false);
    form.setFieldsValue(
      existing
        ? {
            kind: existing.kind,
            name: existing.name,
            baseUrl: existing.baseUrl ?? "",
            apiKey: "",
            models: existing.models,
            rerankModels: existing.rerankModels,
            rerankFormat: existing.rerankFormat,
            transcriptionModels: existing.transcriptionModels,
            imageModels: existing.imageModels,
            imageFormat: existing.imageFormat,
            speechModels: existing.speechModels,
            speechFormat: existing.speechFormat,
            speechVoices: existing.speechVoices,
            enabled: existing.enabled,
          }
        : {
            kind: "openai-compatible",
            name: "",
            baseUrl: "",
            apiKey: "",
            models: [],
            rerankModels: [],
            rerankFormat: "cohere",
            transcriptionModels: [],
            imageModels: [],
            imageFormat: "openai",
            speechModels: [],
            speechFormat: "openai",
            speechVoices: [],
            enabled: true,
          },
    );
  }, [editing, existing, form]);

  const submit = async (fields: ProviderFields) => {
    setSaving(true);
    try {
      const baseUrl = fields.baseUrl?.trim() ?? "";
      const apiKey = fields.apiKey?.trim() ?? "";
      const models = (fields.models ?? []).map((model) => model.trim()).filter(Boolean);
      const rerankModels = (fields.rerankModels ?? []).map((model) => model.trim()).filter(Boolean);
      const transcriptionModels = (fields.transcriptionModels ?? []).map((model) => model.trim()).filter(Boolean);
      const imageModels = (fields.imageModels ?? []).map((model) => model.trim()).filter(Boolean);
      const speech = speechFieldsOf(fields);
      const result = existing
        ? await endpoints.models.updateProvider(existing.id, {
            name: fields.name.trim(),
            baseUrl: baseUrl || null,
            ...(removeKey ? { apiKey: null } : apiKey ? { apiKey } : {}),
            models,
            rerankModels,
            rerankFormat: fields.rerankFormat,
            transcriptionModels,
            imageModels,
            imageFormat: fields.imageFormat,
            ...speech,
            enabled: fields.enabled,
          })
        : await endpoints.models.createProvider({
            kind: fields.kind,
            name: fields.name.trim(),
            ...(baseUrl ? { baseUrl } : {}),
            ...(apiKey ? { apiKey } : {}),
            models,
            rerankModels,
            rerankFormat: fields.rerankFormat,
            transcriptionModels,
            imageModels,
            imageFormat: fields.imageFormat,
            ...speech,
            enabled: fields.enabled,
          });
      if (!result.ok) {
        if (result.error.field) form.setFields([{ name: result.error.field as keyof ProviderFields, errors: [result.error.message] }]);
        return;
      }
      feedback.success(t("apiAccess.models.saved", { name: result.data.name }));
      onSaved();
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={editing !== undefined}
      title={existing ? t("apiAccess.models.editTitle", { name: existing.name }) : t("apiAccess.models.addProvider")}
      okText={t("common.save")}
      cancelText={t("common.cancel")}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      okButtonProps={{ "data-testid": "provider-submit" } as Record<string, string>}
      forceRender
    >
      <Form form={form} layout="vertical" onFinish={(fields) => void submit(fields)}>
        <Form.Item name="kind" label={t("apiAccess.models.kind")} rules={[{ required: true }]}>
          <Select
            disabled={existing !== undefined}
            options={KINDS.map((value) => ({ value, label: t(`apiAccess.models.kinds.${value}`) }))}
            data-testid="provider-kind"
          />
        </Form.Item>
        <Form.Item name="name" label={t("apiAccess.models.name")} rules={[{ required: true, whitespace: true, message: t("apiAccess.models.nameRequired") }]}>
          <Input placeholder="DeepSeek" data-testid="provider-name" />
        </Form.Item>
        <Form.Item
          name="baseUrl"
          label={t("apiAccess.models.baseUrl")}
          extra={t("apiAccess.models.baseUrlHint")}
          rules={[
            { required: kind === "openai-compatible", message: t("apiAccess.models.baseUrlRequired") },
            { pattern: /^https?:\/\/\S+$/, message: t("plugins.fields.urlInvalid") },
          ]}
        >
          <Input placeholder="https://api.deepseek.com/v1" data-testid="provider-base-url" />
        </Form.Item>
        <Form.Item
          name="apiKey"
          label={existing?.hasApiKey ? t("apiAccess.models.replaceKey") : t("apiAccess.models.setKey")}
          extra={existing?.hasApiKey ? t("apiAccess.models.keyKept", { hint: existing.apiKeyHint ?? "••••" }) : t("apiAccess.models.keyWriteOnly")}
        >
          <Input.Password
            autoComplete="new-password"
            disabled={removeKey}
            placeholder={existing?.hasApiKey ? (existing.apiKeyHint ?? "") : "sk-…"}
            data-testid="provider-api-key"
          />
        </Form.Item>
        {existing?.hasApiKey ? (
          <Form.Item>
            <Space>
              <Switch size="small" checked={removeKey} onChange={setRemoveKey} data-testid="provider-remove-key" />
              <Typography.Text>{t("apiAccess.models.removeKey")}</Typography.Text>
            </Space>
          </Form.Item>
        ) : null}
        <Form.Item
          name="models"
          label={t("apiAccess.models.models")}
          extra={t("apiAccess.models.modelsHint")}
          dependencies={["rerankModels", "transcriptionModels", "imageModels", "speechModels"]}
          rules={[
            ({ getFieldValue }) => ({
              validator: (_rule, value: string[] | undefined) =>
                (value?.length ?? 0) > 0 ||
                ((getFieldValue("rerankModels") as string[] | undefined)?.length ?? 0) > 0 ||
                ((getFieldValue("transcriptionModels") as string[] | undefined)?.length ?? 0) > 0 ||
                ((getFieldValue("imageModels") as string[] | undefined)?.length ?? 0) > 0 ||
                ((getFieldValue("speechModels") as string[] | undefined)?.length ?? 0) > 0
                  ? Promise.resolve()
                  : Promise.reject(new Error(t("apiAccess.models.modelsRequired"))),
            }),
          ]}
        >
          <Select mode="tags" tokenSeparators={[",", " "]} open={false} placeholder="deepseek-chat" data-testid="provider-models" />
        </Form.Item>
        <Form.Item name="rerankModels" label={t("rerank.providerModels")} extra={t("rerank.providerModelsHint")}>
          <Select mode="tags" tokenSeparators={[",", " "]} open={false} placeholder="bge-reranker-v2-m3" data-testid="provider-rerank-models" />
        </Form.Item>
        <Form.Item name="rerankFormat" label={t("rerank.format")} extra={t("rerank.formatHint")}>
          <Select
            options={(["cohere", "tei"] as const).map((value) => ({ value, label: t(`rerank.formats.${value}`) }))}
            data-testid="provider-rerank-format"
          />
        </Form.Item>
        <Form.Item name="transcriptionModels" label={t("speech.providerModels")} extra={t("speech.providerModelsHint")}>
          <Select mode="tags" tokenSeparators={[",", " "]} open={false} placeholder="whisper-1" data-testid="provider-transcription-models" />
        </Form.Item>
        <ImageProviderFields />
        <SpeechProviderFields />
        <Form.Item name="enabled" label={t("apiAccess.models.enabled")} valuePropName="checked">
          <Switch data-testid="provider-enabled" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
