import { and, eq, inArray } from "drizzle-orm";
import { knowledgeBases } from "../../db/schema/index";
import { fail, ServiceError } from "../../errors";
import type { Deps } from "../../kernel";
import type { RangeCaller } from "../../access/follow";
import { rangeCondition } from "../../access/range";
import { APP_TOKEN_LIMIT, tokensOf } from "../../knowledge/service/knowledge-bases";

/**
 * The knowledge-base rules of saving an app's settings, the same as relation add: every newly
 * bound id must be a knowledge base of the app's space in the caller's data range (an id of
 * another space, one out of range, or an unknown
 * one, is refused naming `knowledgeBaseIds`), and the bound set holds at most 1 million tokens
 * (spec §5 Files). Ids already bound are not re-checked, so a save never fails on what it did
 * not change.
 */
export async function checkKnowledgeBinding(deps: Pick<Deps, "db">, auth: RangeCaller, next: readonly string[], previous: readonly string[]): Promise<void> {
  const added = next.filter((id) => !previous.includes(id));
  if (added.length === 0) return;
  const found = await deps.db
    .select({ id: knowledgeBases.id })
    .from(knowledgeBases)
    .where(and(eq(knowledgeBases.spaceId, auth.spaceId), inArray(knowledgeBases.id, added), rangeCondition(auth, "knowledgeBase", knowledgeBases)))
    .all();
  const known = new Set(found.map((row) => row.id));
  const unknown = added.find((id) => !known.has(id));
  if (unknown !== undefined) throw fail.invalid("app_knowledge_base_unknown", "knowledgeBaseIds", { id: unknown });
  if ((await tokensOf(deps, [...next])) > APP_TOKEN_LIMIT) {
    throw new ServiceError("validation", "token_limit_exceeded", { limit: APP_TOKEN_LIMIT }, { field: "knowledgeBaseIds" });
  }
}
