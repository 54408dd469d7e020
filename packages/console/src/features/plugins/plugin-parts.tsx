import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { Alert, Button, Col, Descriptions, Flex, Form, Input, Row, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { type DebugResult, type HeaderRow, isMaskedValue, newKey } from "../../components/parameters";
import { AssetUrlInput } from "../../components/asset-url-input";

/** The default picture for a plugin that brings none (served from the console's public files). */
export const DEFAULT_PLUGIN_AVATAR = "/plugin-avatar.svg";

const AVATAR_PATTERN = /^(https?:\/\/\S+|\/\S*|data:image\/(png|jpeg);base64,[A-Za-z0-9+/=]+)$/;

/** Name, avatar and description of a plugin, as both editors (HTTP and MCP) ask for them; test ids start with `testIdPrefix`. */
export function PluginBasicsFields({ testIdPrefix }: { testIdPrefix: "plugin" | "mcp" }) {
  const { t } = useTranslation();
  return (
    <>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item
            name="name"
            label={t("plugins.fields.name")}
            rules={[{ required: true, whitespace: true, message: t("plugins.fields.nameRequired") }, { max: 100 }]}
          >
            <Input maxLength={100} placeholder={t("plugins.fields.namePlaceholder")} data-testid={`${testIdPrefix}-name`} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="avatar"
            label={t("plugins.fields.avatar")}
            extra={t("plugins.fields.avatarHint")}
            rules={[
              { required: true, whitespace: true, message: t("plugins.fields.avatarRequired") },
              { pattern: AVATAR_PATTERN, message: t("plugins.fields.avatarInvalid") },
            ]}
          >
            <AssetUrlInput data-testid={`${testIdPrefix}-avatar`} />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item
        name="description"
        label={t("plugins.fields.description")}
        extra={t("plugins.fields.descriptionHint")}
        rules={[{ required: true, whitespace: true, message: t("plugins.fields.descriptionRequired") }]}
      >
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} maxLength={2000} data-testid={`${testIdPrefix}-description`} />
      </Form.Item>
    </>
  );
}

/** Header rows (HTTP and MCP plugins): name and value; values the server masked are shown as returned and kept when unchanged. */
export function HeadersEditor({
  value,
  onChange,
  error,
}: {
  value: HeaderRow[];
  onChange: (rows: HeaderRow[]) => void;
  error?: { name: string; message: string };
}) {
  const { t } = useTranslation();
  const change = (key: string, patch: Partial<HeaderRow>) => onChange(value.map((row) => (row.key === key ? { ...row, ...patch } : row)));
  return (
    <Flex vertical gap={8} data-testid="plugin-headers">
      <Typography.Text type="secondary">{t("plugins.headers.intro")}</Typography.Text>
      {value.map((row, index) => {
        const failed = error && error.name === row.name;
        return (
          <div key={row.key}>
            <Flex gap={8}>
              <Input
                value={row.name}
                status={failed ? "error" : undefined}
                placeholder={t("plugins.headers.name")}
                onChange={(event) => change(row.key, { name: event.target.value })}
                style={{ maxWidth: 260 }}
                data-testid={`plugin-header-name-${index}`}
              />
              <Input
                value={row.value}
                placeholder={t("plugins.headers.value")}
                onChange={(event) => change(row.key, { value: event.target.value })}
                suffix={isMaskedValue(row.value) ? <Tag>{t("plugins.headers.masked")}</Tag> : <span />}
                data-testid={`plugin-header-value-${index}`}
              />
              <Button
                type="text"
                danger
                icon={<DeleteOutlined />}
                aria-label={t("common.delete")}
                onClick={() => onChange(value.filter((item) => item.key !== row.key))}
              />
            </Flex>
            {failed ? (
              <Typography.Text type="danger" className="pl-params__error">
                {error.message}
              </Typography.Text>
            ) : null}
          </div>
        );
      })}
      <Button
        type="dashed"
        icon={<PlusOutlined />}
        onClick={() => onChange([...value, { key: newKey(), name: "", value: "" }])}
        data-testid="plugin-header-add"
      >
        {t("plugins.headers.add")}
      </Button>
    </Flex>
  );
}

/** The outcome of one test run. */
export function DebugResultView({ result }: { result: DebugResult }) {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={12}>
      <Flex gap={8} wrap align="center">
        <Tag color={result.ok ? "success" : "error"} data-testid="plugin-test-outcome">
          {result.ok ? t("plugins.test.ok") : t("plugins.test.failed")}
        </Tag>
        <Typography.Text data-testid="plugin-test-status">{t("plugins.test.status", { status: result.status ?? "—" })}</Typography.Text>
        <Typography.Text type="secondary" data-testid="plugin-test-duration">
          {t("plugins.test.duration", { ms: result.durationMs })}
        </Typography.Text>
      </Flex>
      {result.error ? <Alert type="error" showIcon title={result.error} data-testid="plugin-test-error" /> : null}
      {result.request ? (
        <Descriptions size="small" column={1} bordered title={t("plugins.test.request")}>
          <Descriptions.Item label={t("plugins.test.url")}>
            <Typography.Text code data-testid="plugin-test-request-url">{`${result.request.method} ${result.request.url}`}</Typography.Text>
          </Descriptions.Item>
          {Object.keys(result.request.headers).length > 0 ? (
            <Descriptions.Item label={t("plugins.editor.headers")}>
              <pre className="pl-plugin-pre">
                {Object.entries(result.request.headers)
                  .map(([name, value]) => `${name}: ${value}`)
                  .join("\n")}
              </pre>
            </Descriptions.Item>
          ) : null}
          {result.request.body ? (
            <Descriptions.Item label={t("plugins.test.body")}>
              <pre className="pl-plugin-pre">{result.request.body}</pre>
            </Descriptions.Item>
          ) : null}
        </Descriptions>
      ) : null}
      {result.response ? (
        <div>
          <Flex gap={8} align="center" className="pl-plugin-response-head">
            <Typography.Text strong>{t("plugins.test.response")}</Typography.Text>
            {result.response.contentType ? <Tag>{result.response.contentType}</Tag> : null}
            {result.response.truncated ? (
              <Tag color="warning" data-testid="plugin-test-truncated">
                {t("plugins.test.truncated")}
              </Tag>
            ) : null}
          </Flex>
          <pre className="pl-plugin-pre pl-plugin-pre--response" data-testid="plugin-test-response">
            {prettyBody(result.response.body)}
          </pre>
        </div>
      ) : null}
    </Flex>
  );
}

/** JSON bodies indented; anything else as it came. */
export function prettyBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
