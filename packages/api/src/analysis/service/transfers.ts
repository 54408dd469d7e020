import { newId } from "../../crypto";
import { conversationTransfers } from "../../db/schema/index";
import type { Deps } from "../../kernel";

/** Records that a conversation went to a person (a transfer-to-manual record for the dashboard). */
export async function recordTransfer(
  deps: Pick<Deps, "db">,
  conversation: { id: string; spaceId: string; appId: string; channel: string; endUserId: string },
  input: { reason: string; detail: string | null; at: string },
): Promise<void> {
  await deps.db.insert(conversationTransfers).values({
    id: newId("trf"),
    spaceId: conversation.spaceId,
    appId: conversation.appId,
    conversationId: conversation.id,
    channel: conversation.channel,
    endUserId: conversation.endUserId,
    reason: input.reason,
    detail: input.detail,
    createdAt: input.at,
  });
}
