import { DeleteOutlined, PlusOutlined, ReloadOutlined, SettingOutlined } from "@ant-design/icons";
import { Button, Form, Input, Popconfirm, Select, Space, Switch, Table, Tag, Typography } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { feedback } from "../../lib/feedback";
import { formatDateTime } from "../../lib/format";
import { PATHS } from "../../lib/paths";
import { EmptyState } from "../../components/empty-state";
import { FormDialog } from "../../components/form-dialog";
import { setSpaceData, invalidateSpace, useSpaceQuery } from "../../lib/api/query";
import { PageHeader } from "../../components/page-header";
import { checkRule } from "../knowledge/form-helpers";
import { channelConfigPath } from "./channel-client-page";
import { CHANNEL_CLIENTS, channelEndpoints, type ChannelClient } from "../../lib/api/channel-clients";
import { localized } from "./channel-rules";
import { ChannelStatus } from "./channel-status";
import { checkName, CLIENT_LIMITS } from "./client-rules";
import { clientsEndpoints, type WebClient, WEB_CLIENTS } from "../../lib/api/web-clients";
import { useAppChoices, type AppChoice } from "./use-app-choices";
import { useChannelCatalogue } from "./use-channel-catalogue";
import "./clients.css";

/** The config page of a client. */
export const configPath = (id: string) => `${PATHS.webEmbedConfig}?id=${encodeURIComponent(id)}`;

/**
 * /console/clients: the space's web clients (name, bound app, status with last active time,
 * enabled switch, configure and delete), and create in a modal that lands on the config page;
 * below them the channel clients (platform, app, status with the last error, enabled, configure
 * and delete).
 */
export function ClientsPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const apps = useAppChoices();
  const clientsQuery = useSpaceQuery({ key: WEB_CLIENTS, fetch: (signal) => clientsEndpoints.list({ signal }) });
  const clients = useMemo(() => clientsQuery.data ?? [], [clientsQuery.data]);
  const loading = clientsQuery.isFetching;
  const loadFailed = clientsQuery.isError;
  const load = () => clientsQuery.refetch();
  const [creating, setCreating] = useState(false);
  const [toggling, setToggling] = useState<string>();

  const channelsQuery = useSpaceQuery({ key: CHANNEL_CLIENTS, fetch: (signal) => channelEndpoints.list({ silent: true, signal }) });
  const channels = useMemo(() => channelsQuery.data ?? [], [channelsQuery.data]);

  const appNames = useMemo(() => new Map(apps.map((app) => [app.id, app.name])), [apps]);

  const toggle = async (client: WebClient, enabled: boolean) => {
    setToggling(client.id);
    const result = await clientsEndpoints.update(client.id, { enabled }, { silent: false });
    setToggling(undefined);
    if (result.ok) setSpaceData<WebClient[]>(WEB_CLIENTS, (current) => current?.map((item) => (item.id === client.id ? result.data : item)));
  };

  const remove = async (client: WebClient) => {
    const result = await clientsEndpoints.remove(client.id);
    if (!result.ok) return;
    await invalidateSpace(WEB_CLIENTS);
    feedback.success(t("clients.list.deleted", { name: client.name }));
  };

  const createButton = (testId: string) => (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid={testId}>
      {t("clients.list.create")}
    </Button>
  );

  let body;
  if (loadFailed && clients.length === 0) {
    body = (
      <div className="pl-card">
        <EmptyState
          title={t("clients.list.loadFailedTitle")}
          description={t("clients.list.loadFailedDescription")}
          action={
            <Button onClick={() => void load()} data-testid="clients-retry">
              {t("common.retry")}
            </Button>
          }
          data-testid="clients-load-failed"
        />
      </div>
    );
  } else if (!loading && clients.length === 0) {
    body = (
      <div className="pl-card">
        <EmptyState
          title={t("clients.list.emptyTitle")}
          description={t("clients.list.emptyDescription")}
          action={createButton("clients-create-empty")}
          data-testid="clients-empty"
        />
      </div>
    );
  } else {
    body = (
      <div className="pl-card">
        <Table<WebClient>
          className="pl-clients-table"
          rowKey="id"
          loading={loading}
          dataSource={clients}
          pagination={false}
          data-testid="clients-list"
          onRow={(client) => ({ "data-testid": `client-row-${client.id}` }) as React.HTMLAttributes<HTMLElement>}
          columns={[
            {
              title: t("clients.list.columns.name"),
              key: "name",
              render: (_, client) => (
                <Space direction="vertical" size={0}>
                  <Typography.Link onClick={() => navigate(configPath(client.id))} data-testid="client-name">
                    {client.name}
                  </Typography.Link>
                  <Typography.Text type="secondary" copyable={{ text: client.id }} className="pl-client-id">
                    {client.id}
                  </Typography.Text>
                </Space>
              ),
            },
            { title: t("clients.list.columns.app"), key: "app", render: (_, client) => appNames.get(client.appId) ?? client.appId },
            {
              title: t("clients.list.columns.status"),
              key: "status",
              render: (_, client) => (
                <Space direction="vertical" size={0}>
                  <Tag color={client.status === "online" ? "green" : "default"} data-testid="client-status">
                    {t(`clients.status.${client.status}`)}
                  </Tag>
                  <Typography.Text type="secondary">
                    {client.lastActiveAt
                      ? t("clients.list.lastActive", { time: formatDateTime(client.lastActiveAt, i18n.language) })
                      : t("clients.list.neverActive")}
                  </Typography.Text>
                </Space>
              ),
            },
            {
              title: t("clients.list.columns.enabled"),
              key: "enabled",
              render: (_, client) => (
                <Switch
                  checked={client.enabled}
                  loading={toggling === client.id}
                  onChange={(checked) => void toggle(client, checked)}
                  aria-label={t("clients.list.columns.enabled")}
                  data-testid="client-enabled"
                />
              ),
            },
            {
              title: t("clients.list.columns.actions"),
              key: "actions",
              render: (_, client) => (
                <Space>
                  <Button type="link" icon={<SettingOutlined />} onClick={() => navigate(configPath(client.id))} data-testid="client-configure">
                    {t("clients.list.configure")}
                  </Button>
                  <Popconfirm
                    title={t("clients.list.deleteTitle")}
                    description={t("clients.list.deleteDescription", { name: client.name })}
                    okText={t("common.delete")}
                    cancelText={t("common.cancel")}
                    okButtonProps={{ danger: true, "data-testid": "client-delete-confirm" }}
                    onConfirm={() => remove(client)}
                  >
                    <Button type="link" danger icon={<DeleteOutlined />} data-testid="client-delete">
                      {t("common.delete")}
                    </Button>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      </div>
    );
  }

  return (
    <div className="pl-clients" data-testid="clients-page">
      <PageHeader
        title={<span data-testid="clients-title">{t("clients.list.title")}</span>}
        subtitle={t("clients.list.subtitle")}
        extra={
          <>
            <Button onClick={() => navigate(PATHS.clientConfig)} data-testid="clients-channels">
              {t("clients.list.channels")}
            </Button>
            <Button icon={<ReloadOutlined />} onClick={() => void Promise.all([load(), channelsQuery.refetch()])} data-testid="clients-refresh">
              {t("common.refresh")}
            </Button>
            {createButton("clients-create")}
          </>
        }
      />
      {body}
      <ChannelClientsSection channels={channels} loading={channelsQuery.isFetching} appNames={appNames} />
      <CreateClientModal
        open={creating}
        apps={apps}
        onClose={() => setCreating(false)}
        onCreated={(client) => {
          setCreating(false);
          void invalidateSpace(WEB_CLIENTS);
          feedback.success(t("clients.list.created", { name: client.name }));
          navigate(configPath(client.id));
        }}
      />
    </div>
  );
}

interface CreateValues {
  name: string;
  appId: string;
}

/** Name and app of a new web client; a refusal shows under the field the server names. */
export function CreateClientModal({
  open,
  apps,
  onClose,
  onCreated,
}: {
  open: boolean;
  apps: AppChoice[];
  onClose: () => void;
  onCreated: (client: WebClient) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<CreateValues>();
  return (
    <FormDialog<CreateValues>
      open={open}
      form={form}
      title={t("clients.create.title")}
      okText={t("clients.create.submit")}
      submitTestId="client-create-submit"
      forceRender
      destroyOnHidden={false}
      onClose={onClose}
      onSubmit={async (values) => {
        const result = await clientsEndpoints.create({ name: values.name.trim(), appId: values.appId });
        if (!result.ok) {
          if (result.error.kind === "http") form.setFields([{ name: result.error.field === "name" ? "name" : "appId", errors: [result.error.message] }]);
          return false;
        }
        form.resetFields();
        onCreated(result.data);
        return true;
      }}
    >
      <Form.Item name="name" label={t("clients.fields.name")} rules={[checkRule(checkName, { max: CLIENT_LIMITS.nameMax })]}>
        <Input maxLength={CLIENT_LIMITS.nameMax} data-testid="client-create-name" />
      </Form.Item>
      <Form.Item name="appId" label={t("clients.fields.app")} rules={[{ required: true, message: t("clients.rules.appRequired") }]}>
        <Select
          showSearch
          optionFilterProp="label"
          placeholder={t("clients.fields.appPlaceholder")}
          options={apps.map((app) => ({ value: app.id, label: app.name }))}
          data-testid="client-create-app"
        />
      </Form.Item>
    </FormDialog>
  );
}

/** The channel clients of the space, with enable, configure and delete. */
function ChannelClientsSection({ channels, loading, appNames }: { channels: ChannelClient[]; loading: boolean; appNames: Map<string, string> }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const catalogue = useChannelCatalogue();
  const [toggling, setToggling] = useState<string>();
  const platformName = (kind: string) => {
    const descriptor = catalogue?.find((item) => item.kind === kind);
    return descriptor ? localized(descriptor.name, i18n.language) : kind;
  };

  const toggle = async (client: ChannelClient, enabled: boolean) => {
    setToggling(client.id);
    const result = await channelEndpoints.update(client.id, { enabled }, { silent: false });
    setToggling(undefined);
    if (result.ok) setSpaceData<ChannelClient[]>(CHANNEL_CLIENTS, (current) => current?.map((item) => (item.id === client.id ? result.data : item)));
  };

  const remove = async (client: ChannelClient) => {
    const result = await channelEndpoints.remove(client.id);
    if (!result.ok) return;
    // The answer already says the row is gone: drop it now rather than wait for the list to refetch.
    setSpaceData<ChannelClient[]>(CHANNEL_CLIENTS, (current) => current?.filter((item) => item.id !== client.id));
    await invalidateSpace(CHANNEL_CLIENTS);
    feedback.success(t("clients.channelList.deleted", { name: client.name }));
  };

  const connect = (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(PATHS.clientConfig)} data-testid="channel-clients-connect">
      {t("clients.channelList.connect")}
    </Button>
  );

  return (
    <div className="pl-card pl-channel-clients" data-testid="channel-clients">
      <div className="pl-channel-clients__head">
        <div>
          <Typography.Title level={5} style={{ margin: 0 }} data-testid="channel-clients-title">
            {t("clients.channelList.title")}
          </Typography.Title>
          <Typography.Text type="secondary">{t("clients.channelList.subtitle")}</Typography.Text>
        </div>
        {connect}
      </div>
      {!loading && channels.length === 0 ? (
        <EmptyState
          compact
          title={t("clients.channelList.emptyTitle")}
          description={t("clients.channelList.emptyDescription")}
          data-testid="channel-clients-empty"
        />
      ) : (
        <Table<ChannelClient>
          className="pl-clients-table"
          rowKey="id"
          loading={loading}
          dataSource={channels}
          pagination={false}
          data-testid="channel-clients-list"
          onRow={(client) => ({ "data-testid": `channel-client-row-${client.id}` }) as React.HTMLAttributes<HTMLElement>}
          columns={[
            {
              title: t("clients.list.columns.name"),
              key: "name",
              render: (_, client) => (
                <Space direction="vertical" size={0}>
                  <Typography.Link onClick={() => navigate(channelConfigPath({ id: client.id }))} data-testid="channel-client-name">
                    {client.name}
                  </Typography.Link>
                  <Typography.Text type="secondary" copyable={{ text: client.id }} className="pl-client-id">
                    {client.id}
                  </Typography.Text>
                </Space>
              ),
            },
            {
              title: t("clients.channelList.type"),
              key: "kind",
              render: (_, client) => <Tag data-testid="channel-client-type">{platformName(client.kind)}</Tag>,
            },
            { title: t("clients.list.columns.app"), key: "app", render: (_, client) => appNames.get(client.appId) ?? client.appId },
            {
              title: t("clients.list.columns.status"),
              key: "status",
              render: (_, client) => (
                <ChannelStatus
                  status={client.status}
                  lastActiveAt={client.lastActiveAt}
                  lastError={client.lastError}
                  lastErrorAt={client.lastErrorAt}
                  configured={client.configured}
                />
              ),
            },
            {
              title: t("clients.list.columns.enabled"),
              key: "enabled",
              render: (_, client) => (
                <Switch
                  checked={client.enabled}
                  loading={toggling === client.id}
                  onChange={(checked) => void toggle(client, checked)}
                  aria-label={t("clients.list.columns.enabled")}
                  data-testid="channel-client-enabled"
                />
              ),
            },
            {
              title: t("clients.list.columns.actions"),
              key: "actions",
              render: (_, client) => (
                <Space>
                  <Button
                    type="link"
                    icon={<SettingOutlined />}
                    onClick={() => navigate(channelConfigPath({ id: client.id }))}
                    data-testid="channel-client-configure"
                  >
                    {t("clients.list.configure")}
                  </Button>
                  <Popconfirm
                    title={t("clients.channelList.deleteTitle")}
                    description={t("clients.channelList.deleteDescription", { name: client.name })}
                    okText={t("common.delete")}
                    cancelText={t("common.cancel")}
                    okButtonProps={{ danger: true, "data-testid": "channel-client-delete-confirm" }}
                    onConfirm={() => remove(client)}
                  >
                    <Button type="link" danger icon={<DeleteOutlined />} data-testid="channel-client-delete">
                      {t("common.delete")}
                    </Button>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      )}
    </div>
  );
}
