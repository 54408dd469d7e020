import { ApiOutlined, CheckCircleOutlined } from "@ant-design/icons";
import { Alert, Button, Card, Divider, Form, Input, Radio, Select, Skeleton, Space, Switch, Typography } from "antd";
import { useCallback, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { invalidateSpace, setSpaceData, useSpaceQuery } from "../../lib/api/query";
import { feedback } from "../../lib/feedback";
import { PATHS } from "../../lib/paths";
import { EmptyState } from "../../components/empty-state";
import { PageHeader } from "../../components/page-header";
import { checkRule, validValues } from "../knowledge/form-helpers";
import { ChannelConfigFields, defaultSecretAction } from "./channel-config-fields";
import { CHANNEL_CLIENTS, channelEndpoints, type ChannelClient, type ChannelDescriptor } from "../../lib/api/channel-clients";
import { configBody, configFieldOf, initialConfig, localized, type SecretAction } from "./channel-rules";
import { ChannelStatus } from "./channel-status";
import { checkName, CLIENT_LIMITS } from "./client-rules";
import { useAppChoices } from "./use-app-choices";
import { useChannelCatalogue } from "./use-channel-catalogue";
import { WechatBindingCard } from "./wechat-binding-card";
import "./clients.css";
import { handledByRequestLayer } from "../../lib/api/request";

interface ChannelValues {
  name: string;
  appId: string;
  deployType: ChannelClient["deployType"];
  offlineNotify: ChannelClient["offlineNotify"];
  enabled: boolean;
  config: Record<string, string>;
}

const TOP_FIELDS = new Set(["name", "appId", "deployType", "offlineNotify", "enabled"]);

/** The address of a channel client's configuration (`kind` to connect a new one). */
export function channelConfigPath(target: { id: string } | { kind: string }): string {
  return "id" in target ? `${PATHS.webEmbedConfig}?id=${encodeURIComponent(target.id)}` : `${PATHS.webEmbedConfig}?kind=${encodeURIComponent(target.kind)}`;
}

const detailKey = (clientId: string) => [...CHANNEL_CLIENTS, "detail", clientId];

/** Keeps a client the server answered in the cache (its page and the list). */
function setClient(next: ChannelClient): void {
  setSpaceData<ChannelClient>(detailKey(next.id), () => next);
  setSpaceData<ChannelClient[]>(CHANNEL_CLIENTS, (current) => current?.map((item) => (item.id === next.id ? next : item)));
}

function actionsOf(descriptor: ChannelDescriptor | undefined, secretsSet: readonly string[]): Record<string, SecretAction> {
  return Object.fromEntries((descriptor?.fields ?? []).filter((field) => field.secret).map((field) => [field.key, defaultSecretAction(field, secretsSet)]));
}

/**
 * /console/clients/config?kind=… (connect) or ?id=ch_… (configure): the platform's form from
 * the catalogue with the server's checks, app, name, deploy type and offline notification; once
 * saved, the webhook URL to paste into the platform and a connection check.
 */
export function ChannelClientPage() {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const id = params.get("id") ?? "";
  const catalogue = useChannelCatalogue();
  const apps = useAppChoices();
  const [form] = Form.useForm<ChannelValues>();
  const detail = useSpaceQuery({ key: detailKey(id), fetch: (signal) => channelEndpoints.get(id, { signal }), enabled: Boolean(id) });
  const client = id ? detail.data : undefined;
  const state = !id || client ? "ready" : detail.isError ? "failed" : "loading";
  const [saving, setSaving] = useState(false);
  const [checking, setChecking] = useState(false);
  const [check, setCheck] = useState<{ ok: boolean; message: string }>();
  const [actions, setActions] = useState<Record<string, SecretAction>>({});
  const kind = client?.kind ?? params.get("kind") ?? "";
  const descriptor = useMemo(() => catalogue?.find((item) => item.kind === kind), [catalogue, kind]);
  const platform = descriptor ? localized(descriptor.name, i18n.language) : kind;
  const offlineNotify = Form.useWatch("offlineNotify", form);

  const show = useCallback(
    (next: ChannelClient, platformForm: ChannelDescriptor | undefined) => {
      setClient(next);
      setActions(actionsOf(platformForm, next.secretsSet));
      form.setFieldsValue({
        name: next.name,
        appId: next.appId,
        deployType: next.deployType,
        offlineNotify: next.offlineNotify,
        enabled: next.enabled,
        config: initialConfig(platformForm?.fields ?? [], next.config),
      });
    },
    [form],
  );

  // The form needs both the client and its platform's fields.
  useEffect(() => {
    if (!catalogue) return;
    if (client) show(client, descriptor);
    else if (!id && descriptor) {
      setActions(actionsOf(descriptor, []));
      form.setFieldsValue({ deployType: "self-built", offlineNotify: "none", enabled: true, config: initialConfig(descriptor.fields) });
    }
  }, [catalogue, descriptor, client?.id, client?.updatedAt, id]);

  const save = async () => {
    const values = await validValues(form);
    if (!values || !descriptor) return;
    setSaving(true);
    try {
      const config = configBody(descriptor.fields, values.config ?? {}, actions);
      // Sending a config resets the client's last error on the server: only when something in it changed.
      const unchanged =
        client !== undefined &&
        descriptor.fields.every((field) => (field.secret ? !(field.key in config) : (config[field.key] ?? "") === (client.config[field.key] ?? "")));
      const body = {
        name: values.name.trim(),
        appId: values.appId,
        deployType: values.deployType,
        offlineNotify: values.offlineNotify,
        enabled: values.enabled,
        ...(unchanged ? {} : { config }),
      };
      const result = client ? await channelEndpoints.update(client.id, body) : await channelEndpoints.create({ ...body, kind: descriptor.kind });
      if (!result.ok) {
        if (result.error.kind !== "http") return;
        const configKey = configFieldOf(result.error.field);
        if (configKey) form.setFields([{ name: ["config", configKey], errors: [result.error.message] }]);
        else if (result.error.field && TOP_FIELDS.has(result.error.field))
          form.setFields([{ name: result.error.field as keyof ChannelValues, errors: [result.error.message] }]);
        else if (!handledByRequestLayer(result.error)) feedback.error(result.error.message);
        return;
      }
      feedback.success(client ? t("clients.config.saved") : t("clients.channelConfig.created", { name: result.data.name }));
      show(result.data, descriptor);
      setCheck(undefined);
      if (!client) {
        void invalidateSpace(CHANNEL_CLIENTS);
        setParams({ id: result.data.id }, { replace: true });
      }
    } finally {
      setSaving(false);
    }
  };

  const runCheck = async () => {
    if (!client) return;
    setChecking(true);
    try {
      const result = await channelEndpoints.check(client.id);
      if (result.ok) {
        setClient(result.data);
        setCheck({ ok: true, message: t("clients.channelConfig.checkOk") });
      } else if (result.error.kind !== "aborted") {
        setCheck({ ok: false, message: result.error.message });
        const configKey = configFieldOf(result.error.field);
        if (configKey) form.setFields([{ name: ["config", configKey], errors: [result.error.message] }]);
        const fresh = await channelEndpoints.get(client.id, { silent: true });
        if (fresh.ok) setClient(fresh.data);
      }
    } finally {
      setChecking(false);
    }
  };

  const title = client ? t("clients.channelConfig.titleEdit", { platform }) : t("clients.channelConfig.titleNew", { platform });
  const header = (
    <PageHeader
      title={<span data-testid="channel-config-title">{title}</span>}
      subtitle={client?.name ?? t("clients.channelConfig.subtitle")}
      breadcrumb={[
        { label: t("clients.list.title"), to: PATHS.clients },
        { label: t("clients.channels.title"), to: PATHS.clientConfig },
        { label: platform || "…" },
      ]}
    />
  );

  if ((id && state === "loading") || !catalogue)
    return (
      <div data-testid="channel-config-page">
        {header}
        <div className="pl-card">
          <Skeleton active />
        </div>
      </div>
    );
  if (state === "failed" || !descriptor) {
    return (
      <div data-testid="channel-config-page">
        {header}
        <div className="pl-card">
          <EmptyState
            title={state === "failed" ? t("clients.config.loadFailedTitle") : t("clients.channelConfig.unknownKind")}
            description={state === "failed" ? t("clients.config.loadFailedDescription") : t("clients.channelConfig.unknownKindDescription")}
            action={state === "failed" ? <Button onClick={() => void detail.refetch()}>{t("common.retry")}</Button> : undefined}
            data-testid="channel-config-failed"
          />
        </div>
      </div>
    );
  }

  return (
    <div data-testid="channel-config-page">
      {header}
      <div className="pl-client-config">
        <Card title={t("clients.config.settings")}>
          <Form form={form} layout="vertical" onFinish={() => void save()} data-testid="channel-config-form">
            {client && (
              <Form.Item name="enabled" label={t("clients.fields.enabled")} valuePropName="checked">
                <Switch data-testid="channel-config-enabled" />
              </Form.Item>
            )}
            <Form.Item name="name" label={t("clients.fields.name")} required rules={[checkRule(checkName, { max: CLIENT_LIMITS.nameMax })]}>
              <Input maxLength={CLIENT_LIMITS.nameMax} data-testid="channel-config-name" />
            </Form.Item>
            <Form.Item name="appId" label={t("clients.fields.app")} rules={[{ required: true, message: t("clients.rules.appRequired") }]}>
              <Select
                showSearch
                optionFilterProp="label"
                placeholder={t("clients.fields.appPlaceholder")}
                options={apps.length || !client ? apps.map((app) => ({ value: app.id, label: app.name })) : [{ value: client.appId, label: client.appId }]}
                data-testid="channel-config-app"
              />
            </Form.Item>
            <Form.Item name="deployType" label={t("clients.channelConfig.deployType")}>
              <Radio.Group
                optionType="button"
                options={[
                  { value: "self-built", label: t("clients.channelConfig.deploySelfBuilt") },
                  { value: "hosting", label: t("clients.channelConfig.deployHosting") },
                ]}
                data-testid="channel-config-deploy"
              />
            </Form.Item>
            <Form.Item
              name="offlineNotify"
              label={t("clients.channelConfig.offlineNotify")}
              extra={offlineNotify === "wechat-official-account" ? t("clients.channelConfig.notifyWechatHelp") : t("clients.channelConfig.offlineNotifyHelp")}
            >
              <Select
                options={[
                  { value: "none", label: t("clients.channelConfig.notifyNone") },
                  { value: "sms", label: t("clients.channelConfig.notifySms") },
                  { value: "wechat-official-account", label: t("clients.channelConfig.notifyWechat") },
                ]}
                data-testid="channel-config-notify"
              />
            </Form.Item>
            <Divider titlePlacement="start">{t("clients.channelConfig.platformSettings", { platform })}</Divider>
            <ChannelConfigFields
              fields={descriptor.fields}
              secretsSet={client?.secretsSet ?? []}
              actions={actions}
              onActionChange={(key, action) => {
                setActions((current) => ({ ...current, [key]: action }));
                form.setFields([{ name: ["config", key], value: "", errors: [] }]);
              }}
            />
            <Button type="primary" htmlType="submit" loading={saving} data-testid="channel-config-save">
              {client ? t("common.save") : t("clients.channelConfig.create")}
            </Button>
          </Form>
        </Card>
        <div className="pl-client-config__side">
          <Card title={t("clients.channelConfig.connectTitle")} data-testid="channel-connect">
            {client ? (
              <Space direction="vertical" size={12} style={{ width: "100%" }}>
                <ChannelStatus
                  status={client.status}
                  lastActiveAt={client.lastActiveAt}
                  lastError={client.lastError}
                  lastErrorAt={client.lastErrorAt}
                  configured={client.configured}
                />
                <Typography.Text type="secondary">{t("clients.channelConfig.webhookHelp", { platform })}</Typography.Text>
                <Typography.Paragraph
                  className="pl-client-code"
                  copyable={{ text: client.webhookUrl, tooltips: [t("clients.config.copy"), t("common.copied")] }}
                  data-testid="channel-webhook-url"
                >
                  {client.webhookUrl}
                </Typography.Paragraph>
                <Button icon={<ApiOutlined />} loading={checking} onClick={() => void runCheck()} data-testid="channel-check">
                  {t("clients.channelConfig.check")}
                </Button>
                {check && (
                  <Alert
                    type={check.ok ? "success" : "error"}
                    showIcon
                    icon={check.ok ? <CheckCircleOutlined /> : undefined}
                    message={check.ok ? check.message : t("clients.channelConfig.checkFailed")}
                    description={check.ok ? undefined : check.message}
                    data-testid="channel-check-result"
                  />
                )}
              </Space>
            ) : (
              <Typography.Text type="secondary" data-testid="channel-connect-pending">
                {t("clients.channelConfig.saveFirst")}
              </Typography.Text>
            )}
          </Card>
          {kind === "wechat-official-account" &&
            (client ? (
              <WechatBindingCard clientId={client.id} />
            ) : (
              <Card title={t("clients.channelConfig.bindTitle")}>
                <Typography.Text type="secondary">{t("clients.channelConfig.bindSaveFirst")}</Typography.Text>
              </Card>
            ))}
        </div>
      </div>
    </div>
  );
}
