import { Alert, Button, Card, Form, Input, Popconfirm, Radio, Select, Skeleton, Space, Switch, Tag, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { setSpaceData, useSpaceQuery } from "../../lib/api/query";
import { feedback } from "../../lib/feedback";
import { formatDateTime } from "../../lib/format";
import { PATHS } from "../../lib/paths";
import { EmptyState } from "../../components/empty-state";
import { PageHeader } from "../../components/page-header";
import { checkRule, validValues } from "../knowledge/form-helpers";
import {
  checkColor,
  checkName,
  checkOrigins,
  checkSlogan,
  CLIENT_LIMITS,
  DEFAULT_COLOR,
  embedSnippet,
  fullPageLink,
  iframeSnippet,
  parseOrigins,
} from "./client-rules";
import { ChannelClientPage } from "./channel-client-page";
import { clientsEndpoints, type UpdateWebClient, type WebClient, WEB_CLIENTS } from "../../lib/api/web-clients";
import { useAppChoices } from "./use-app-choices";
import { WidgetPreview } from "./widget-preview";
import "./clients.css";
import { handledByRequestLayer } from "../../lib/api/request";

interface ConfigValues {
  name: string;
  appId: string;
  avatarUrl: string;
  welcome: string;
  slogan: string;
  position: "left" | "right";
  primaryColor: string;
  origins: string;
  manualTransfer: boolean;
  enabled: boolean;
}

const FIELD_OF: Record<string, keyof ConfigValues> = { allowedOrigins: "origins" };

function valuesOf(client: WebClient): ConfigValues {
  return {
    name: client.name,
    appId: client.appId,
    avatarUrl: client.avatarUrl,
    welcome: client.welcome,
    slogan: client.slogan,
    position: client.position,
    primaryColor: client.primaryColor || DEFAULT_COLOR,
    origins: client.allowedOrigins.join("\n"),
    manualTransfer: client.manualTransfer,
    enabled: client.enabled,
  };
}

function bodyOf(values: ConfigValues): UpdateWebClient {
  return {
    name: values.name.trim(),
    appId: values.appId,
    avatarUrl: values.avatarUrl.trim(),
    welcome: values.welcome,
    slogan: values.slogan,
    position: values.position,
    primaryColor: values.primaryColor,
    allowedOrigins: parseOrigins(values.origins),
    manualTransfer: values.manualTransfer,
    enabled: values.enabled,
  };
}

/** A block of copyable code. */
function CodeBlock({ text, testId }: { text: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <Typography.Paragraph className="pl-client-code" copyable={{ text, tooltips: [t("clients.config.copy"), t("common.copied")] }} data-testid={testId}>
      {text}
    </Typography.Paragraph>
  );
}

/**
 * /console/clients/config: a channel client (`?id=ch_…`, or `?kind=…` to connect one) or a web
 * client (`?id=…`).
 */
export function ClientConfigPage() {
  const [params] = useSearchParams();
  const id = params.get("id") ?? "";
  return params.get("kind") || id.startsWith("ch_") ? <ChannelClientPage /> : <WebClientConfigPage />;
}

/**
 * /console/clients/config?id=…: every field of a web client with the server's checks, a live
 * preview, the embed snippets and identity verification (rotate the secret, shown once).
 */
function WebClientConfigPage() {
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const id = params.get("id") ?? "";
  const apps = useAppChoices();
  const [form] = Form.useForm<ConfigValues>();
  const detailKey = [...WEB_CLIENTS, "detail", id];
  const detail = useSpaceQuery({ key: detailKey, fetch: (signal) => clientsEndpoints.get(id, { signal }), enabled: Boolean(id) });
  const client = detail.data;
  const state = !id || (detail.isError && !client) ? "failed" : client ? "ready" : "loading";
  const [saving, setSaving] = useState(false);
  const [secret, setSecret] = useState<string>();
  const watched = Form.useWatch([], form) as Partial<ConfigValues> | undefined;

  // The form starts from each answer the server gives (a load or a save).
  useEffect(() => {
    if (client) form.setFieldsValue(valuesOf(client));
  }, [client, form]);

  const save = async () => {
    const values = await validValues(form);
    if (!values) return;
    setSaving(true);
    try {
      const result = await clientsEndpoints.update(id, bodyOf(values));
      if (!result.ok) {
        if (result.error.kind !== "http") return;
        const top = result.error.field?.split(".")[0] ?? "";
        const field = FIELD_OF[top] ?? (top in valuesOf(client!) ? (top as keyof ConfigValues) : undefined);
        if (field) form.setFields([{ name: field, errors: [result.error.message] }]);
        else if (!handledByRequestLayer(result.error)) feedback.error(result.error.message);
        return;
      }
      setSpaceData<WebClient>(detailKey, () => result.data);
      setSpaceData<WebClient[]>(WEB_CLIENTS, (current) => current?.map((item) => (item.id === result.data.id ? result.data : item)));
      feedback.success(t("clients.config.saved"));
    } finally {
      setSaving(false);
    }
  };

  const rotate = async () => {
    const result = await clientsEndpoints.rotateSecret(id);
    if (result.ok) setSecret(result.data.identitySecret);
  };

  const header = (
    <PageHeader
      title={<span data-testid="client-config-title">{t("clients.config.title")}</span>}
      subtitle={client?.name}
      breadcrumb={[{ label: t("clients.list.title"), to: PATHS.clients }, { label: t("clients.config.title") }]}
    />
  );

  if (state === "loading" && !client)
    return (
      <div data-testid="client-config-page">
        {header}
        <div className="pl-card">
          <Skeleton active />
        </div>
      </div>
    );
  if (state === "failed" || !client) {
    return (
      <div data-testid="client-config-page">
        {header}
        <div className="pl-card">
          <EmptyState
            title={t("clients.config.loadFailedTitle")}
            description={t("clients.config.loadFailedDescription")}
            action={<Button onClick={() => void detail.refetch()}>{t("common.retry")}</Button>}
            data-testid="client-config-failed"
          />
        </div>
      </div>
    );
  }

  const origin = window.location.origin;
  const preview = { ...valuesOf(client), ...watched };

  return (
    <div data-testid="client-config-page">
      {header}
      <div className="pl-client-config">
        <Space direction="vertical" size={16} style={{ width: "100%" }}>
          <Card title={t("clients.config.settings")}>
            <Form form={form} layout="vertical" onFinish={() => void save()} data-testid="client-config-form">
              <Space size={8} style={{ marginBottom: 16 }}>
                <Tag color={client.status === "online" ? "green" : "default"} data-testid="client-config-status">
                  {t(`clients.status.${client.status}`)}
                </Tag>
                <Typography.Text type="secondary">
                  {client.lastActiveAt
                    ? t("clients.list.lastActive", { time: formatDateTime(client.lastActiveAt, i18n.language) })
                    : t("clients.list.neverActive")}
                </Typography.Text>
              </Space>
              <Form.Item name="enabled" label={t("clients.fields.enabled")} valuePropName="checked" extra={t("clients.fields.enabledHelp")}>
                <Switch data-testid="client-config-enabled" />
              </Form.Item>
              <Form.Item name="name" label={t("clients.fields.name")} rules={[checkRule(checkName, { max: CLIENT_LIMITS.nameMax })]}>
                <Input maxLength={CLIENT_LIMITS.nameMax} data-testid="client-config-name" />
              </Form.Item>
              <Form.Item name="appId" label={t("clients.fields.app")} rules={[{ required: true, message: t("clients.rules.appRequired") }]}>
                <Select
                  showSearch
                  optionFilterProp="label"
                  options={apps.length ? apps.map((app) => ({ value: app.id, label: app.name })) : [{ value: client.appId, label: client.appId }]}
                  data-testid="client-config-app"
                />
              </Form.Item>
              <Form.Item name="avatarUrl" label={t("clients.fields.avatarUrl")} extra={t("clients.fields.avatarUrlHelp")}>
                <Input maxLength={500} placeholder="https://" data-testid="client-config-avatar" />
              </Form.Item>
              <Form.Item name="welcome" label={t("clients.fields.welcome")}>
                <Input.TextArea maxLength={CLIENT_LIMITS.welcomeMax} showCount autoSize={{ minRows: 2, maxRows: 6 }} data-testid="client-config-welcome" />
              </Form.Item>
              <Form.Item
                name="slogan"
                label={t("clients.fields.slogan")}
                extra={t("clients.fields.sloganHelp", { max: CLIENT_LIMITS.sloganMax })}
                rules={[checkRule(checkSlogan, { max: CLIENT_LIMITS.sloganMax })]}
              >
                <Input showCount data-testid="client-config-slogan" />
              </Form.Item>
              <Form.Item name="position" label={t("clients.fields.position")}>
                <Radio.Group
                  data-testid="client-config-position"
                  options={[
                    { value: "left", label: t("clients.fields.left") },
                    { value: "right", label: t("clients.fields.right") },
                  ]}
                  optionType="button"
                />
              </Form.Item>
              <Form.Item label={t("clients.fields.primaryColor")} required>
                <Space>
                  <Form.Item name="primaryColor" noStyle rules={[checkRule(checkColor)]}>
                    <Input style={{ width: 140 }} maxLength={7} placeholder="#2563eb" data-testid="client-config-color" />
                  </Form.Item>
                  <input
                    type="color"
                    aria-label={t("clients.fields.primaryColor")}
                    value={/^#[0-9a-fA-F]{6}$/.test(preview.primaryColor ?? "") ? preview.primaryColor : DEFAULT_COLOR}
                    onChange={(event) => form.setFieldsValue({ primaryColor: event.target.value })}
                    data-testid="client-config-color-picker"
                  />
                </Space>
              </Form.Item>
              <Form.Item name="origins" label={t("clients.fields.origins")} extra={t("clients.fields.originsHelp")} rules={[checkRule(checkOrigins)]}>
                <Input.TextArea autoSize={{ minRows: 2, maxRows: 8 }} placeholder="https://shop.example.com" data-testid="client-config-origins" />
              </Form.Item>
              <Form.Item
                name="manualTransfer"
                label={t("clients.fields.manualTransfer")}
                valuePropName="checked"
                extra={t("clients.fields.manualTransferHelp")}
              >
                <Switch data-testid="client-config-transfer" />
              </Form.Item>
              <Button type="primary" htmlType="submit" loading={saving} data-testid="client-config-save">
                {t("common.save")}
              </Button>
            </Form>
          </Card>

          <Card title={t("clients.config.embedTitle")} data-testid="client-embed">
            <Typography.Paragraph type="secondary">{t("clients.config.embedHelp")}</Typography.Paragraph>
            <CodeBlock text={embedSnippet(origin, client.id)} testId="client-snippet" />
            <Typography.Paragraph type="secondary">{t("clients.config.fullPageHelp")}</Typography.Paragraph>
            <Typography.Paragraph copyable={{ text: fullPageLink(origin, client.id) }}>
              <a href={fullPageLink(origin, client.id)} target="_blank" rel="noreferrer" data-testid="client-full-page-link">
                {fullPageLink(origin, client.id)}
              </a>
            </Typography.Paragraph>
            <Typography.Paragraph type="secondary">{t("clients.config.iframeHelp")}</Typography.Paragraph>
            <CodeBlock text={iframeSnippet(origin, client.id)} testId="client-iframe-snippet" />
          </Card>

          <Card title={t("clients.config.identityTitle")} data-testid="client-identity">
            <Typography.Paragraph type="secondary">{t("clients.config.identityHelp")}</Typography.Paragraph>
            <CodeBlock
              text={
                "// server side (Node.js)\nconst hash = crypto.createHmac('sha256', IDENTITY_SECRET).update(userId).digest('hex');\n// in the page\nParley('identify', { userId, hash });"
              }
              testId="client-identity-example"
            />
            {secret && (
              <Alert
                type="warning"
                showIcon
                style={{ marginBottom: 12 }}
                message={t("clients.config.secretOnce")}
                description={
                  <Typography.Text code copyable data-testid="client-secret">
                    {secret}
                  </Typography.Text>
                }
                data-testid="client-secret-alert"
              />
            )}
            <Popconfirm
              title={t("clients.config.rotateTitle")}
              description={t("clients.config.rotateDescription")}
              okText={t("clients.config.rotate")}
              cancelText={t("common.cancel")}
              okButtonProps={{ danger: true, "data-testid": "client-rotate-confirm" }}
              onConfirm={() => rotate()}
            >
              <Button danger data-testid="client-rotate">
                {t("clients.config.rotate")}
              </Button>
            </Popconfirm>
          </Card>
        </Space>
        <div className="pl-client-config__side">
          <Card title={t("clients.config.previewTitle")} size="small">
            <WidgetPreview
              name={preview.name ?? ""}
              welcome={preview.welcome ?? ""}
              slogan={preview.slogan ?? ""}
              position={preview.position === "left" ? "left" : "right"}
              primaryColor={preview.primaryColor ?? DEFAULT_COLOR}
              avatarUrl={preview.avatarUrl?.startsWith("http") ? preview.avatarUrl : undefined}
            />
          </Card>
        </div>
      </div>
    </div>
  );
}
