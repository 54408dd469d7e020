import { checkTone, speechModel } from "../../voice/service/voice";
import { and, count, desc, eq, inArray } from "drizzle-orm";
import { newId, newShortCode } from "../../crypto";
import { appReactions, apps, rateLimitRules } from "../../db/schema/index";
import { fail } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import { rangeCondition } from "../../access/range";
import type { SecretBox } from "../../platform/secret-box";
import { parseAdvancedConfig, redactAdvancedConfig } from "./advanced-config";
import { APP_PAGE_SIZE } from "./catalogue";
import { checkAppBindings } from "./bindings";
import { type AppRow, loadApp, settingsOf } from "./load";
import { type AppSettings, checkAppSettings, type creatableAppTypes, defaultAppSettings, normalizeAppSettings } from "./rules";
import { withQuota } from "../../plans/service/quotas";

/** What creating an app takes: its kind and any settings (the rules decide what is missing). */
export type CreateAppInput = Partial<AppSettings> & { type?: (typeof creatableAppTypes)[number] };

/** What an update may change. */
export type UpdateAppInput = Partial<AppSettings>;

/** The caller's marks on an app. */
interface Marks {
  thumbed: boolean;
  collected: boolean;
}

function columnsOf(settings: AppSettings) {
  return {
    ...settings,
    optionalModels: JSON.stringify(settings.optionalModels),
    knowledgeBaseIds: JSON.stringify(settings.knowledgeBaseIds),
    databaseIds: JSON.stringify(settings.databaseIds),
    plugins: JSON.stringify(settings.plugins),
  };
}

/** The list entry of an app. */
export function appSummaryView(row: AppRow, marks: Marks) {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    type: row.type,
    description: row.description,
    avatarUrl: row.avatarUrl,
    isPublic: row.isPublic,
    category: row.category,
    thumbCount: row.thumbCount,
    collectCount: row.collectCount,
    thumbed: marks.thumbed,
    collected: marks.collected,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** The basic detail of an app: what the Basic tab and the chat page show. */
export function appView(row: AppRow, marks: Marks) {
  const settings = settingsOf(row);
  return {
    ...appSummaryView(row, marks),
    openingIntroduction: row.openingIntroduction,
    settingsPrompt: row.settingsPrompt,
    defaultModel: row.defaultModel,
    optionalModels: settings.optionalModels,
    memoryTurns: row.memoryTurns,
    memoryRetentionMinutes: row.memoryRetentionMinutes,
    temperature: row.temperature,
    voice: row.voice,
    voiceModel: row.voiceModel,
    bottomSlogan: row.bottomSlogan,
    createdBy: row.createdBy,
  };
}

/** The "senior" detail: the basic detail plus retrieval, plugin and advanced settings. */
export function appSeniorView(box: SecretBox, row: AppRow, marks: Marks) {
  const settings = settingsOf(row);
  return {
    ...appView(row, marks),
    retrievalLength: settings.retrievalLength,
    knowledgeBaseIds: settings.knowledgeBaseIds,
    databaseIds: settings.databaseIds,
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
    plugins: settings.plugins,
    multiRoundThinking: settings.multiRoundThinking,
    maxRounds: settings.maxRounds,
    pluginStrategy: settings.pluginStrategy,
    // Webhook secrets are never answered (as in GET …/advanced-config).
    advancedConfig: redactAdvancedConfig(box, parseAdvancedConfig(row.advancedConfig, settings.databaseIds)),
  };
}

/** The caller's thumb and collect marks on some apps. */
export async function marksOf(deps: Pick<Deps, "db">, userId: string, appIds: string[]): Promise<Map<string, Marks>> {
  const marks = new Map<string, Marks>(appIds.map((id) => [id, { thumbed: false, collected: false }]));
  if (appIds.length === 0) return marks;
  const rows = await deps.db
    .select({ appId: appReactions.appId, kind: appReactions.kind })
    .from(appReactions)
    .where(and(eq(appReactions.userId, userId), inArray(appReactions.appId, appIds)));
  for (const row of rows) {
    const mark = marks.get(row.appId)!;
    if (row.kind === "thumb") mark.thumbed = true;
    else mark.collected = true;
  }
  return marks;
}

async function markOf(deps: Pick<Deps, "db">, userId: string, appId: string): Promise<Marks> {
  return (await marksOf(deps, userId, [appId])).get(appId)!;
}

/** Inserts an app row under a fresh public code, retrying the rare code collision. */
export async function insertWithCode(deps: Pick<Deps, "db">, row: Omit<typeof apps.$inferInsert, "code">): Promise<AppRow> {
  for (let attempt = 0; ; attempt++) {
    try {
      await deps.db.insert(apps).values({ ...row, code: newShortCode(10) });
      break;
    } catch (error) {
      // A code collision (1 in 10^15) gets a new code; anything else is real.
      const text = `${String(error)} ${String((error as { cause?: unknown }).cause ?? "")}`;
      if (attempt < 3 && text.includes("apps.code")) continue;
      throw error;
    }
  }
  return (await deps.db.select().from(apps).where(eq(apps.id, row.id)).get())!;
}

/** Creates an app in the caller's space after checking every rule of spec §5 App. */
export async function createApp(deps: Pick<Deps, "db" | "now" | "secrets"> & Partial<Pick<Deps, "models">>, auth: Auth, input: CreateAppInput) {
  const { type = "LIGHT", ...given } = input;
  const defined = definedOnly(given);
  const defaults = defaultAppSettings();
  // Citations are on by default: a similarity threshold sent above the default citation threshold
  // raises the citation threshold with it instead of refusing a rule the caller never touched.
  if (defined.citationThreshold === undefined && typeof defined.similarityThreshold === "number") {
    defaults.citationThreshold = Math.max(defaults.citationThreshold, defined.similarityThreshold);
  }
  const settings = normalizeAppSettings({ ...defaults, ...defined });
  checkAppSettings(settings);
  await checkRerankModel(deps, settings);
  await checkVoice(deps, settings);
  await checkAppBindings(deps, auth, settings);
  const now = deps.now().toISOString();
  const row = await withQuota(deps, auth.spaceId, { apps: 1 }, () =>
    insertWithCode(deps, {
      id: newId("app"),
      spaceId: auth.spaceId,
      type,
      ...columnsOf(settings),
      createdBy: auth.userId,
      createdAt: now,
      updatedAt: now,
    }),
  );
  return appSeniorView(deps.secrets, row, { thumbed: false, collected: false });
}

/**
 * A rerank model newly chosen must be one the catalogue serves; one kept unchanged is not
 * checked again, so a save never fails because a provider was switched off since (retrieval then
 * skips reranking). Callers without the catalogue (seeding) cannot choose one.
 */
async function checkRerankModel(deps: Partial<Pick<Deps, "models">>, next: AppSettings, previous?: AppSettings): Promise<void> {
  if (next.rerankModel === null || next.rerankModel === previous?.rerankModel) return;
  await deps.models?.ready();
  if (!deps.models?.reranker(next.rerankModel)) throw fail.invalid("app_rerank_model_unknown", "rerankModel", { id: next.rerankModel });
}

/**
 * A voice newly chosen (issue 21) names a served speech model and one of its tones; both or
 * neither are set. One kept unchanged is not checked again, as a rerank model is not.
 */
async function checkVoice(deps: Partial<Pick<Deps, "models" | "now">>, next: AppSettings, previous?: AppSettings): Promise<void> {
  if (next.voice === (previous?.voice ?? null) && next.voiceModel === (previous?.voiceModel ?? null)) return;
  if (next.voice === null && next.voiceModel === null) return;
  if (next.voiceModel === null) throw fail.invalid("voice_model_required", "voiceModel");
  if (next.voice === null) throw fail.invalid("voice_tone_required", "voice");
  if (!deps.models) throw fail.invalid("voice_model_unknown", "voiceModel", { id: next.voiceModel });
  const speechDeps = { models: deps.models, now: deps.now ?? (() => new Date()) };
  await checkTone(speechDeps, await speechModel(speechDeps, next.voiceModel, "voiceModel"), next.voice, "voice");
}

function definedOnly<T extends object>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** Changes an app; the rules are checked on the whole result, so a change cannot break another field's rule. */
export async function updateApp(deps: Pick<Deps, "db" | "now" | "secrets"> & Partial<Pick<Deps, "models">>, auth: Auth, appId: string, input: UpdateAppInput) {
  const row = await loadApp(deps, auth, appId);
  const previous = settingsOf(row);
  const settings = normalizeAppSettings({ ...previous, ...definedOnly(input) });
  checkAppSettings(settings);
  await checkRerankModel(deps, settings, previous);
  await checkVoice(deps, settings, previous);
  await checkAppBindings(deps, auth, settings, previous);
  const updated = await deps.db
    .update(apps)
    .set({ ...columnsOf(settings), updatedAt: deps.now().toISOString() })
    .where(and(eq(apps.id, appId), eq(apps.spaceId, auth.spaceId)))
    .returning();
  if (!updated[0]) throw fail.notFound("app");
  return appSeniorView(deps.secrets, updated[0], await markOf(deps, auth.userId, appId));
}

/** The basic detail of an app of the caller's space. */
export async function getApp(deps: Pick<Deps, "db">, auth: Auth, appId: string) {
  const row = await loadApp(deps, auth, appId);
  return appView(row, await markOf(deps, auth.userId, appId));
}

/** The senior detail of an app of the caller's space. */
export async function getAppSenior(deps: Pick<Deps, "db" | "secrets">, auth: Auth, appId: string) {
  const row = await loadApp(deps, auth, appId);
  return appSeniorView(deps.secrets, row, await markOf(deps, auth.userId, appId));
}

const newestFirst = [desc(apps.createdAt), desc(apps.id)] as const;

/**
 * Apps of the caller's space in their data range, newest first.
 * The page size defaults to, and is capped at, {@link APP_PAGE_SIZE}.
 */
export async function listApps(deps: Pick<Deps, "db">, auth: Auth, page: { pageNo?: number | undefined; pageSize?: number | undefined }) {
  const pageNo = Math.max(1, Math.floor(page.pageNo ?? 1));
  const pageSize = Math.min(APP_PAGE_SIZE, Math.max(1, Math.floor(page.pageSize ?? APP_PAGE_SIZE)));
  const visible = and(eq(apps.spaceId, auth.spaceId), rangeCondition(auth, "app", apps));
  const total = (await deps.db.select({ n: count() }).from(apps).where(visible).get())?.n ?? 0;
  const rows = await deps.db
    .select()
    .from(apps)
    .where(visible)
    .orderBy(...newestFirst)
    .limit(pageSize)
    .offset((pageNo - 1) * pageSize);
  const marks = await marksOf(
    deps,
    auth.userId,
    rows.map((row) => row.id),
  );
  return { items: rows.map((row) => appSummaryView(row, marks.get(row.id)!)), total, pageNo, pageSize };
}

/**
 * Deletes an app with its marks and rate-limit rules, and answers the app to select next
 * (spec §4): the one after it in the list, else the one before, else null (go home).
 */
export async function deleteApp(deps: Pick<Deps, "db">, auth: Auth, appId: string) {
  await loadApp(deps, auth, appId);
  const order = await deps.db
    .select({ id: apps.id })
    .from(apps)
    .where(and(eq(apps.spaceId, auth.spaceId), rangeCondition(auth, "app", apps)))
    .orderBy(...newestFirst);
  const index = order.findIndex((row) => row.id === appId);
  const removed = await deps.db
    .delete(apps)
    .where(and(eq(apps.id, appId), eq(apps.spaceId, auth.spaceId)))
    .returning({ id: apps.id });
  if (removed.length === 0) throw fail.notFound("app");
  const neighbour = order[index + 1] ?? order[index - 1] ?? null;
  return { deleted: true as const, nextAppId: neighbour?.id ?? null };
}

/**
 * Copies an app of the caller's space: a new id and code, counts and marks reset, not public,
 * with the same settings, advanced configuration and rate-limit rules.
 */
export async function copyApp(deps: Pick<Deps, "db" | "now" | "secrets">, auth: Auth, appId: string, options: { nameSuffix: string }) {
  const source = await loadApp(deps, auth, appId);
  const name = [...`${source.name}${options.nameSuffix}`].slice(0, 50).join("");
  const now = deps.now().toISOString();
  const { id: _id, code: _code, thumbCount: _thumbs, collectCount: _collects, ...rest } = source;
  const row = await withQuota(deps, auth.spaceId, source.type === "WORKFLOW" ? {} : { apps: 1 }, () =>
    insertWithCode(deps, {
      ...rest,
      id: newId("app"),
      name,
      isPublic: false,
      thumbCount: 0,
      collectCount: 0,
      createdBy: auth.userId,
      createdAt: now,
      updatedAt: now,
    }),
  );
  const rules = await deps.db.select().from(rateLimitRules).where(eq(rateLimitRules.appId, source.id));
  if (rules.length > 0) {
    await deps.db.insert(rateLimitRules).values(rules.map((rule) => ({ ...rule, id: newId("rlr"), appId: row.id, createdAt: now, updatedAt: now })));
  }
  return appSeniorView(deps.secrets, row, { thumbed: false, collected: false });
}

/** Upgrades a light app to a knowledge app (spec §4); any other kind is a conflict. */
export async function upgradeApp(deps: Pick<Deps, "db" | "now" | "secrets">, auth: Auth, appId: string) {
  const row = await loadApp(deps, auth, appId);
  if (row.type !== "LIGHT") throw fail.conflict("app_upgrade_not_allowed", { type: row.type });
  // The type guard in the statement makes a concurrent second upgrade a no-op, not a double change.
  const updated = await deps.db
    .update(apps)
    .set({ type: "KNOWLEDGE", updatedAt: deps.now().toISOString() })
    .where(and(eq(apps.id, appId), eq(apps.spaceId, auth.spaceId), eq(apps.type, "LIGHT")))
    .returning();
  if (!updated[0]) throw fail.conflict("app_upgrade_not_allowed", { type: "KNOWLEDGE" });
  return appSeniorView(deps.secrets, updated[0], await markOf(deps, auth.userId, appId));
}
