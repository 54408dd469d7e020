import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { call, client } from "../../lib/api/request";
import { endpoints } from "../../lib/api/endpoints";
import { useSpaceQuery } from "../../lib/api/query";
import { modelOptions } from "../apps/use-app-options";
import { knowledgeEndpoints } from "../../lib/api/knowledge";
import { EMPTY_OPTIONS, type NodeFormOptions } from "./node-forms";

/**
 * What the node forms' pickers offer, loaded once from the SDK: models, the space's apps (not
 * workflow apps), knowledge bases, enabled plugins (custom by code, built-ins by name) and
 * channel clients. A list that fails to load stays empty; the form says so in the picker.
 */
export function useNodeOptions(): NodeFormOptions {
  const { t } = useTranslation();
  const models = useSpaceQuery({ key: ["models", "node-options"], fetch: (signal) => endpoints.models.list({ silent: true, signal }) });
  const apps = useSpaceQuery({ key: ["apps", "node-options"], fetch: (signal) => endpoints.apps.list(1, { silent: true, signal }) });
  const bases = useSpaceQuery({ key: ["knowledge-bases", "node-options"], fetch: (signal) => knowledgeEndpoints.list({ silent: true, signal }) });
  const custom = useSpaceQuery({ key: ["plugins", "node-options"], fetch: (signal) => endpoints.plugins.list({ silent: true, signal }) });
  const builtin = useSpaceQuery({ key: ["plugins", "builtin", "node-options"], fetch: (signal) => endpoints.plugins.builtin({ silent: true, signal }) });
  const channels = useSpaceQuery({
    key: ["channel-clients", "node-options"],
    fetch: (signal) => call({ silent: true, dedupeKey: "workflow-channel-clients", signal }, (init) => client.GET("/api/v1/channel-clients", init)),
  });
  const pluginsSettled = !custom.isPending && !builtin.isPending;

  return useMemo(
    () => ({
      ...EMPTY_OPTIONS,
      ...(models.data ? { models: modelOptions(models.data, t("workflows.form.offline")) } : {}),
      ...(apps.data ? { apps: apps.data.items.filter((app) => app.type !== "WORKFLOW").map((app) => ({ value: app.id, label: app.name })) } : {}),
      ...(bases.data ? { knowledgeBases: bases.data.map((base) => ({ value: base.id, label: base.name })) } : {}),
      ...(pluginsSettled
        ? {
            plugins: [
              ...(custom.data ? custom.data.filter((plugin) => plugin.enabled).map((plugin) => ({ value: plugin.code, label: plugin.name })) : []),
              ...(builtin.data
                ? builtin.data
                    .filter((plugin) => plugin.available)
                    .map((plugin) => ({ value: plugin.code, label: `${plugin.name} (${t("workflows.form.builtin")})` }))
                : []),
            ],
            pluginTools: Object.fromEntries(
              (custom.data ?? [])
                .filter((plugin) => plugin.kind === "mcp")
                .map((plugin) => [
                  plugin.code,
                  (plugin.mcp?.tools ?? [])
                    .filter((tool) => tool.enabled)
                    .map((tool) => ({ value: tool.name, label: tool.title ? `${tool.name} · ${tool.title}` : tool.name })),
                ]),
            ),
          }
        : {}),
      ...(channels.data ? { clients: channels.data.map((item) => ({ value: item.id, label: item.name })) } : {}),
    }),
    [t, models.data, apps.data, bases.data, pluginsSettled, custom.data, builtin.data, channels.data],
  );
}
