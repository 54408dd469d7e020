import { and, eq, sql } from "drizzle-orm";
import { prepared } from "../../db/prepared";
import { apps } from "../../db/schema/index";
import { fail } from "../../errors";
import type { Deps } from "../../kernel";
import { type AdvancedConfig, openAdvancedConfig, parseAdvancedConfig } from "./advanced-config";
import { settingsOf } from "./load";
import type { AppSettings } from "./rules";

export { listRateLimitRules, rateLimitRulesFor, type RateLimitRule, type RateLimitChannel } from "./rate-limits";
export type { AdvancedConfig, Humanization, ManualService } from "./advanced-config";
export { DEFAULT_APP_AVATAR, DEFAULT_APP_MODEL } from "./catalogue";

/** An app as the chat engine uses it: every column, JSON columns parsed. */
export interface ChatApp extends AppSettings {
  id: string;
  spaceId: string;
  code: string;
  type: "LIGHT" | "KNOWLEDGE" | "AGENT" | "WORKFLOW";
  advancedConfig: AdvancedConfig;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * Loads an app for answering, by its public code (the OpenAI `model`, /app/{code}) or its id,
 * optionally only within one space. Throws not-found when there is no such app.
 */
export async function getAppForChat(
  deps: Pick<Deps, "db" | "secrets">,
  key: ({ appCode: string; appId?: undefined } | { appId: string; appCode?: undefined }) & { spaceId?: string },
): Promise<ChatApp> {
  const match = key.appCode !== undefined ? eq(apps.code, key.appCode) : eq(apps.id, key.appId);
  // By code alone is every chat turn's lookup: prepared once.
  const row =
    key.appCode !== undefined && !key.spaceId
      ? await prepared(deps.db, "apps.byCode", () =>
          deps.db
            .select()
            .from(apps)
            .where(eq(apps.code, sql.placeholder("code")))
            .prepare(),
        ).get({ code: key.appCode })
      : await deps.db
          .select()
          .from(apps)
          .where(key.spaceId ? and(match, eq(apps.spaceId, key.spaceId)) : match)
          .get();
  if (!row) throw fail.notFound("app");
  const settings = settingsOf(row);
  return {
    id: row.id,
    spaceId: row.spaceId,
    code: row.code,
    type: row.type,
    ...settings,
    advancedConfig: openAdvancedConfig(deps.secrets, parseAdvancedConfig(row.advancedConfig, settings.databaseIds)),
    createdBy: row.createdBy,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
