import { and, eq } from "drizzle-orm";
import { apps } from "../../db/schema/index";
import { fail } from "../../errors";
import type { Deps } from "../../kernel";
import type { RangeCaller } from "../../access/follow";
import { rangeCondition } from "../../access/range";
import type { AppSettings } from "./rules";

/** A stored app row. */
export type AppRow = typeof apps.$inferSelect;

/**
 * Loads an app of a space; an app of another space does not exist for the caller, nor (when a
 * member's access is given instead of a space id) one outside the member's data range.
 */
export async function loadApp(deps: Pick<Deps, "db">, scope: string | RangeCaller, appId: string): Promise<AppRow> {
  const spaceId = typeof scope === "string" ? scope : scope.spaceId;
  const row = await deps.db
    .select()
    .from(apps)
    .where(and(eq(apps.id, appId), eq(apps.spaceId, spaceId), typeof scope === "string" ? undefined : rangeCondition(scope, "app", apps)))
    .get();
  if (!row) throw fail.notFound("app");
  return row;
}

/** Reads a JSON array-of-strings column; anything else reads as empty. */
export function parseJsonArray(stored: string): string[] {
  try {
    const value: unknown = JSON.parse(stored);
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
  } catch {
    return [];
  }
}

/** The editable settings of a stored app, JSON columns parsed. */
export function settingsOf(row: AppRow): AppSettings {
  return {
    name: row.name,
    description: row.description,
    openingIntroduction: row.openingIntroduction,
    avatarUrl: row.avatarUrl,
    isPublic: row.isPublic,
    category: row.category,
    settingsPrompt: row.settingsPrompt,
    defaultModel: row.defaultModel,
    optionalModels: parseJsonArray(row.optionalModels),
    memoryTurns: row.memoryTurns,
    memoryRetentionMinutes: row.memoryRetentionMinutes,
    temperature: row.temperature,
    retrievalLength: row.retrievalLength,
    knowledgeBaseIds: parseJsonArray(row.knowledgeBaseIds),
    databaseIds: parseJsonArray(row.databaseIds),
    retrievalMode: row.retrievalMode,
    similarityThreshold: row.similarityThreshold,
    semanticCount: row.semanticCount,
    fullTextCount: row.fullTextCount,
    rerankModel: row.rerankModel,
    rerankThreshold: row.rerankThreshold,
    noHitStrategy: row.noHitStrategy,
    noHitText: row.noHitText,
    citationEnabled: row.citationEnabled,
    citationThreshold: row.citationThreshold,
    plugins: parseJsonArray(row.plugins),
    multiRoundThinking: row.multiRoundThinking,
    maxRounds: row.maxRounds,
    pluginStrategy: row.pluginStrategy,
    voice: row.voice,
    voiceModel: row.voiceModel,
    bottomSlogan: row.bottomSlogan,
  };
}
