import { and, asc, eq, inArray, ne } from "drizzle-orm";
import { stringify } from "yaml";
import { apps, knowledgeBases, knowledgeFiles, plugins, workflows } from "../../db/schema/index";
import type { Auth, Deps } from "../../kernel";
import { rangeCondition } from "../../access/range";
import { workflowRange } from "../../access/follow";
import { loadApp, settingsOf, type AppRow } from "../../apps/service/load";
import { loadKnowledgeBase, type KnowledgeBaseRow } from "../../knowledge/service/knowledge-bases";
import { chunksOfFileRows, metadataOf } from "../../knowledge/service/records";
import { loadPrepared } from "../../knowledge/service/prepared";
import { loadPlugin, loadPluginsByCode, type StoredPlugin } from "../../plugins/service/plugins";
import { findBuiltin } from "../../plugins/service/builtins/index";
import { graphOf, loadWorkflow, type WorkflowRow } from "../../workflows/service/workflows";
import { fail } from "../../errors";
import { writeBundle } from "../archive";
import { PORTABLE_VERSION, placeholderOf, type PortableApp, type PortableContents, type PortableDocument, type PortableWorkflow } from "../format";
import { type ExportedSecret, pluginToPortable } from "../plugin-mapping";
import { holds, requireGrant } from "./access";

/** What to export: chosen objects, or the whole space (what the caller may read of it). */
export interface ExportRequest {
  appIds?: string[] | undefined;
  workflowIds?: string[] | undefined;
  pluginIds?: string[] | undefined;
  knowledgeBaseIds?: string[] | undefined;
  space?: boolean | undefined;
  includeContents?: boolean | undefined;
}

/** An export ready to download. */
export interface PortableExport {
  body: string | Uint8Array;
  contentType: string;
  fileName: string;
}

function slugOf(name: string, fallback: string): string {
  const slug = name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40);
  return slug || fallback;
}

/** Hands out file-local refs, one per object, unique per kind. */
class Refs {
  private readonly used = new Set<string>();
  private readonly byId = new Map<string, string>();
  of(kind: "app" | "kb" | "plugin" | "workflow", id: string, name: string): string {
    const known = this.byId.get(id);
    if (known) return known;
    const base = `${kind}:${slugOf(name, kind)}`;
    let ref = base;
    for (let n = 2; this.used.has(ref); n++) ref = `${base}-${n}`;
    this.used.add(ref);
    this.byId.set(id, ref);
    return ref;
  }
  get(id: string): string | undefined {
    return this.byId.get(id);
  }
}

const secretSlug = (value: string) =>
  value
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 24) || "X";

/**
 * Builds a portable file of the chosen apps, workflows, plugins and knowledge bases and of
 * everything they refer to (an app's knowledge bases and custom plugins, a workflow's apps,
 * knowledge bases and plugins). Secrets are never written: plugin header values and robot
 * webhooks become `${secret:NAME}` placeholders, listed with what they are for. Databases,
 * channel clients and an app's advanced configuration stay behind (they belong to the space).
 */
export async function exportPortable(deps: Pick<Deps, "db" | "files" | "secrets" | "now">, auth: Auth, request: ExportRequest): Promise<PortableExport> {
  const chosen = {
    apps: new Map<string, AppRow>(),
    workflows: new Map<string, WorkflowRow>(),
    plugins: new Map<string, StoredPlugin>(),
    kbs: new Map<string, KnowledgeBaseRow>(),
  };
  if (request.space) {
    if (holds(auth, "apps.view")) {
      for (const row of await deps.db
        .select()
        .from(apps)
        .where(and(eq(apps.spaceId, auth.spaceId), ne(apps.type, "WORKFLOW"), rangeCondition(auth, "app", apps)))
        .orderBy(asc(apps.createdAt)))
        chosen.apps.set(row.id, row);
    }
    if (holds(auth, "workflow.view")) {
      for (const row of await deps.db
        .select()
        .from(workflows)
        .where(and(eq(workflows.spaceId, auth.spaceId), workflowRange(auth)))
        .orderBy(asc(workflows.createdAt)))
        chosen.workflows.set(row.id, row);
    }
    if (holds(auth, "plugins.view")) {
      const rows = await deps.db
        .select({ id: plugins.id })
        .from(plugins)
        .where(and(eq(plugins.spaceId, auth.spaceId), rangeCondition(auth, null, plugins)))
        .orderBy(asc(plugins.createdAt));
      for (const row of rows) chosen.plugins.set(row.id, await loadPlugin(deps, auth, row.id));
    }
    if (holds(auth, "knowledge.view")) {
      for (const row of await deps.db
        .select()
        .from(knowledgeBases)
        .where(and(eq(knowledgeBases.spaceId, auth.spaceId), rangeCondition(auth, "knowledgeBase", knowledgeBases)))
        .orderBy(asc(knowledgeBases.createdAt)))
        chosen.kbs.set(row.id, row);
    }
  }
  const ids = (list: string[] | undefined) => [...new Set(list ?? [])];
  if (ids(request.appIds).length > 0) requireGrant(auth, "apps.view");
  for (const id of ids(request.appIds)) {
    const row = await loadApp(deps, auth, id);
    if (row.type === "WORKFLOW") throw fail.notFound("app");
    chosen.apps.set(row.id, row);
  }
  if (ids(request.workflowIds).length > 0) requireGrant(auth, "workflow.view");
  for (const id of ids(request.workflowIds)) chosen.workflows.set(id, await loadWorkflow(deps, auth, id));
  if (ids(request.pluginIds).length > 0) requireGrant(auth, "plugins.view");
  for (const id of ids(request.pluginIds)) chosen.plugins.set(id, await loadPlugin(deps, auth, id));
  if (ids(request.knowledgeBaseIds).length > 0) requireGrant(auth, "knowledge.view");
  for (const id of ids(request.knowledgeBaseIds)) chosen.kbs.set(id, await loadKnowledgeBase(deps, auth, id));

  // What the chosen objects refer to comes along, when the caller may read it; a reference the
  // caller cannot reach (out of range, or deleted since) is left out.
  const reachableKb = async (id: string) => {
    if (chosen.kbs.has(id)) return true;
    try {
      chosen.kbs.set(id, await loadKnowledgeBase(deps, auth, id));
      return true;
    } catch {
      return false;
    }
  };
  const pluginByCode = new Map<string, StoredPlugin>([...chosen.plugins.values()].map((plugin) => [plugin.code, plugin]));
  const reachablePlugin = async (code: string) => {
    if (pluginByCode.has(code)) return true;
    const [found] = await loadPluginsByCode(deps, auth.spaceId, [code]);
    if (!found) return false;
    try {
      const plugin = await loadPlugin(deps, auth, found.id);
      chosen.plugins.set(plugin.id, plugin);
      pluginByCode.set(plugin.code, plugin);
      return true;
    } catch {
      return false;
    }
  };
  for (const workflow of chosen.workflows.values()) {
    for (const element of graphOf(workflow).elements) {
      const config = element.config as Record<string, unknown>;
      if (element.type === "app" && typeof config.appId === "string" && !chosen.apps.has(config.appId)) {
        try {
          const row = await loadApp(deps, auth, config.appId);
          if (row.type !== "WORKFLOW") chosen.apps.set(row.id, row);
        } catch {
          // unreachable: dropped below
        }
      }
    }
  }

  const refs = new Refs();
  const secrets: ExportedSecret[] = [];
  const secretNames = new Set<string>();
  const secretName = (wanted: string) => {
    let name = wanted;
    for (let n = 2; secretNames.has(name); n++) name = `${wanted}_${n}`;
    secretNames.add(name);
    return name;
  };

  const portableApps: PortableApp[] = [];
  for (const row of chosen.apps.values()) {
    const settings = settingsOf(row);
    const kbRefs: string[] = [];
    for (const id of settings.knowledgeBaseIds) if (await reachableKb(id)) kbRefs.push(id);
    const pluginRefs: string[] = [];
    for (const code of settings.plugins) {
      if (findBuiltin(code)) pluginRefs.push(`builtin:${code}`);
      else if (await reachablePlugin(code)) pluginRefs.push(code);
    }
    portableApps.push({
      ref: refs.of("app", row.id, row.name),
      type: row.type as PortableApp["type"],
      name: settings.name,
      description: settings.description,
      openingIntroduction: settings.openingIntroduction,
      avatarUrl: settings.avatarUrl,
      category: settings.category,
      settingsPrompt: settings.settingsPrompt,
      defaultModel: settings.defaultModel,
      optionalModels: settings.optionalModels,
      memoryTurns: settings.memoryTurns,
      memoryRetentionMinutes: settings.memoryRetentionMinutes,
      temperature: settings.temperature,
      retrievalLength: settings.retrievalLength,
      retrievalMode: settings.retrievalMode,
      similarityThreshold: settings.similarityThreshold,
      semanticCount: settings.semanticCount,
      fullTextCount: settings.fullTextCount,
      rerankModel: settings.rerankModel,
      rerankThreshold: settings.rerankThreshold,
      noHitStrategy: settings.noHitStrategy,
      noHitText: settings.noHitText,
      citationEnabled: settings.citationEnabled,
      citationThreshold: settings.citationThreshold,
      multiRoundThinking: settings.multiRoundThinking,
      maxRounds: settings.maxRounds,
      pluginStrategy: settings.pluginStrategy,
      bottomSlogan: settings.bottomSlogan,
      // Ids for now: turned into refs once every object has its ref (below).
      knowledgeBases: kbRefs,
      plugins: pluginRefs,
    });
  }

  const portableWorkflows: PortableWorkflow[] = [];
  for (const row of chosen.workflows.values()) {
    const ref = refs.of("workflow", row.id, row.name);
    const graph = graphOf(row);
    const elements: PortableWorkflow["elements"] = [];
    for (const element of graph.elements) {
      const config = { ...(element.config as Record<string, unknown>) };
      if (element.type === "app" && typeof config.appId === "string") {
        if (chosen.apps.has(config.appId)) config.appId = { id: config.appId };
        else delete config.appId;
      }
      if (element.type === "knowledge_base" && Array.isArray(config.knowledgeBaseIds)) {
        const kept: unknown[] = [];
        for (const id of config.knowledgeBaseIds as string[]) if (await reachableKb(id)) kept.push({ id });
        config.knowledgeBaseIds = kept;
      }
      if (element.type === "plugin" && typeof config.pluginCode === "string") {
        const code = config.pluginCode;
        if (findBuiltin(code)) config.pluginCode = `builtin:${code}`;
        else if (await reachablePlugin(code)) config.pluginCode = { code };
        else delete config.pluginCode;
      }
      if (element.type === "database") delete config.databaseId;
      if (element.type === "channel_send") {
        delete config.clientId;
        for (const [key, label] of [
          ["webhookUrl", "robot webhook URL"],
          ["webhookSecret", "robot signing secret"],
        ] as const) {
          if (typeof config[key] === "string" && config[key] !== "") {
            const name = secretName(`WORKFLOW_${secretSlug(row.name)}_${secretSlug(element.id)}_${secretSlug(key)}`);
            secrets.push({ name, description: `The ${label} of node "${element.id}" in workflow "${row.name}"` });
            config[key] = placeholderOf(name);
          }
        }
      }
      elements.push({ id: element.id, type: element.type, config, ...(element.position ? { position: element.position } : {}) });
    }
    portableWorkflows.push({
      ref,
      name: row.name,
      description: row.description,
      avatarUrl: row.avatarUrl,
      category: row.category,
      chatApp: row.appId !== null,
      elements,
      lines: graph.lines,
    });
  }

  for (const kb of chosen.kbs.values()) refs.of("kb", kb.id, kb.name);
  const portablePlugins = [...chosen.plugins.values()].map((plugin) => {
    const ref = refs.of("plugin", plugin.id, plugin.name);
    const mapped = pluginToPortable(plugin, ref, (header) => secretName(`PLUGIN_${secretSlug(plugin.name)}_${secretSlug(header)}`));
    secrets.push(...mapped.secrets);
    return mapped.plugin;
  });
  // Ids and codes to refs, now that every object has one.
  const refOfCode = (code: string) => refs.get(pluginByCode.get(code)?.id ?? "");
  for (const app of portableApps) {
    app.knowledgeBases = app.knowledgeBases.map((id) => refs.get(id)!);
    app.plugins = app.plugins.map((value) => (value.startsWith("builtin:") ? value : refOfCode(value)!));
  }
  for (const workflow of portableWorkflows) {
    for (const element of workflow.elements) {
      const config = element.config;
      if (typeof config.appId === "object" && config.appId) config.appId = refs.get((config.appId as { id: string }).id);
      if (Array.isArray(config.knowledgeBaseIds)) config.knowledgeBaseIds = (config.knowledgeBaseIds as Array<{ id: string }>).map((item) => refs.get(item.id));
      if (typeof config.pluginCode === "object" && config.pluginCode) config.pluginCode = refOfCode((config.pluginCode as { code: string }).code);
    }
  }

  const contents = new Map<string, string>();
  const portableKbs = [];
  for (const kb of chosen.kbs.values()) {
    const ref = refs.get(kb.id)!;
    const path = `knowledge/${ref.slice("kb:".length)}.json`;
    if (request.includeContents) contents.set(path, JSON.stringify(await contentsOf(deps, kb)));
    portableKbs.push({
      ref,
      name: kb.name,
      description: kb.description,
      embeddingModel: kb.embeddingModel,
      chunkTokens: kb.chunkTokens,
      chunkOverlap: kb.chunkOverlap,
      ...(request.includeContents ? { contents: path } : {}),
    });
  }

  const document: PortableDocument = {
    parley: PORTABLE_VERSION,
    kind: "bundle",
    exportedAt: deps.now().toISOString(),
    secrets,
    knowledgeBases: portableKbs,
    plugins: portablePlugins,
    apps: portableApps,
    workflows: portableWorkflows,
  };
  const yaml = stringify(document, { lineWidth: 0 });
  const stamp = deps.now().toISOString().slice(0, 10);
  if (request.includeContents) return { body: writeBundle(yaml, contents), contentType: "application/zip", fileName: `parley-export-${stamp}.zip` };
  return { body: yaml, contentType: "application/yaml; charset=utf-8", fileName: `parley-export-${stamp}.yaml` };
}

/**
 * A knowledge base's contents as they read now: each file's segments (or pairs, rows) in order,
 * with their metadata, so an import indexes exactly these segments again. A file not yet indexed
 * contributes its prepared records or text.
 */
async function contentsOf(deps: Pick<Deps, "db" | "files">, kb: KnowledgeBaseRow): Promise<PortableContents> {
  const files = await deps.db
    .select()
    .from(knowledgeFiles)
    .where(and(eq(knowledgeFiles.knowledgeBaseId, kb.id), inArray(knowledgeFiles.status, ["effective", "pending", "processing"])))
    .orderBy(asc(knowledgeFiles.createdAt));
  const out: PortableContents = { files: [] };
  for (const file of files) {
    let records: PortableContents["files"][number]["records"] = [];
    if (file.status === "effective") {
      records = (await chunksOfFileRows(deps, file.id)).map((chunk) => ({
        content: chunk.content,
        metadata: metadataOf(chunk),
        ...(chunk.enabled ? {} : { enabled: false }),
      }));
    } else {
      const prepared = await loadPrepared(deps, kb.id, file.id);
      if (prepared?.kind === "records")
        records = prepared.records.map((record) => ({ content: record.content, ...(record.metadata ? { metadata: record.metadata } : {}) }));
      else if (prepared?.kind === "text") records = [{ content: prepared.text, metadata: { prepared: "text" } }];
    }
    let options: Record<string, unknown> = {};
    try {
      options = JSON.parse(file.options) as Record<string, unknown>;
    } catch {
      options = {};
    }
    out.files.push({ name: file.name, type: file.type, source: file.source, options, records });
  }
  return out;
}
