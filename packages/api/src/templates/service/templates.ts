import { and, asc, eq } from "drizzle-orm";
import { newId } from "../../crypto";
import type { Db } from "../../db/client";
import { keywordMatch } from "../../db/query-helpers";
import { apps, templates, workflows } from "../../db/schema/index";
import { fail } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import type { Language } from "../../i18n/language";
import { defaultAdvancedConfig, parseAdvancedConfig, putAdvancedConfig } from "../../apps/service/advanced-config";
import { createApp } from "../../apps/service/apps";
import { loadApp, parseJsonArray, settingsOf } from "../../apps/service/load";
import { createKnowledgeBase } from "../../knowledge/service/knowledge-bases";
import { importQa } from "../../knowledge/service/imports";
import { createWorkflow, graphOf, loadWorkflow } from "../../workflows/service/workflows";
import { saveSchedule } from "../../workflows/scheduler/schedule";
import type { RawElement } from "../../workflows/service/validate";
import type { WorkflowLine } from "../../workflows/model";
import { avatarDataUrl } from "./avatar";
import { type Bilingual, groupName, localize, shippedTemplates, templateGroups } from "./catalogue";

type Row = typeof templates.$inferSelect;

/** What an app template's payload holds. */
interface AppPayload {
  app: Record<string, unknown> & { type?: "LIGHT" | "KNOWLEDGE" | "AGENT" };
  advancedConfig?: { manualService?: Record<string, unknown>; database?: { enabled: boolean } };
  knowledgeBase?: { name: Bilingual; description?: Bilingual; qaSample?: Array<[Bilingual, Bilingual]> };
  nextStep?: Bilingual;
}

/** What a workflow template's payload holds. */
interface WorkflowPayload {
  workflow: { elements: RawElement[]; lines: WorkflowLine[]; cron?: string; cronTimezone?: string };
  nextStep?: Bilingual;
}

const seeded = new WeakMap<Db, Promise<void>>();

/**
 * Writes the shipped templates into the table: missing ones are added, ones whose data file
 * version rose replace the stored row (an upgrade), the rest are left alone. Safe to run on
 * every start.
 */
export async function seedTemplates(deps: Pick<Deps, "db" | "now">): Promise<void> {
  const now = deps.now().toISOString();
  const stored = new Map(
    (await deps.db.select({ code: templates.code, version: templates.version, source: templates.source }).from(templates)).map((row) => [row.code, row]),
  );
  for (const [index, template] of shippedTemplates.entries()) {
    const values = {
      kind: template.kind,
      groupId: template.group,
      source: "shipped" as const,
      version: template.version,
      nameEn: template.name.en,
      nameZh: template.name.zh,
      descriptionEn: template.description.en,
      descriptionZh: template.description.zh,
      avatarUrl: avatarDataUrl(template.name.en),
      category: template.category,
      payload: JSON.stringify(template.payload),
      sortOrder: index,
      updatedAt: now,
    };
    const existing = stored.get(template.code);
    if (!existing)
      await deps.db
        .insert(templates)
        .values({ id: newId("tpl"), code: template.code, ...values, createdAt: now })
        .onConflictDoNothing();
    else if (existing.source === "shipped" && existing.version < template.version)
      await deps.db.update(templates).set(values).where(eq(templates.code, template.code));
  }
}

/**
 * Seeds once per database in this process: the server calls it on start, and reads call it too
 * so a store opened without the server (tests, scripts) has its templates; either way it runs once.
 */
export function ensureSeeded(deps: Pick<Deps, "db" | "now">): Promise<void> {
  let done = seeded.get(deps.db);
  if (!done) {
    done = seedTemplates(deps).catch((error: unknown) => {
      seeded.delete(deps.db);
      throw error;
    });
    seeded.set(deps.db, done);
  }
  return done;
}

function summaryView(row: Row, language: Language) {
  const zh = language === "zh-CN";
  return {
    code: row.code,
    kind: row.kind,
    groupId: row.groupId,
    groupName: groupName(row.groupId, language),
    source: row.source,
    name: zh ? row.nameZh : row.nameEn,
    description: zh ? row.descriptionZh : row.descriptionEn,
    avatarUrl: row.avatarUrl,
    category: row.category,
    updatedAt: row.updatedAt,
  };
}

/** The template groups with how many templates each holds. */
export async function listTemplateGroups(deps: Pick<Deps, "db" | "now">, language: Language) {
  await ensureSeeded(deps);
  const rows = await deps.db.select({ groupId: templates.groupId }).from(templates);
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.groupId, (counts.get(row.groupId) ?? 0) + 1);
  return templateGroups.map((group) => ({ id: group.id, name: localize(group.name, language, "") as unknown as string, count: counts.get(group.id) ?? 0 }));
}

/** Templates, in their groups' order; filtered by kind, group and a keyword (matched literally in either language). */
export async function listTemplates(
  deps: Pick<Deps, "db" | "now">,
  language: Language,
  query: { kind?: "app" | "workflow" | undefined; groupId?: string | undefined; keyword?: string | undefined },
) {
  await ensureSeeded(deps);
  const rows = await deps.db
    .select()
    .from(templates)
    .where(
      and(
        query.kind ? eq(templates.kind, query.kind) : undefined,
        query.groupId ? eq(templates.groupId, query.groupId) : undefined,
        keywordMatch([templates.nameEn, templates.nameZh, templates.descriptionEn, templates.descriptionZh], query.keyword?.trim().slice(0, 100)),
      ),
    )
    .orderBy(asc(templates.sortOrder), asc(templates.createdAt));
  const order = new Map(templateGroups.map((group, index) => [group.id, index]));
  rows.sort((a, b) => (order.get(a.groupId) ?? 99) - (order.get(b.groupId) ?? 99));
  return { items: rows.map((row) => summaryView(row, language)), total: rows.length };
}

async function loadTemplate(deps: Pick<Deps, "db" | "now">, code: string): Promise<Row> {
  await ensureSeeded(deps);
  const row = await deps.db.select().from(templates).where(eq(templates.code, code)).get();
  if (!row) throw fail.notFound("template");
  return row;
}

/** The detail of a template: what the copy will hold, in the reader's language. */
export async function getTemplate(deps: Pick<Deps, "db" | "now" | "models">, language: Language, code: string) {
  const row = await loadTemplate(deps, code);
  const payload = localize(JSON.parse(row.payload) as Record<string, unknown>, language, deps.models.defaultModelId);
  const base = summaryView(row, language);
  if (row.kind === "app") {
    const app = payload as unknown as AppPayload;
    const knowledge = app.knowledgeBase as unknown as { name: string; qaSample?: Array<[string, string]> } | undefined;
    return {
      ...base,
      app: {
        type: app.app.type ?? "LIGHT",
        openingIntroduction: String(app.app.openingIntroduction ?? ""),
        settingsPrompt: String(app.app.settingsPrompt ?? ""),
        handover: Boolean(app.advancedConfig?.manualService),
        database: Boolean(app.advancedConfig?.database?.enabled),
      },
      workflow: null,
      knowledgeBase: knowledge ? { name: knowledge.name, sampleQaCount: knowledge.qaSample?.length ?? 0 } : null,
      nextStep: (app.nextStep as unknown as string | undefined) ?? null,
    };
  }
  const flow = (payload as unknown as WorkflowPayload).workflow;
  return {
    ...base,
    app: null,
    workflow: {
      nodes: flow.elements.map((element) => ({ id: element.id, type: element.type, name: String(element.config.name ?? element.id) })),
      cron: flow.cron ?? null,
    },
    knowledgeBase: null,
    nextStep: (payload.nextStep as string | undefined) ?? null,
  };
}

/** "X", or "X (2)", "X (3)"… — the first name not yet taken in the space (at most 50 characters). */
function distinctName(wanted: string, taken: Set<string>): string {
  const base = [...wanted].slice(0, 50).join("");
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = ` (${n})`;
    const name = `${[...wanted].slice(0, 50 - suffix.length).join("")}${suffix}`;
    if (!taken.has(name)) return name;
  }
}

/**
 * Copies a template into the caller's space with everything it references: an app with its
 * advanced settings and its own knowledge base (with the sample Q&A imported), or a workflow
 * with its schedule. A second copy gets a distinct name ("X (2)").
 */
export async function copyTemplate(deps: Deps, auth: Auth, language: Language, code: string) {
  const row = await loadTemplate(deps, code);
  const payload = localize(JSON.parse(row.payload) as Record<string, unknown>, language, deps.models.defaultModelId);
  const name = language === "zh-CN" ? row.nameZh : row.nameEn;
  const description = language === "zh-CN" ? row.descriptionZh : row.descriptionEn;
  if (row.kind === "workflow") {
    const flow = (payload as unknown as WorkflowPayload).workflow;
    const taken = new Set(
      (await deps.db.select({ name: workflows.name }).from(workflows).where(eq(workflows.spaceId, auth.spaceId))).map((entry) => entry.name),
    );
    const created = await createWorkflow(deps, auth, {
      name: distinctName(name, taken),
      description,
      avatarUrl: row.avatarUrl,
      category: row.category,
      elements: flow.elements,
      lines: flow.lines,
    });
    if (flow.cron) await saveSchedule(deps, auth, created.id, { cron: flow.cron, cronTimezone: flow.cronTimezone ?? "UTC", enabled: true });
    return {
      kind: "workflow" as const,
      appId: null,
      appCode: null,
      workflowId: created.id,
      knowledgeBaseId: null,
      name: created.name,
      nextStep: (payload.nextStep as string | undefined) ?? null,
    };
  }
  const app = payload as unknown as AppPayload;
  const knowledge = app.knowledgeBase as unknown as { name: string; description?: string; qaSample?: Array<[string, string]> } | undefined;
  const taken = new Set((await deps.db.select({ name: apps.name }).from(apps).where(eq(apps.spaceId, auth.spaceId))).map((entry) => entry.name));
  const appName = distinctName(name, taken);
  let knowledgeBaseId: string | null = null;
  if (knowledge) {
    const base = await createKnowledgeBase(deps, auth, {
      name: distinctName(knowledge.name, new Set()),
      ...(knowledge.description ? { description: knowledge.description } : {}),
    });
    knowledgeBaseId = base.id;
    if (knowledge.qaSample?.length) {
      const cell = (text: string) => `"${text.replace(/"/g, '""')}"`;
      const csv = ["question,answer,searchMethod", ...knowledge.qaSample.map(([question, answer]) => `${cell(question)},${cell(answer)},question`)].join("\n");
      await importQa(deps, auth, base.id, { fileName: "faq-sample.csv", bytes: new TextEncoder().encode(csv), mimeType: "text/csv" });
    }
  }
  const { type, ...settings } = app.app;
  const created = await createApp(deps, auth, {
    ...(settings as Record<string, never>),
    type: type ?? "LIGHT",
    name: appName,
    description,
    avatarUrl: row.avatarUrl,
    category: row.category,
    defaultModel: deps.models.defaultModelId,
    ...(knowledgeBaseId ? { knowledgeBaseIds: [knowledgeBaseId] } : {}),
  });
  if (app.advancedConfig) {
    const defaults = defaultAdvancedConfig();
    await putAdvancedConfig(deps, auth, created.id, {
      humanization: defaults.humanization,
      manualService: { ...defaults.manualService, ...(app.advancedConfig.manualService as object) },
      database: { enabled: app.advancedConfig.database?.enabled ?? false, databaseIds: [] },
    });
  }
  return {
    kind: "app" as const,
    appId: created.id,
    appCode: created.code,
    workflowId: null,
    knowledgeBaseId,
    name: created.name,
    nextStep: (app.nextStep as unknown as string | undefined) ?? null,
  };
}

/**
 * Adds a template made from an app or a workflow of the administrator's current space (the
 * administrator's own template; texts given in both languages or the source's used for both).
 */
export async function addCustomTemplate(
  deps: Pick<Deps, "db" | "now" | "secrets">,
  auth: Auth,
  input: {
    appId?: string | undefined;
    workflowId?: string | undefined;
    groupId: string;
    nameEn?: string | undefined;
    nameZh?: string | undefined;
    descriptionEn?: string | undefined;
    descriptionZh?: string | undefined;
  },
) {
  if (!templateGroups.some((group) => group.id === input.groupId)) throw fail.invalid("template_group_unknown", "groupId", { group: input.groupId });
  let kind: "app" | "workflow";
  let source: { name: string; description: string; avatarUrl: string; category: string };
  let payload: Record<string, unknown>;
  if (input.appId) {
    const row = await loadApp(deps, auth, input.appId);
    if (row.type === "WORKFLOW") throw fail.invalid("template_source_required", "appId");
    const settings = settingsOf(row);
    const advanced = parseAdvancedConfig(row.advancedConfig, parseJsonArray(row.databaseIds));
    kind = "app";
    source = row;
    payload = {
      app: {
        type: row.type,
        openingIntroduction: settings.openingIntroduction,
        settingsPrompt: settings.settingsPrompt,
        temperature: settings.temperature,
        memoryTurns: settings.memoryTurns,
        noHitStrategy: settings.noHitStrategy,
        noHitText: settings.noHitText,
      },
      // Webhook addresses, secrets and member ids stay with the source space.
      advancedConfig: {
        manualService: { ...advanced.manualService, notify: { email: false, sms: false, wechat: false, webhook: false, webhooks: [] }, notifyMemberIds: [] },
        database: { enabled: advanced.database.enabled },
      },
    };
  } else if (input.workflowId) {
    const row = await loadWorkflow(deps, auth, input.workflowId);
    const graph = graphOf(row);
    kind = "workflow";
    source = row;
    const elements = graph.elements.map((element) => {
      const { webhookSecret: _secret, ...config } = element.config as Record<string, unknown>;
      return { ...element, config };
    });
    payload = { workflow: { elements, lines: graph.lines, ...(row.cron ? { cron: row.cron, cronTimezone: row.cronTimezone } : {}) } };
  } else {
    throw fail.invalid("template_source_required", "appId");
  }
  const nameEn = (input.nameEn ?? source.name).trim();
  const nameZh = (input.nameZh ?? input.nameEn ?? source.name).trim();
  for (const [field, value] of [
    ["nameEn", nameEn],
    ["nameZh", nameZh],
  ] as const) {
    if (!value || [...value].length > 50) throw fail.invalid("template_name_required", field);
  }
  const now = deps.now().toISOString();
  const id = newId("tpl");
  const code = `custom-${id.slice(4).toLowerCase()}`;
  await ensureSeeded(deps);
  await deps.db.insert(templates).values({
    id,
    code,
    kind,
    groupId: input.groupId,
    source: "custom",
    version: 1,
    nameEn,
    nameZh,
    descriptionEn: (input.descriptionEn ?? source.description).trim().slice(0, 500),
    descriptionZh: (input.descriptionZh ?? input.descriptionEn ?? source.description).trim().slice(0, 500),
    avatarUrl: source.avatarUrl,
    category: source.category,
    payload: JSON.stringify(payload),
    sortOrder: 1000,
    createdBy: auth.userId,
    createdAt: now,
    updatedAt: now,
  });
  return summaryView((await deps.db.select().from(templates).where(eq(templates.id, id)).get())!, "en");
}

/** Deletes an administrator's template; shipped ones are refused (they would come back on the next start). */
export async function deleteCustomTemplate(deps: Pick<Deps, "db" | "now">, code: string) {
  const row = await loadTemplate(deps, code);
  if (row.source === "shipped") throw fail.conflict("template_shipped_not_deletable");
  await deps.db.delete(templates).where(eq(templates.id, row.id));
  return { code: row.code, deleted: true as const };
}
