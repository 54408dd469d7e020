import { and, desc, eq } from "drizzle-orm";
import { usageRecords } from "../../db/schema/index";
import type { Deps } from "../../kernel";
import { followsApp, type RangeCaller } from "../../access/follow";

/**
 * Usage records of the caller's space (one per answered turn) of apps in their data range, newest
 * first; only one app's when `appId` is given.
 */
export async function listUsageRecords(deps: Pick<Deps, "db">, auth: RangeCaller, input: { appId?: string | undefined; limit: number; offset: number }) {
  const where = and(
    eq(usageRecords.spaceId, auth.spaceId),
    input.appId ? eq(usageRecords.appId, input.appId) : undefined,
    followsApp(auth, usageRecords.appId),
  );
  return deps.db
    .select({
      id: usageRecords.id,
      appId: usageRecords.appId,
      conversationId: usageRecords.conversationId,
      channel: usageRecords.channel,
      prompt: usageRecords.prompt,
      answer: usageRecords.answer,
      model: usageRecords.model,
      promptTokens: usageRecords.promptTokens,
      completionTokens: usageRecords.completionTokens,
      credits: usageRecords.credits,
      createdAt: usageRecords.createdAt,
    })
    .from(usageRecords)
    .where(where)
    .orderBy(desc(usageRecords.createdAt), desc(usageRecords.id))
    .limit(input.limit)
    .offset(input.offset);
}
