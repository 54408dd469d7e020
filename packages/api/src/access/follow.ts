import { and, eq, inArray, or, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { apps, channelClients, knowledgeBases, webClients, workflows } from "../db/schema/index";
import type { Auth } from "../kernel";
import { rangeCondition, rangeOf } from "./range";

/** Who a ranged query is for: the space and the member's data range. */
export type RangeCaller = Pick<Auth, "spaceId" | "userId" | "access">;

/** Whether the caller reaches every object of the space, so no ranged condition is needed. */
export function reachesAll(auth: Pick<Auth, "access">): boolean {
  return rangeOf(auth).scope === "all";
}

/**
 * The condition that keeps rows belonging to an app (conversations, usage records, rate limits,
 * a workflow's app) to the apps in the caller's range; undefined when the caller reaches all.
 */
export function followsApp(auth: RangeCaller, column: SQLiteColumn): SQL | undefined {
  const range = rangeCondition(auth, "app", apps);
  if (!range) return undefined;
  return sql`${column} in (select ${apps.id} from ${apps} where ${and(eq(apps.spaceId, auth.spaceId), range)})`;
}

/** The condition that keeps rows belonging to a knowledge base (files, segments, media) to the bases in range. */
export function followsKnowledgeBase(auth: RangeCaller, column: SQLiteColumn): SQL | undefined {
  const range = rangeCondition(auth, "knowledgeBase", knowledgeBases);
  if (!range) return undefined;
  return sql`${column} in (select ${knowledgeBases.id} from ${knowledgeBases} where ${and(eq(knowledgeBases.spaceId, auth.spaceId), range)})`;
}

/**
 * The condition that keeps rows belonging to a client (inbox sessions, customers) to the web and
 * channel clients in range.
 */
export function followsClient(auth: RangeCaller, column: SQLiteColumn): SQL | undefined {
  const web = rangeCondition(auth, "client", webClients);
  const channel = rangeCondition(auth, "client", channelClients);
  if (!web || !channel) return undefined;
  return or(
    sql`${column} in (select ${webClients.id} from ${webClients} where ${and(eq(webClients.spaceId, auth.spaceId), web)})`,
    sql`${column} in (select ${channelClients.id} from ${channelClients} where ${and(eq(channelClients.spaceId, auth.spaceId), channel)})`,
  );
}

/**
 * The condition that keeps workflows to the caller's range: those they created, and under a
 * `chosen` range also those whose app is a chosen app (decision 0019).
 */
export function workflowRange(auth: RangeCaller): SQL | undefined {
  const range = rangeOf(auth);
  if (range.scope === "all") return undefined;
  const own = eq(workflows.createdBy, auth.userId);
  if (range.scope === "own" || range.appIds.length === 0) return own;
  return or(own, inArray(workflows.appId, range.appIds));
}

/** The condition that keeps rows belonging to a workflow (its runs) to the workflows in range. */
export function followsWorkflow(auth: RangeCaller, column: SQLiteColumn): SQL | undefined {
  const range = workflowRange(auth);
  if (!range) return undefined;
  return sql`${column} in (select ${workflows.id} from ${workflows} where ${and(eq(workflows.spaceId, auth.spaceId), range)})`;
}
