import { KeyOutlined } from "@ant-design/icons";
import { Button, Card, Empty, Flex, Result, Select, Table, Tabs, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";
import { ApiKeyRevealModal } from "../../components/api-key-reveal-modal";
import { CodeSnippet } from "../../components/code-snippet";
import { PageHeader } from "../../components/page-header";
import { endpoints } from "../../lib/api/endpoints";
import { invalidateSpace, useSpaceQuery } from "../../lib/api/query";
import { useSession } from "../../lib/api/session";
import { feedback } from "../../lib/feedback";
import { formatDateTime } from "../../lib/format";
import { loginReturning } from "./paths";
import { pluginKeySnippets } from "./snippets";

const USER_KEYS = ["user-keys"];

/**
 * /pluginKey: the key a plugin or integration needs to call one of the user's apps — a user key
 * bound to that app — with copyable curl, SDK and Python snippets. Guests are asked to sign in.
 */
export function PluginKeyPage() {
  const { t, i18n } = useTranslation();
  const { token } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  if (!token) {
    return (
      <Result
        icon={<KeyOutlined />}
        title={t("pluginKey.title")}
        subTitle={t("pluginKey.signInPrompt")}
        extra={
          <Button type="primary" onClick={() => navigate(loginReturning(location.pathname))} data-testid="plugin-key-sign-in">
            {t("pluginKey.signIn")}
          </Button>
        }
        data-testid="plugin-key-guest"
      />
    );
  }
  return <PluginKeyPanel language={i18n.language} />;
}

function PluginKeyPanel({ language }: { language: string }) {
  const { t } = useTranslation();
  const apps = useSpaceQuery({ key: ["apps", "plugin-key"], fetch: (signal) => endpoints.apps.list(1, { signal }) });
  const keys = useSpaceQuery({ key: USER_KEYS, fetch: (signal) => endpoints.userKeys.list({ signal }) });
  const [appCode, setAppCode] = useState<string>();
  const [creating, setCreating] = useState(false);
  const [revealed, setRevealed] = useState<{ name: string; key: string }>();
  const app = apps.data?.items.find((item) => item.code === appCode);
  const bound = (keys.data ?? []).filter((key) => key.appCode === appCode);
  const snippets = appCode ? pluginKeySnippets(window.location.origin, appCode) : undefined;

  const create = async () => {
    if (!app) return;
    setCreating(true);
    const result = await endpoints.userKeys.create({ name: `${app.name} plugin`.slice(0, 50), appCode: app.code, creditLimit: null, expiresAt: null });
    setCreating(false);
    if (!result.ok) return;
    const { key, name } = result.data;
    setRevealed({ name, key });
    feedback.success(t("pluginKey.created"));
    await invalidateSpace(USER_KEYS);
  };

  return (
    <div data-testid="plugin-key-page">
      <PageHeader title={t("pluginKey.title")} subtitle={t("pluginKey.subtitle")} />
      <Card className="pl-card-plain">
        <Flex gap={12} align="center" wrap>
          <Typography.Text>{t("pluginKey.chooseApp")}</Typography.Text>
          <Select
            style={{ minWidth: 260 }}
            value={appCode}
            onChange={setAppCode}
            loading={apps.isLoading}
            placeholder={t("pluginKey.appPlaceholder")}
            options={(apps.data?.items ?? []).map((item) => ({ value: item.code, label: item.name }))}
            data-testid="plugin-key-app"
          />
          <Button type="primary" icon={<KeyOutlined />} disabled={!app} loading={creating} onClick={() => void create()} data-testid="plugin-key-create">
            {t("pluginKey.create")}
          </Button>
        </Flex>
        {(apps.data?.items.length ?? 1) === 0 ? <Empty description={t("pluginKey.noApps")} /> : null}
        {appCode ? (
          <>
            <Typography.Title level={5}>{t("pluginKey.keysOfApp")}</Typography.Title>
            <Table
              rowKey="id"
              size="small"
              pagination={false}
              dataSource={bound}
              locale={{ emptyText: t("pluginKey.noKeys") }}
              columns={[
                { title: t("pluginKey.columns.name"), dataIndex: "name" },
                { title: t("pluginKey.columns.prefix"), dataIndex: "prefix", render: (prefix: string) => <Typography.Text code>{prefix}…</Typography.Text> },
                {
                  title: t("pluginKey.columns.status"),
                  dataIndex: "enabled",
                  render: (enabled: boolean) => <Tag color={enabled ? "green" : "default"}>{enabled ? t("pluginKey.enabled") : t("pluginKey.disabled")}</Tag>,
                },
                { title: t("pluginKey.columns.created"), dataIndex: "createdAt", render: (value: string) => formatDateTime(value, language) },
              ]}
              data-testid="plugin-key-table"
            />
            <Typography.Paragraph type="secondary">{t("pluginKey.snippetsIntro")}</Typography.Paragraph>
            <Tabs
              items={[
                { key: "curl", label: "curl", children: <CodeSnippet code={snippets!.curl} language="bash" data-testid="plugin-key-curl" /> },
                { key: "sdk", label: "JavaScript (SDK)", children: <CodeSnippet code={snippets!.sdk} language="javascript" data-testid="plugin-key-sdk" /> },
                {
                  key: "python",
                  label: "Python (openai)",
                  children: <CodeSnippet code={snippets!.python} language="python" data-testid="plugin-key-python" />,
                },
              ]}
            />
          </>
        ) : null}
      </Card>
      <ApiKeyRevealModal revealed={revealed} onClose={() => setRevealed(undefined)} />
    </div>
  );
}
