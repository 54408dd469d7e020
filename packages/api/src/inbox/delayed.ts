import { and, eq, gt, inArray, or } from "drizzle-orm";
import { getAppForChat } from "../apps/service/index";
import { queueSend } from "../channels/pipeline";
import { conversations, messages } from "../db/schema/index";
import type { Deps } from "../kernel";
import { isChannelSession } from "./activity";
import type { JobHandler } from "../jobs/worker";
import { answerStoredMessage } from "../conversation/stored";
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
    // Anything after this message: a person's or the AI's answer settles it; a later customer
    // message has its own delayed job, which answers both (the AI sees this one as history).
    const since = await deps.db
      .select({ id: messages.id })
      .from(messages)
      .where(
        and(
          eq(messages.conversationId, conversation.id),
          or(gt(messages.createdAt, message.createdAt), and(eq(messages.createdAt, message.createdAt), gt(messages.id, message.id))),
          inArray(messages.role, ["operator", "assistant", "user"]),
        ),
      )
      .get();
    if (since) return;
    // The app may have been told since to keep the AI silent (or to answer at once) after a handover.
    const app = await getAppForChat(deps, { appId: conversation.appId }).catch(() => undefined);
    if (app?.advancedConfig.manualService.replyMode !== "delayed") return;
    const answer = await answerStoredMessage(deps, conversation, message, { channel: conversation.channel, skipHandover: true, heartbeat });
    if (!answer) return;
    if (conversation.clientId && isChannelSession(conversation)) {
      await deps.db.update(messages).set({ delivery: "pending" }).where(eq(messages.id, answer.id));
      await queueSend(deps, { id: conversation.clientId, spaceId: conversation.spaceId }, conversation.id, answer.id);
      return;
    }
    const visitor = await webVisitorOf(deps, conversation);
    if (visitor)
      deps.realtime.toVisitor(visitor.clientId, visitor.sessionId, "message", {
        id: answer.id,
        role: "assistant",
        content: answer.text,
        createdAt: deps.now().toISOString(),
      });
  };
}
