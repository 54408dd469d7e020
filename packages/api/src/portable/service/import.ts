import { and, eq, inArray } from "drizzle-orm";
import { parse as parseYaml } from "yaml";
import type { z } from "@hono/zod-openapi";
import { newId, newShortCode } from "../../crypto";
import type { Db } from "../../db/client";
import { apps, knowledgeBases, knowledgeFiles, plugins, workflows } from "../../db/schema/index";
import { ServiceError } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import { jobsOf } from "../../kernel/jobs";
import { type AppSettings, checkAppSettings, defaultAppSettings, normalizeAppSettings } from "../../apps/service/rules";
import { FILE_NAME_PATTERN, INDEX_FILE_JOB } from "../../knowledge/service/files";
import { type PreparedContent, type PreparedRecord, removePrepared, savePrepared } from "../../knowledge/service/prepared";
import { estimateTokens } from "../../platform/llm/tokens";
import type { MessageId } from "../../i18n/catalogue";
import { checkPlugin, sealHeaders } from "../../plugins/service/plugins";
import { findBuiltin } from "../../plugins/service/builtins/index";
import { checkQuota, withQuota } from "../../plans/service/quotas";
import { graphIssues, infoIssues } from "../../workflows/service/validate";
import { issueError } from "../../workflows/service/workflows";
import { readBundle } from "../archive";
import { PLACEHOLDER_PATTERN, PORTABLE_LIMITS, type PortableContents, type PortableDocument, portableContentsSchema, portableDocumentSchema } from "../format";
import { migrateDocument } from "../migrations";
import { pluginFromPortable } from "../plugin-mapping";
import { requireGrant } from "./access";

/** What an import is given: the file's bytes, the placeholder values, and whether only to plan. */
export interface ImportRequest {
  file: Uint8Array;
  secrets?: Record<string, string> | undefined;
  dryRun?: boolean | undefined;
}

/** One object an import creates (or, in a dry run, would create). */
export interface PlannedObject {
  ref: string;
  name: string;
  id: string | null;
  code: string | null;
}

/** What an import did or would do. */
export interface ImportResult {
  dryRun: boolean;
  fromVersion: number;
  apps: PlannedObject[];
  workflows: PlannedObject[];
  plugins: PlannedObject[];
  knowledgeBases: PlannedObject[];
  knowledgeFiles: number;
  secrets: Array<{ name: string; description: string; provided: boolean }>;
}

const invalid = (messageId: MessageId, field: string, params: Record<string, string | number> = {}) =>
  new ServiceError("validation", messageId, params, { field });

function issuePath(issue: z.core.$ZodIssue): string {
  return issue.path.map(String).join(".") || "(root)";
}

/** Parses YAML text with aliases bounded (an alias bomb is refused, not expanded). */
function parseText(text: string): unknown {
  try {
    return parseYaml(text, { maxAliasCount: 100, uniqueKeys: true, prettyErrors: false });
  } catch (error) {
    throw invalid("portable_yaml_invalid", "file", {
      reason: String((error as Error).message ?? error)
        .split("\n")[0]!
        .slice(0, 200),
    });
  }
}

function countObjects(document: Record<string, unknown>): number {
  return ["apps", "workflows", "plugins", "knowledgeBases"].reduce(
    (total, key) => total + (Array.isArray(document[key]) ? (document[key] as unknown[]).length : 0),
    0,
  );
}

/** Unique name in the space: the name itself, else "name (2)", "name (3)" … within `max` characters. */
function uniqueName(name: string, taken: Set<string>, max: number): string {
  if (!taken.has(name)) {
    taken.add(name);
    return name;
  }
  for (let n = 2; ; n++) {
    const suffix = ` (${n})`;
    const candidate = `${[...name].slice(0, max - suffix.length).join("")}${suffix}`;
    if (!taken.has(candidate)) {
      taken.add(candidate);
      return candidate;
    }
  }
}

/**
 * Imports a portable file (YAML, or a zip bundle with knowledge contents) into the caller's space.
 * Everything is checked first — format version (older migrated, newer refused), limits, every
 * reference resolving inside the file, placeholders all filled, each object by the rules its create
 * API applies, the plan's quotas — then every row is written in one transaction, with new ids and
 * codes. Nothing is half-imported: a refusal writes nothing. Knowledge contents are indexed by jobs
 * queued after the commit. Same-named objects are imported as new ones named "name (2)".
 */
export async function importPortable(
  deps: Pick<Deps, "db" | "files" | "knowledge" | "now" | "secrets"> & Partial<Pick<Deps, "jobs">>,
  auth: Auth,
  request: ImportRequest,
): Promise<ImportResult> {
  const bundle = readBundle(request.file);
  const { document: migrated, fromVersion } = migrateDocument(parseText(bundle.yaml));
  const total = countObjects(migrated);
  if (total > PORTABLE_LIMITS.objects) throw invalid("portable_too_many_objects", "file", { count: total, limit: PORTABLE_LIMITS.objects });
  const parsed = portableDocumentSchema.safeParse(migrated);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalid("portable_field_invalid", issuePath(issue), { path: issuePath(issue), reason: issue.message });
  }
  const document: PortableDocument = parsed.data;
  if (document.apps.length > 0) requireGrant(auth, "apps.edit");
  if (document.workflows.length > 0) requireGrant(auth, "workflow.edit");
  if (document.plugins.length > 0) requireGrant(auth, "plugins.edit");
  if (document.knowledgeBases.length > 0) requireGrant(auth, "knowledge.edit");

  // Refs: unique, and every reference must name an object of the file.
  const seen = new Set<string>();
  for (const [list, items] of Object.entries({
    knowledgeBases: document.knowledgeBases,
    plugins: document.plugins,
    apps: document.apps,
    workflows: document.workflows,
  })) {
    items.forEach((item, index) => {
      if (seen.has(item.ref)) throw invalid("portable_ref_duplicate", `${list}.${index}.ref`, { ref: item.ref });
      seen.add(item.ref);
    });
  }
  const resolve = (value: unknown, kind: "app" | "kb" | "plugin", field: string): string => {
    const text = String(value);
    if (!text.startsWith(`${kind}:`) || !seen.has(text)) throw invalid("portable_reference_unknown", field, { reference: text.slice(0, 100), field });
    return text;
  };

  // Placeholders: declared once, filled by the request (a dry run lists them instead).
  const declared = new Map<string, string>();
  document.secrets.forEach((secret, index) => {
    if (declared.has(secret.name)) throw invalid("portable_secret_duplicate", `secrets.${index}.name`, { name: secret.name });
    declared.set(secret.name, secret.description);
  });
  const given = request.secrets ?? {};
  const fill = (value: string, field: string): string => {
    const match = PLACEHOLDER_PATTERN.exec(value);
    if (!match) {
      if (value.includes("${secret:")) throw invalid("portable_placeholder_invalid", field, { field });
      return value;
    }
    const name = match[1]!;
    if (!declared.has(name)) throw invalid("portable_secret_undeclared", field, { name, field });
    const supplied = given[name];
    if (supplied === undefined || supplied === "") {
      if (request.dryRun) return "";
      throw invalid("portable_secret_missing", `secrets.${name}`, { name });
    }
    return supplied;
  };
  for (const name of declared.keys()) {
    if (!request.dryRun && (given[name] === undefined || given[name] === "")) throw invalid("portable_secret_missing", `secrets.${name}`, { name });
  }

  const now = deps.now().toISOString();
  const taken = async <T extends { name: unknown }>(rows: T[]) => new Set(rows.map((row) => String(row.name)));
  const names = {
    apps: await taken(await deps.db.select({ name: apps.name }).from(apps).where(eq(apps.spaceId, auth.spaceId))),
    workflows: await taken(await deps.db.select({ name: workflows.name }).from(workflows).where(eq(workflows.spaceId, auth.spaceId))),
    plugins: await taken(await deps.db.select({ name: plugins.name }).from(plugins).where(eq(plugins.spaceId, auth.spaceId))),
    kbs: await taken(await deps.db.select({ name: knowledgeBases.name }).from(knowledgeBases).where(eq(knowledgeBases.spaceId, auth.spaceId))),
  };

  // Knowledge bases and their contents.
  const kbIds = new Map<string, string>();
  const kbRows: Array<typeof knowledgeBases.$inferInsert> = [];
  const fileRows: Array<typeof knowledgeFiles.$inferInsert> = [];
  const prepared: Array<{ knowledgeBaseId: string; fileId: string; content: PreparedContent }> = [];
  let tokens = 0;
  for (const [index, kb] of document.knowledgeBases.entries()) {
    const field = `knowledgeBases.${index}`;
    const name = kb.name.trim();
    if (!name) throw invalid("field_required", `${field}.name`, { field: "name" });
    if (kb.chunkOverlap >= kb.chunkTokens) throw invalid("chunk_overlap_too_large", `${field}.chunkOverlap`);
    const id = newId("kb");
    kbIds.set(kb.ref, id);
    const embedder = kb.embeddingModel && deps.knowledge.embedder(kb.embeddingModel) ? kb.embeddingModel : deps.knowledge.defaultEmbedder.id;
    kbRows.push({
      id,
      spaceId: auth.spaceId,
      code: newShortCode(10),
      name: uniqueName(name, names.kbs, 100),
      description: kb.description.trim(),
      embeddingModel: embedder,
      chunkTokens: kb.chunkTokens,
      chunkOverlap: kb.chunkOverlap,
      appId: null,
      createdBy: auth.userId,
      createdAt: now,
      updatedAt: now,
    });
    if (!kb.contents) continue;
    const entry = bundle.entries.get(kb.contents);
    if (!entry) throw invalid("portable_contents_missing", `${field}.contents`, { path: kb.contents.slice(0, 200) });
    let contents: PortableContents;
    try {
      contents = portableContentsSchema.parse(JSON.parse(new TextDecoder().decode(entry)));
    } catch {
      throw invalid("portable_contents_invalid", `${field}.contents`, { path: kb.contents.slice(0, 200) });
    }
    for (const [fileIndex, file] of contents.files.entries()) {
      if (!FILE_NAME_PATTERN.test(file.name)) throw invalid("file_name_invalid", `${field}.contents.files.${fileIndex}.name`);
      const fileId = newId("kf");
      const content = preparedOf(file.records);
      const fileTokens =
        content.kind === "text" ? estimateTokens(content.text) : content.records.reduce((sum, record) => sum + estimateTokens(record.content), 0);
      tokens += fileTokens;
      prepared.push({ knowledgeBaseId: id, fileId, content });
      fileRows.push({
        id: fileId,
        spaceId: auth.spaceId,
        knowledgeBaseId: id,
        name: file.name,
        type: file.type,
        source: file.source,
        sizeBytes: 0,
        status: "processing",
        tokenCount: fileTokens,
        options: JSON.stringify(file.options),
        createdAt: now,
        updatedAt: now,
      });
    }
  }
  if (fileRows.length > PORTABLE_LIMITS.knowledgeFiles) throw invalid("portable_too_many_files", "file", { limit: PORTABLE_LIMITS.knowledgeFiles });

  // Plugins, checked by the create path's rules with their placeholders filled.
  const pluginCodes = new Map<string, string>();
  const pluginRows: Array<typeof plugins.$inferInsert> = [];
  for (const [index, plugin] of document.plugins.entries()) {
    const input = pluginFromPortable(plugin, fill);
    let checked: ReturnType<typeof checkPlugin>;
    try {
      checked = checkPlugin(request.dryRun ? { ...input, headers: Object.fromEntries(Object.keys(input.headers).map((name) => [name, "x"])) } : input);
    } catch (error) {
      throw prefixed(error, `plugins.${index}`);
    }
    const code = newPluginCode();
    pluginCodes.set(plugin.ref, code);
    pluginRows.push({
      id: newId("plg"),
      spaceId: auth.spaceId,
      code,
      enabled: plugin.enabled,
      name: uniqueName(checked.name, names.plugins, 100),
      description: checked.description,
      avatarUrl: checked.avatar,
      requestUrl: checked.requestUrl,
      requestMethod: checked.requestMethod,
      requestParams: JSON.stringify(checked.requestParams),
      responseParams: JSON.stringify(checked.responseParams),
      headers: sealHeaders(deps.secrets, request.dryRun ? {} : checked.headers),
      kind: checked.kind,
      mcpTransport: checked.mcp?.transport ?? "auto",
      mcpTools: JSON.stringify(checked.mcp?.tools ?? []),
      createdBy: auth.userId,
      createdAt: now,
      updatedAt: now,
    });
  }
  const pluginValue = (value: string, field: string): string => {
    if (value.startsWith("builtin:")) {
      const name = value.slice("builtin:".length);
      if (!findBuiltin(name)) throw invalid("portable_reference_unknown", field, { reference: value.slice(0, 100), field });
      return name;
    }
    return pluginCodes.get(resolve(value, "plugin", field))!;
  };

  // Apps, checked by the create path's rules.
  const appIds = new Map<string, string>();
  const appRows: Array<typeof apps.$inferInsert> = [];
  for (const [index, app] of document.apps.entries()) {
    const field = `apps.${index}`;
    const { ref: _ref, type, knowledgeBases: kbRefs, plugins: pluginRefs, ...given } = app;
    const defined = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) as Partial<AppSettings>;
    const settings = normalizeAppSettings({
      ...defaultAppSettings(),
      ...defined,
      knowledgeBaseIds: kbRefs.map((value, at) => kbIds.get(resolve(value, "kb", `${field}.knowledgeBases.${at}`))!),
      plugins: pluginRefs.map((value, at) => pluginValue(value, `${field}.plugins.${at}`)),
      databaseIds: [],
      isPublic: false,
    });
    try {
      checkAppSettings(settings);
    } catch (error) {
      throw prefixed(error, field);
    }
    const id = newId("app");
    appIds.set(app.ref, id);
    appRows.push({
      id,
      spaceId: auth.spaceId,
      code: newShortCode(10),
      type,
      ...settings,
      name: uniqueName(settings.name, names.apps, 50),
      optionalModels: JSON.stringify(settings.optionalModels),
      knowledgeBaseIds: JSON.stringify(settings.knowledgeBaseIds),
      databaseIds: "[]",
      plugins: JSON.stringify(settings.plugins),
      createdBy: auth.userId,
      createdAt: now,
      updatedAt: now,
    });
  }

  // Workflows: the card and graph rules of the editor, references remapped, secrets sealed.
  const workflowRows: Array<typeof workflows.$inferInsert> = [];
  const workflowPlan: PlannedObject[] = [];
  for (const [index, workflow] of document.workflows.entries()) {
    const field = `workflows.${index}`;
    const info = {
      name: workflow.name.trim(),
      description: workflow.description.trim(),
      avatarUrl: workflow.avatarUrl.trim(),
      category: workflow.category.trim(),
    };
    const infoProblem = infoIssues(info)[0];
    if (infoProblem) throw prefixed(issueError(infoProblem), field);
    const elements = workflow.elements.map((element, at) => {
      const config = { ...element.config };
      const place = `${field}.elements.${at}.config`;
      if (element.type === "app" && config.appId !== undefined) config.appId = appIds.get(resolve(config.appId, "app", `${place}.appId`));
      if (element.type === "knowledge_base" && config.knowledgeBaseIds !== undefined) {
        if (!Array.isArray(config.knowledgeBaseIds))
          throw invalid("portable_reference_unknown", `${place}.knowledgeBaseIds`, { reference: "?", field: `${place}.knowledgeBaseIds` });
        config.knowledgeBaseIds = config.knowledgeBaseIds.map((value, at2) => kbIds.get(resolve(value, "kb", `${place}.knowledgeBaseIds.${at2}`)));
      }
      if (element.type === "plugin" && config.pluginCode !== undefined) config.pluginCode = pluginValue(String(config.pluginCode), `${place}.pluginCode`);
      if (element.type === "database" && config.databaseId !== undefined)
        throw invalid("portable_reference_unknown", `${place}.databaseId`, {
          reference: String(config.databaseId).slice(0, 100),
          field: `${place}.databaseId`,
        });
      if (element.type === "channel_send") {
        if (config.clientId !== undefined)
          throw invalid("portable_reference_unknown", `${place}.clientId`, { reference: String(config.clientId).slice(0, 100), field: `${place}.clientId` });
        if (typeof config.webhookUrl === "string") config.webhookUrl = fill(config.webhookUrl, `${place}.webhookUrl`);
        if (typeof config.webhookSecret === "string") config.webhookSecret = fill(config.webhookSecret, `${place}.webhookSecret`);
      }
      return { ...element, config };
    });
    const structural = graphIssues({ elements: elements as never, lines: workflow.lines as never });
    const fatal = structural.issues.find((issue) =>
      [
        "workflow_node_type_unknown",
        "workflow_node_config_invalid",
        "workflow_node_id_duplicate",
        "workflow_node_id_invalid",
        "workflow_line_duplicate",
      ].includes(issue.code),
    );
    if (fatal) throw prefixed(issueError(fatal), field);
    // Sealed after the shape check, as the editor's save does (a sealed value is longer than the secret).
    for (const element of structural.elements) {
      const secret = (element.config as Record<string, unknown>).webhookSecret;
      if (typeof secret === "string" && secret !== "") (element.config as Record<string, unknown>).webhookSecret = `sealed:${deps.secrets.seal(secret)}`;
    }
    const id = newId("wf");
    const name = uniqueName(info.name, names.workflows, 50);
    let appId: string | null = null;
    if (workflow.chatApp) {
      appId = newId("app");
      appRows.push({
        id: appId,
        spaceId: auth.spaceId,
        code: newShortCode(8),
        name,
        type: "WORKFLOW",
        description: info.description,
        openingIntroduction: info.description,
        avatarUrl: info.avatarUrl,
        category: info.category,
        settingsPrompt: `Workflow ${id}`,
        createdBy: auth.userId,
        createdAt: now,
        updatedAt: now,
      });
    }
    workflowRows.push({
      id,
      spaceId: auth.spaceId,
      ...info,
      name,
      elements: JSON.stringify(structural.elements),
      lines: JSON.stringify(workflow.lines),
      appId,
      createdBy: auth.userId,
      createdAt: now,
      updatedAt: now,
    });
    workflowPlan.push({ ref: workflow.ref, name, id, code: null });
  }

  const created = (rows: Array<{ id?: string; name: string; code?: string | null }>, refsOf: Array<{ ref: string }>): PlannedObject[] =>
    refsOf.map((item, index) => ({
      ref: item.ref,
      name: rows[index]!.name,
      id: request.dryRun ? null : (rows[index]!.id ?? null),
      code: request.dryRun ? null : (rows[index]!.code ?? null),
    }));
  const result: ImportResult = {
    dryRun: request.dryRun === true,
    fromVersion,
    apps: created(
      appRows.filter((row) => row.type !== "WORKFLOW"),
      document.apps,
    ),
    workflows: request.dryRun ? workflowPlan.map((item) => ({ ...item, id: null })) : workflowPlan,
    plugins: created(pluginRows, document.plugins),
    knowledgeBases: created(kbRows, document.knowledgeBases),
    knowledgeFiles: fileRows.length,
    secrets: [...declared].map(([name, description]) => ({ name, description, provided: given[name] !== undefined && given[name] !== "" })),
  };
  const uses = {
    apps: document.apps.length,
    workflows: document.workflows.length,
    customPlugins: document.plugins.length,
    knowledgeEntries: fileRows.length,
    knowledgeTokens: tokens,
  };
  if (request.dryRun) {
    for (const [key, adding] of Object.entries(uses)) await checkQuota(deps, auth.spaceId, key as keyof typeof uses, adding);
    return result;
  }

  await withQuota(deps, auth.spaceId, uses, async () => {
    for (const item of prepared) await savePrepared(deps, item.knowledgeBaseId, item.fileId, item.content);
    try {
      await atomically(deps.db, (tx) => [
        ...kbRows.map((row) => tx.insert(knowledgeBases).values(row)),
        ...fileRows.map((row) => tx.insert(knowledgeFiles).values(row)),
        ...pluginRows.map((row) => tx.insert(plugins).values(row)),
        ...appRows.map((row) => tx.insert(apps).values(row)),
        ...workflowRows.map((row) => tx.insert(workflows).values(row)),
      ]);
    } catch (error) {
      for (const item of prepared) await removePrepared(deps, item.knowledgeBaseId, item.fileId).catch(() => undefined);
      throw error;
    }
  });
  // Indexing follows the commit; a file whose job cannot be queued waits as pending, to be confirmed again.
  for (const row of fileRows) {
    try {
      await jobsOf(deps).enqueue(INDEX_FILE_JOB, { fileId: row.id }, { spaceId: auth.spaceId });
    } catch {
      await deps.db
        .update(knowledgeFiles)
        .set({ status: "pending" })
        .where(and(eq(knowledgeFiles.id, row.id!), inArray(knowledgeFiles.status, ["processing"])));
    }
  }
  return result;
}

/** Records of the bundle as prepared content: one chunk each, searched as they were. */
function preparedOf(records: PortableContents["files"][number]["records"]): PreparedContent {
  if (records.length === 1 && records[0]!.metadata?.prepared === "text") return { kind: "text", text: records[0]!.content };
  return {
    kind: "records",
    records: records.map((record): PreparedRecord => {
      const metadata = { ...(record.metadata ?? {}) };
      const headings = Array.isArray(metadata.headings) ? (metadata.headings as unknown[]).map(String) : [];
      const body = metadata.searchMethod === "question" && typeof metadata.question === "string" ? metadata.question : record.content;
      return {
        content: record.content,
        ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
        ...(headings.length > 0 || body !== record.content ? { indexText: headings.length > 0 ? `${headings.join(" / ")}\n${body}` : body } : {}),
      };
    }),
  };
}

/** A create path's validation error, its field placed inside the file (`apps.0.name`). */
function prefixed(error: unknown, at: string): unknown {
  if (error instanceof ServiceError && error.kind === "validation") {
    return new ServiceError(error.kind, error.messageId, error.params, { ...error.extra, field: `${at}.${error.extra.field ?? ""}`.replace(/\.$/, "") });
  }
  return error;
}

function newPluginCode(): string {
  return `plg_${newShortCode(26).toLowerCase()}`;
}

/** Inserts run in one transaction on either driver (better-sqlite3's are synchronous). */
async function atomically(db: Db, statements: (tx: Db) => Array<{ run(): unknown }>): Promise<void> {
  await db.transaction((tx) => {
    const results = statements(tx as unknown as Db).map((statement) => statement.run());
    return (results.some((result) => result instanceof Promise) ? Promise.all(results) : undefined) as never;
  });
}
