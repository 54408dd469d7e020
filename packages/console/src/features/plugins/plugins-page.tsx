import { AppstoreOutlined, ClusterOutlined, DeleteOutlined, EditOutlined, PlusOutlined } from "@ant-design/icons";
import { Avatar, Badge, Button, Card, Col, Popconfirm, Row, Switch, Table, Tabs, Tag, Typography } from "antd";
import { useState } from "react";
import { invalidateSpace, useSpaceQuery, useSpaceResource } from "../../lib/api/query";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useSearchParams } from "react-router";
import { endpoints } from "../../lib/api/endpoints";
import { feedback } from "../../lib/feedback";
import { formatDateTime } from "../../lib/format";
import { PATHS } from "../../lib/paths";
import { EmptyState } from "../../components/empty-state";
import { PageHeader } from "../../components/page-header";
import { ExportButton, ImportButton } from "../../components/portable-transfer";
import type { Plugin } from "../../components/parameters";
import "./plugins.css";

const detailPath = (id?: string) => (id ? `${PATHS.pluginDetail}?id=${encodeURIComponent(id)}` : PATHS.pluginDetail);

/** Plugins: the space's custom HTTP plugins and the built-ins every app may use. */
export function PluginsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const tab = params.get("tab") === "builtin" ? "builtin" : "custom";

  return (
    <div data-testid="plugins-page">
      <PageHeader
        title={t("plugins.title")}
        subtitle={t("plugins.subtitle")}
        extra={
          <>
            <ImportButton onImported={() => void invalidateSpace(PLUGINS)} />
            <ExportButton request={{ space: true }} data-testid="portable-export-space" />
            <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(detailPath())} data-testid="plugin-create">
              {t("plugins.create")}
            </Button>
          </>
        }
      />
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams(key === "custom" ? {} : { tab: key }, { replace: true })}
        items={[
          { key: "custom", label: <span data-testid="plugins-tab-custom">{t("plugins.tabs.custom")}</span>, children: <CustomPlugins /> },
          { key: "builtin", label: <span data-testid="plugins-tab-builtin">{t("plugins.tabs.builtin")}</span>, children: <BuiltinPlugins /> },
        ]}
      />
    </div>
  );
}

/** Every plugin key of the space (see lib/api/query). */
export const PLUGINS = ["plugins"];
const PLUGINS_LIST = [...PLUGINS, "list"];
const NO_PLUGINS: Plugin[] = [];

function CustomPlugins() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const list = useSpaceResource({ key: PLUGINS_LIST, fetch: (signal) => endpoints.plugins.list({ signal }) });
  const plugins = list.data ?? NO_PLUGINS;
  const { loading, loadFailed, reload: load, set: setPlugins } = list;
  const [switching, setSwitching] = useState<string>();

  const toggle = async (plugin: Plugin, enabled: boolean) => {
    setSwitching(plugin.id);
    const result = await endpoints.plugins.setEnabled(plugin.id, enabled);
    setSwitching(undefined);
    if (!result.ok) return;
    setPlugins((current) => current.map((item) => (item.id === plugin.id ? result.data : item)));
  };

  const remove = async (plugin: Plugin) => {
    const result = await endpoints.plugins.remove(plugin.id);
    if (!result.ok) return;
    feedback.success(t("plugins.deleted", { name: plugin.name }));
    setPlugins((current) => current.filter((item) => item.id !== plugin.id));
    void invalidateSpace(PLUGINS);
  };

  return (
    <Card className="pl-card-plain">
      <Table<Plugin>
        rowKey="id"
        loading={loading}
        dataSource={plugins}
        pagination={plugins.length > 20 ? { pageSize: 20 } : false}
        data-testid="plugin-table"
        locale={{
          emptyText: loadFailed ? (
            <EmptyState
              compact
              title={t("plugins.loadFailed")}
              action={<Button onClick={() => void load()}>{t("common.retry")}</Button>}
              data-testid="plugin-load-failed"
            />
          ) : (
            <EmptyState
              compact
              icon={<ClusterOutlined className="pl-empty__glyph" />}
              title={t("plugins.emptyTitle")}
              description={t("plugins.emptyDescription")}
              action={
                <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(detailPath())}>
                  {t("plugins.create")}
                </Button>
              }
              data-testid="plugin-empty"
            />
          ),
        }}
        columns={[
          {
            key: "plugin",
            title: t("plugins.columns.plugin"),
            render: (_value, plugin) => (
              <div className="pl-plugin-cell">
                <Avatar shape="square" size={40} src={plugin.avatar} icon={<AppstoreOutlined />} />
                <div className="pl-plugin-cell__text">
                  <Link to={detailPath(plugin.id)} data-testid={`plugin-name-${plugin.id}`}>
                    <Typography.Text strong>{plugin.name}</Typography.Text>
                  </Link>
                  <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} className="pl-plugin-cell__description">
                    {plugin.description}
                  </Typography.Paragraph>
                </div>
              </div>
            ),
          },
          {
            key: "request",
            title: t("plugins.columns.request"),
            responsive: ["lg"],
            render: (_value, plugin) => (
              <Typography.Text type="secondary" ellipsis className="pl-plugin-url">
                <Tag>{plugin.kind === "mcp" ? "MCP" : plugin.requestMethod}</Tag>
                {plugin.requestUrl}
              </Typography.Text>
            ),
          },
          {
            key: "updatedAt",
            title: t("plugins.columns.updated"),
            dataIndex: "updatedAt",
            responsive: ["md"],
            render: (value: string) => formatDateTime(value, i18n.language),
          },
          {
            key: "enabled",
            title: t("plugins.columns.enabled"),
            render: (_value, plugin) => (
              <Switch
                checked={plugin.enabled}
                loading={switching === plugin.id}
                onChange={(checked) => void toggle(plugin, checked)}
                data-testid={`plugin-enabled-${plugin.id}`}
              />
            ),
          },
          {
            key: "actions",
            title: t("plugins.columns.actions"),
            align: "right",
            render: (_value, plugin) => (
              <>
                <Button type="text" icon={<EditOutlined />} onClick={() => navigate(detailPath(plugin.id))} data-testid={`plugin-edit-${plugin.id}`}>
                  {t("plugins.edit")}
                </Button>
                <ExportButton compact request={{ pluginIds: [plugin.id] }} data-testid={`plugin-export-${plugin.id}`} />
                <Popconfirm
                  title={t("plugins.deleteTitle")}
                  description={t("plugins.deleteDescription", { name: plugin.name })}
                  okText={t("common.delete")}
                  cancelText={t("common.cancel")}
                  okButtonProps={{ danger: true, "data-testid": "plugin-delete-confirm" } as { danger: boolean }}
                  onConfirm={() => remove(plugin)}
                >
                  <Button type="text" danger icon={<DeleteOutlined />} data-testid={`plugin-delete-${plugin.id}`}>
                    {t("common.delete")}
                  </Button>
                </Popconfirm>
              </>
            ),
          },
        ]}
      />
    </Card>
  );
}

function BuiltinPlugins() {
  const { t, i18n } = useTranslation();
  // The server names built-ins in the request's language: the language is part of the key.
  const builtin = useSpaceQuery({ key: [...PLUGINS, "builtin", i18n.language], fetch: (signal) => endpoints.plugins.builtin({ signal }) });
  const plugins = builtin.data;
  const loadFailed = builtin.isError;

  if (loadFailed)
    return (
      <div className="pl-card">
        <EmptyState title={t("plugins.loadFailed")} data-testid="builtin-load-failed" />
      </div>
    );
  return (
    <Row gutter={[16, 16]} data-testid="builtin-plugins">
      {(plugins ?? []).map((plugin) => (
        <Col key={plugin.code} xs={24} md={12} xl={8}>
          <Badge.Ribbon text={plugin.available ? t("plugins.builtin.available") : t("plugins.builtin.unavailable")} color={plugin.available ? "green" : "gray"}>
            <Card className="pl-card-plain pl-builtin-card" loading={plugins === undefined} data-testid={`builtin-${plugin.code}`}>
              <Card.Meta
                avatar={<Avatar shape="square" size={44} icon={<AppstoreOutlined />} className="pl-builtin-card__avatar" />}
                title={plugin.name}
                description={
                  <>
                    <Typography.Paragraph type="secondary" className="pl-builtin-card__description">
                      {plugin.description}
                    </Typography.Paragraph>
                    <Typography.Text type="secondary" className="pl-builtin-card__meta">
                      <Tag>{t(`plugins.builtin.scopes.${plugin.scope}`)}</Tag>
                      <Typography.Text code>{plugin.code}</Typography.Text>
                    </Typography.Text>
                    {!plugin.available ? (
                      <Typography.Paragraph type="warning" className="pl-builtin-card__hint">
                        {t("plugins.builtin.needsConfig")}
                      </Typography.Paragraph>
                    ) : null}
                  </>
                }
              />
            </Card>
          </Badge.Ribbon>
        </Col>
      ))}
    </Row>
  );
}
