import { and, desc, eq } from "drizzle-orm";
import { usageRecords } from "../../db/schema/index";
import type { Deps } from "../../kernel";

/** Usage records of a space (one per answered turn), newest first; only one app's when `appId` is given. */
export async function listUsageRecords(deps: Pick<Deps, "db">, spaceId: string, input: { appId?: string | undefined; limit: number; offset: number }) {
  const where = input.appId ? and(eq(usageRecords.spaceId, spaceId), eq(usageRecords.appId, input.appId)) : eq(usageRecords.spaceId, spaceId);
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
