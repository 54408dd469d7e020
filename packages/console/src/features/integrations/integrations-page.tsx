import { Alert, Card, Flex, Select, Tabs, Typography } from "antd";
import { useMemo, useState } from "react";
import { mapData, useSpaceQuery } from "../../lib/api/query";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { endpoints } from "../../lib/api/endpoints";
import { useSession } from "../../lib/api/session";
import { CodeSnippet } from "../../components/code-snippet";
import { PageHeader } from "../../components/page-header";
import { ApiKeysTab } from "../account/api-keys-tab";
import { ModelsSection } from "./models-section";
import { buildSnippets } from "./snippets";
import { UserKeysCard } from "./user-keys-card";

const TABS = ["keys", "snippets", "models"] as const;
type Tab = (typeof TABS)[number];

/** API access: personal keys, user keys, copy-paste snippets and (instance owner) the models. */
export function IntegrationsPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const [params, setParams] = useSearchParams();
  const owner = user?.isInstanceOwner === true;
  const requested = params.get("tab") as Tab | null;
  const tab: Tab = requested && TABS.includes(requested) && (requested !== "models" || owner) ? requested : "keys";

  return (
    <div data-testid="integrations-page">
      <PageHeader title={t("apiAccess.title")} subtitle={t("apiAccess.subtitle")} />
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams(key === "keys" ? {} : { tab: key }, { replace: true })}
        destroyOnHidden
        items={[
          {
            key: "keys",
            label: <span data-testid="integrations-tab-keys">{t("apiAccess.tabs.keys")}</span>,
            children: (
              <Flex vertical gap={16}>
                <ApiKeysTab />
                <UserKeysCard />
              </Flex>
            ),
          },
          { key: "snippets", label: <span data-testid="integrations-tab-snippets">{t("apiAccess.tabs.snippets")}</span>, children: <SnippetsCard /> },
          ...(owner
            ? [{ key: "models", label: <span data-testid="integrations-tab-models">{t("apiAccess.tabs.models")}</span>, children: <ModelsSection /> }]
            : []),
        ]}
      />
    </div>
  );
}

const NO_APPS: Array<{ code: string; name: string }> = [];

/** Copy-paste examples for this origin and a chosen app. */
function SnippetsCard() {
  const { t } = useTranslation();
  const apps =
    useSpaceQuery({
      key: ["apps", "api-access"],
      fetch: (signal) => mapData(endpoints.apiAccessApps({ silent: true, signal }), (page) => page.items.map((app) => ({ code: app.code, name: app.name }))),
    }).data ?? NO_APPS;
  const [chosen, setAppCode] = useState<string>("");
  // The first app until the user picks one.
  const appCode = chosen || apps[0]?.code || "";
  const origin = typeof window === "undefined" ? "" : window.location.origin;

  const snippets = useMemo(() => buildSnippets({ origin, appCode }), [origin, appCode]);

  return (
    <Card className="pl-card-plain" title={t("apiAccess.snippets.title")} data-testid="snippets-card">
      <Flex vertical gap={16}>
        <Alert type="info" showIcon title={t("apiAccess.snippets.modelIsCode")} description={t("apiAccess.snippets.keyHint")} />
        <Flex gap={12} align="center" wrap>
          <Typography.Text strong>{t("apiAccess.snippets.app")}</Typography.Text>
          <Select
            showSearch
            style={{ minWidth: 280 }}
            value={appCode || undefined}
            placeholder={t("apiAccess.snippets.appPlaceholder")}
            onChange={setAppCode}
            notFoundContent={t("apiAccess.snippets.noApps")}
            options={apps.map((app) => ({ value: app.code, label: `${app.name} · ${app.code}` }))}
            data-testid="snippets-app"
          />
          <Typography.Text type="secondary">{t("apiAccess.snippets.endpoint")}</Typography.Text>
          <Typography.Text code copyable data-testid="snippets-base-url">{`${origin}/v1`}</Typography.Text>
        </Flex>
        <Tabs
          items={[
            { key: "curl", label: "curl", children: <CodeSnippet code={snippets.curl} language="bash" data-testid="snippet-curl" /> },
            {
              key: "curlStream",
              label: t("apiAccess.snippets.curlStream"),
              children: <CodeSnippet code={snippets.curlStream} language="bash" data-testid="snippet-curl-stream" />,
            },
            { key: "sdk", label: "@parley/sdk", children: <CodeSnippet code={snippets.sdk} language="TypeScript" data-testid="snippet-sdk" /> },
            { key: "openai", label: "openai (npm)", children: <CodeSnippet code={snippets.openai} language="TypeScript" data-testid="snippet-openai" /> },
            {
              key: "mcp",
              label: "MCP",
              children: (
                <Flex vertical gap={12}>
                  <Typography.Text type="secondary">{t("apiAccess.snippets.mcpHint")}</Typography.Text>
                  <Flex gap={12} align="center" wrap>
                    <Typography.Text strong>{t("apiAccess.snippets.mcpEndpoint")}</Typography.Text>
                    <Typography.Text code copyable data-testid="snippets-mcp-url">
                      {snippets.mcpUrl}
                    </Typography.Text>
                  </Flex>
                  <CodeSnippet code={snippets.mcpConfig} language="JSON" data-testid="snippet-mcp" />
                </Flex>
              ),
            },
          ]}
        />
      </Flex>
    </Card>
  );
}
