import { and, eq, inArray } from "drizzle-orm";
import { databases, plugins } from "../../db/schema/index";
import { fail } from "../../errors";
import type { Deps } from "../../kernel";
import type { RangeCaller } from "../../access/follow";
import { rangeCondition } from "../../access/range";
import { findBuiltin } from "../../plugins/service/builtins/index";
import type { AppSettings } from "./rules";
import { checkKnowledgeBinding } from "./knowledge-binding";

/**
 * Checks every field of an app's settings that names another object against the app's space:
 * knowledge bases, plugins (a built-in, or a custom plugin of the space) and databases. Like
 * {@link checkKnowledgeBinding}, only ids newly added are checked, so a save never fails on what
 * it did not change; an id of another space, one outside the caller's data range, or an unknown
 * one, is a 400 naming the field.
 */
export async function checkAppBindings(deps: Pick<Deps, "db">, auth: RangeCaller, next: AppSettings, previous?: AppSettings): Promise<void> {
  await checkKnowledgeBinding(deps, auth, next.knowledgeBaseIds, previous?.knowledgeBaseIds ?? []);
  const addedPlugins = next.plugins.filter((code) => !previous?.plugins.includes(code) && !findBuiltin(code));
  if (addedPlugins.length > 0) {
    const found = await deps.db
      .select({ code: plugins.code })
      .from(plugins)
      .where(and(eq(plugins.spaceId, auth.spaceId), inArray(plugins.code, addedPlugins), rangeCondition(auth, null, plugins)))
      .all();
    const known = new Set(found.map((row) => row.code));
    const unknown = addedPlugins.find((code) => !known.has(code));
    if (unknown !== undefined) throw fail.invalid("app_plugin_unknown", "plugins", { id: unknown });
  }
  await checkDatabaseBinding(deps, auth, next.databaseIds, previous?.databaseIds ?? []);
}

/**
 * Checks newly bound database ids: each must be a database of the app's space in the caller's
 * data range (databases are reached when the caller created them, unless their range is all).
 */
export async function checkDatabaseBinding(deps: Pick<Deps, "db">, auth: RangeCaller, next: readonly string[], previous: readonly string[]): Promise<void> {
  const added = next.filter((id) => !previous.includes(id));
  if (added.length === 0) return;
  const found = await deps.db
    .select({ id: databases.id })
    .from(databases)
    .where(and(eq(databases.spaceId, auth.spaceId), inArray(databases.id, added), rangeCondition(auth, null, databases)))
    .all();
  const known = new Set(found.map((row) => row.id));
  const unknown = added.find((id) => !known.has(id));
  if (unknown !== undefined) throw fail.invalid("app_database_unknown", "databaseIds", { id: unknown });
}
