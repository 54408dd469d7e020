import { and, eq, gt, inArray } from "drizzle-orm";
import { queueSend } from "../channels/pipeline";
import { conversations, messages } from "../db/schema/index";
import type { Deps } from "../http/context";
import type { JobHandler } from "../jobs/worker";
import { answerStoredMessage } from "./answer";
import { webVisitorOf } from "./handover";

/**
 * Delayed reply after a handover: when no person answered the customer's message within the
 * app's delay, the AI answers it (through the channel, or pushed to the web visitor).
 */
export function delayedReplyHandler(deps: Deps): JobHandler {
  return async ({ payload, heartbeat }) => {
    const input = payload as { conversationId: string; messageId: string };
    const conversation = await deps.db.select().from(conversations).where(eq(conversations.id, input.conversationId)).get();
    const message = await deps.db.select().from(messages).where(eq(messages.id, input.messageId)).get();
    if (!conversation || !message || conversation.serviceMode !== "MANUAL_MODE") return;
    const answeredSince = await deps.db
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.conversationId, conversation.id), gt(messages.createdAt, message.createdAt), inArray(messages.role, ["operator", "assistant"])))
      .get();
    if (answeredSince) return;
    const answer = await answerStoredMessage(deps, conversation, message, { channel: conversation.channel, skipHandover: true, heartbeat });
    if (!answer) return;
    if (conversation.clientId?.startsWith("ch_")) {
      await deps.db.update(messages).set({ delivery: "pending" }).where(eq(messages.id, answer.id));
      await queueSend(deps, { id: conversation.clientId }, conversation.id, answer.id);
      return;
    }
    const visitor = await webVisitorOf(deps, conversation);
    if (visitor) deps.realtime.toVisitor(visitor.clientId, visitor.sessionId, "message", { id: answer.id, role: "assistant", content: answer.text, createdAt: deps.now().toISOString() });
  };
}
