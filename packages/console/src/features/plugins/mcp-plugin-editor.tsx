import { PlayCircleOutlined, SearchOutlined } from "@ant-design/icons";
import type { components } from "@parley/sdk";
import { Alert, Button, Card, Col, Empty, Flex, Form, Input, List, Row, Select, Switch, Tag, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { invalidateSpace, setSpaceData } from "../../lib/api/query";
import { endpoints } from "../../lib/api/endpoints";
import { feedback } from "../../lib/feedback";
import { PATHS } from "../../lib/paths";
import { type DebugResult, type HeaderRow, headersFromApi, headersToApi, type Plugin } from "../../components/parameters";
import { DebugResultView, DEFAULT_PLUGIN_AVATAR, HeadersEditor, PluginBasicsFields } from "./plugin-parts";
import { PLUGINS } from "./plugins-page";

type McpTool = components["schemas"]["McpTool"];
type McpTransport = NonNullable<components["schemas"]["McpDiscoverRequest"]["transport"]>;
const TRANSPORTS: readonly McpTransport[] = ["auto", "streamable-http", "sse"];

interface McpFields {
  name: string;
  description: string;
  avatar: string;
  requestUrl: string;
  transport: McpTransport;
}
const FIELDS: readonly string[] = ["name", "description", "avatar", "requestUrl"];

/**
 * The editor of an MCP server plugin: URL, headers (masked once saved), transport, "Discover
 * tools" with a switch per tool, and a test run of one tool with JSON arguments.
 */
export function McpPluginEditor({ plugin, detailKey, enabled }: { plugin?: Plugin | undefined; detailKey: unknown[]; enabled: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<McpFields>();
  const [headers, setHeaders] = useState<HeaderRow[]>(() => headersFromApi(plugin?.headers ?? {}));
  const [headerError, setHeaderError] = useState<{ name: string; message: string }>();
  const [tools, setTools] = useState<McpTool[]>(plugin?.mcp?.tools ?? []);
  const [warnings, setWarnings] = useState<string[]>([]);
  const [discoverError, setDiscoverError] = useState<string>();
  const [discovered, setDiscovered] = useState<string>();
  const [discovering, setDiscovering] = useState(false);
  const [saving, setSaving] = useState(false);
  const [toolName, setToolName] = useState<string>();
  const [argumentText, setArgumentText] = useState("{}");
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<DebugResult>();

  useEffect(() => {
    if (!plugin) return;
    form.setFieldsValue({
      name: plugin.name,
      description: plugin.description,
      avatar: plugin.avatar,
      requestUrl: plugin.requestUrl,
      transport: plugin.mcp?.transport ?? "auto",
    });
    setHeaders(headersFromApi(plugin.headers));
    setTools(plugin.mcp?.tools ?? []);
  }, [plugin, form]);

  const target = () => {
    const values = form.getFieldsValue(true) as McpFields;
    return {
      ...(plugin ? { pluginId: plugin.id } : {}),
      url: values.requestUrl?.trim() ?? "",
      headers: headersToApi(headers),
      transport: values.transport ?? "auto",
    };
  };

  const discover = async () => {
    try {
      await form.validateFields(["requestUrl"]);
    } catch {
      return;
    }
    setDiscovering(true);
    setDiscoverError(undefined);
    try {
      const response = await endpoints.plugins.mcpDiscover(target(), { silent: true });
      if (!response.ok) {
        if (response.error.field?.startsWith("headers."))
          setHeaderError({ name: response.error.field.slice("headers.".length), message: response.error.message });
        setDiscoverError(response.error.message);
        return;
      }
      // Switches already set in this form survive a new discovery.
      const switches = new Map(tools.map((tool) => [tool.name, tool.enabled]));
      setTools(response.data.tools.map((tool) => ({ ...tool, enabled: switches.get(tool.name) ?? tool.enabled })));
      setWarnings(response.data.warnings);
      setDiscovered(
        t("plugins.mcp.discovered", {
          count: response.data.tools.length,
          transport: t(`plugins.mcp.transports.${response.data.transport}`),
          server: response.data.server ? `${response.data.server.name} ${response.data.server.version}` : "—",
        }),
      );
    } finally {
      setDiscovering(false);
    }
  };

  const save = async () => {
    try {
      await form.validateFields();
    } catch {
      feedback.warning(t("plugins.editor.fixErrors"));
      return;
    }
    const values = form.getFieldsValue(true) as McpFields;
    const body = {
      kind: "mcp" as const,
      enabled,
      name: values.name.trim(),
      description: values.description.trim(),
      avatar: values.avatar.trim(),
      requestUrl: values.requestUrl.trim(),
      headers: headersToApi(headers),
      mcp: { transport: values.transport, tools },
    };
    setSaving(true);
    try {
      const response = plugin ? await endpoints.plugins.update(plugin.id, body) : await endpoints.plugins.create(body);
      if (!response.ok) {
        const field = response.error.field ?? "";
        if (FIELDS.includes(field)) form.setFields([{ name: field as keyof McpFields, errors: [response.error.message] }]);
        else if (field.startsWith("headers.")) setHeaderError({ name: field.slice("headers.".length), message: response.error.message });
        return;
      }
      if (plugin) setSpaceData<Plugin>(detailKey, () => response.data);
      void invalidateSpace(PLUGINS);
      feedback.success(t(plugin ? "plugins.editor.saved" : "plugins.editor.created", { name: response.data.name }));
      if (!plugin) navigate(PATHS.plugins);
    } finally {
      setSaving(false);
    }
  };

  const run = async () => {
    if (!toolName) return;
    setRunning(true);
    try {
      const response = await endpoints.plugins.mcpDebug({ ...target(), tool: toolName, arguments: argumentText.trim() || "{}" });
      if (response.ok) setResult(response.data);
    } finally {
      setRunning(false);
    }
  };

  return (
    <div data-testid="mcp-plugin-editor">
      <Card className="pl-card-plain pl-plugin-section" title={t("plugins.editor.basics")}>
        <Form
          form={form}
          layout="vertical"
          requiredMark
          initialValues={{ name: "", description: "", avatar: DEFAULT_PLUGIN_AVATAR, requestUrl: "", transport: "auto" }}
          data-testid="mcp-form"
        >
          <PluginBasicsFields testIdPrefix="mcp" />
          <Row gutter={16}>
            <Col xs={24} md={16}>
              <Form.Item
                name="requestUrl"
                label={t("plugins.mcp.url")}
                extra={t("plugins.mcp.urlHint")}
                rules={[
                  { required: true, whitespace: true, message: t("plugins.fields.urlRequired") },
                  { pattern: /^https?:\/\/\S+$/, message: t("plugins.fields.urlInvalid") },
                ]}
              >
                <Input placeholder="https://mcp.example.com/mcp" data-testid="mcp-url" />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="transport" label={t("plugins.mcp.transport")}>
                <Select options={TRANSPORTS.map((value) => ({ value, label: t(`plugins.mcp.transports.${value}`) }))} data-testid="mcp-transport" />
              </Form.Item>
            </Col>
          </Row>
        </Form>
      </Card>
      <Card className="pl-card-plain pl-plugin-section" title={t("plugins.editor.headers")}>
        <HeadersEditor value={headers} onChange={setHeaders} {...(headerError ? { error: headerError } : {})} />
      </Card>
      <Card
        className="pl-card-plain pl-plugin-section"
        title={t("plugins.mcp.tools")}
        extra={
          <Button icon={<SearchOutlined />} loading={discovering} onClick={() => void discover()} data-testid="mcp-discover">
            {t("plugins.mcp.discover")}
          </Button>
        }
      >
        {discoverError ? <Alert type="error" showIcon title={discoverError} className="pl-plugin-alert" data-testid="mcp-discover-error" /> : null}
        {discovered ? <Alert type="success" showIcon title={discovered} className="pl-plugin-alert" data-testid="mcp-discovered" /> : null}
        {warnings.length > 0 ? (
          <Alert
            type="warning"
            showIcon
            title={t("plugins.mcp.refused")}
            className="pl-plugin-alert"
            description={
              <ul>
                {warnings.map((warning) => (
                  <li key={warning}>{warning}</li>
                ))}
              </ul>
            }
            data-testid="mcp-warnings"
          />
        ) : null}
        {tools.length === 0 ? (
          <Empty description={t("plugins.mcp.noTools")} />
        ) : (
          <List
            dataSource={tools}
            data-testid="mcp-tools"
            renderItem={(tool) => (
              <List.Item
                actions={[
                  <Switch
                    key="enabled"
                    checked={tool.enabled}
                    aria-label={t("plugins.mcp.enableTool", { name: tool.name })}
                    onChange={(enabled) => setTools(tools.map((entry) => (entry.name === tool.name ? { ...entry, enabled } : entry)))}
                    data-testid={`mcp-tool-switch-${tool.name}`}
                  />,
                ]}
              >
                <List.Item.Meta
                  title={
                    <Flex gap={8} align="center">
                      <Typography.Text code>{tool.name}</Typography.Text>
                      {tool.title ? <span>{tool.title}</span> : null}
                      {tool.enabled ? <Tag color="success">{t("plugins.mcp.on")}</Tag> : null}
                    </Flex>
                  }
                  description={tool.description || undefined}
                />
              </List.Item>
            )}
          />
        )}
      </Card>
      <Row gutter={16}>
        <Col xs={24} lg={10}>
          <Card className="pl-card-plain pl-plugin-section" title={t("plugins.test.arguments")} data-testid="mcp-test">
            <Flex vertical gap={12}>
              <Select
                value={toolName}
                onChange={setToolName}
                placeholder={t("plugins.mcp.chooseTool")}
                options={tools.map((tool) => ({ value: tool.name, label: tool.title ? `${tool.name} · ${tool.title}` : tool.name }))}
                data-testid="mcp-test-tool"
              />
              <Input.TextArea
                className="pl-mono"
                autoSize={{ minRows: 3, maxRows: 10 }}
                value={argumentText}
                onChange={(event) => setArgumentText(event.target.value)}
                data-testid="mcp-test-arguments"
              />
              <Typography.Text type="secondary">{t("plugins.mcp.argumentsHint")}</Typography.Text>
              <Button type="primary" icon={<PlayCircleOutlined />} disabled={!toolName} loading={running} onClick={() => void run()} data-testid="mcp-run">
                {t("plugins.test.run")}
              </Button>
            </Flex>
          </Card>
        </Col>
        <Col xs={24} lg={14}>
          <Card className="pl-card-plain pl-plugin-section" title={t("plugins.test.result")} data-testid="plugin-test-result">
            {result ? <DebugResultView result={result} /> : <Typography.Text type="secondary">{t("plugins.test.notRunDescription")}</Typography.Text>}
          </Card>
        </Col>
      </Row>
      <Flex justify="flex-end" className="pl-plugin-footer">
        <Button type="primary" loading={saving} onClick={() => void save()} data-testid="plugin-save">
          {plugin ? t("common.save") : t("plugins.editor.create")}
        </Button>
      </Flex>
    </div>
  );
}
