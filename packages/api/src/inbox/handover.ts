import { createHmac } from "node:crypto";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { ChatApp } from "../apps/service/index";
import type { ManualService } from "../apps/service/advanced-config";
import { conversations, spaceMembers, users, webClientSessions } from "../db/schema/index";
import type { Deps } from "../kernel";
import { isChannelSession } from "./activity";
import { jobsOf } from "../kernel/jobs";
import { guardedFetch, outboundPolicy } from "../plugins/service/network";
import { recordTransfer } from "../analysis/service/transfers";
import { sendWechatNotices } from "../channels/wechat-bindings";
import { messageText } from "../i18n/catalogue";
import type { Language } from "../i18n/language";
import { tagCustomerByAi } from "../customers/ai-tags";
import { askModel, recentMessages, transcript, transcriptOf } from "./transcript";

type ConversationRow = typeof conversations.$inferSelect;

/** Job that lets the AI answer a message no person answered within the delayed-reply time. */
export const HANDOVER_DELAYED_JOB = "handover-delayed-reply";

/** What the turn does about a customer's message in view of handover. */
export type HandoverGate =
  | { kind: "answer" }
  /** The AI stays silent (a person has the conversation, or will); `reply` is said instead when set. */
  | { kind: "hold"; reply?: string; transferred: boolean };

function matchesKeyword(text: string, content: string): boolean {
  const haystack = text.toLowerCase();
  return content
    .split(/[,，;；\n]/)
    .map((keyword) => keyword.trim().toLowerCase())
    .some((keyword) => keyword.length > 0 && haystack.includes(keyword));
}

/** Cosine similarity of two vectors of the same length. */
function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let left = 0;
  let right = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    left += a[i]! * a[i]!;
    right += b[i]! * b[i]!;
  }
  return left && right ? dot / Math.sqrt(left * right) : 0;
}

/** An intent matches when the message means much the same as its content (a semantic embedder decides). */
export const INTENT_SIMILARITY = 0.55;

/**
 * The offline lexical embedder measures word overlap, not meaning: questions that share only
 * "I want", "my" and "order" with "I want a refund for my order" score about 0.6 with it
 * ("I want to order a pizza" 0.598, "order status for my order" 0.587), while paraphrases that
 * keep the intent's words score 0.64 and more ("Please refund my order" 0.642, "我要投诉你们的服务"
 * against "我要投诉" 0.642, "How do I cancel my subscription?" 0.816). Measured on 24 pairs.
 */
export const LEXICAL_INTENT_SIMILARITY = 0.64;

async function matchesIntent(deps: Pick<Deps, "knowledge">, text: string, content: string): Promise<boolean> {
  const embedder = deps.knowledge.defaultEmbedder;
  const [message, intent] = await embedder.embed([text, content], { kind: "query" });
  const threshold = embedder.lexical ? LEXICAL_INTENT_SIMILARITY : INTENT_SIMILARITY;
  return Boolean(message && intent && cosine(message, intent) >= threshold);
}

/** The first trigger of the app's handover rules the message sets off, if any. */
export async function matchTrigger(deps: Pick<Deps, "knowledge" | "logger">, manual: ManualService, text: string) {
  for (const trigger of manual.triggers) {
    if (trigger.type === "keyword" && matchesKeyword(text, trigger.content)) return trigger;
    if (trigger.type === "intent") {
      try {
        if (await matchesIntent(deps, text, trigger.content)) return trigger;
      } catch (error) {
        deps.logger.warn("handover intent check failed", { error: String(error) });
      }
    }
  }
  return undefined;
}

/**
 * Decides, before the AI answers a customer's message in an inbox session, whether it should:
 * a session a person has taken over follows the app's reply mode (silent, keep replying, or
 * reply after N minutes unless a person did); otherwise a trigger hands the session over.
 */
export async function handoverGate(
  deps: Pick<Deps, "config" | "db" | "knowledge" | "logger" | "mail" | "models" | "now" | "realtime" | "secrets" | "sms">,
  app: ChatApp,
  conversation: ConversationRow,
  input: { text: string; messageId: string; language: Language },
): Promise<HandoverGate> {
  const manual = app.advancedConfig.manualService;
  if (conversation.serviceMode === "MANUAL_MODE") {
    if (manual.replyMode === "continue") return { kind: "answer" };
    if (manual.replyMode === "delayed" && manual.delayMinutes) {
      await jobsOf(deps).enqueue(
        HANDOVER_DELAYED_JOB,
        { conversationId: conversation.id, messageId: input.messageId },
        {
          spaceId: conversation.spaceId,
          runAfter: new Date(deps.now().getTime() + manual.delayMinutes * 60_000),
        },
      );
    }
    return { kind: "hold", transferred: false };
  }
  const trigger = await matchTrigger(deps, manual, input.text);
  if (!trigger) return { kind: "answer" };
  const reply = await transferToHuman(deps, app, conversation, { reason: trigger.type, detail: trigger.content, language: input.language });
  return { kind: "hold", transferred: true, ...(reply ? { reply } : {}) };
}

/** Sets a session's reply mode and tells the consoles (and the web visitor) at once. */
export async function setServiceMode(deps: Pick<Deps, "db" | "now" | "realtime">, conversation: ConversationRow, mode: ConversationRow["serviceMode"]) {
  const now = deps.now().toISOString();
  await deps.db
    .update(conversations)
    .set({
      serviceMode: mode,
      manualSince: mode === "MANUAL_MODE" ? (conversation.serviceMode === "MANUAL_MODE" ? conversation.manualSince : now) : null,
      ...(mode === "MANUAL_MODE" ? {} : { handoverRequestedAt: null }),
    })
    .where(eq(conversations.id, conversation.id));
  deps.realtime.toSpace(conversation.spaceId, "session.mode", { sessionId: conversation.id, serviceMode: mode });
  const visitor = await webVisitorOf(deps, conversation);
  if (visitor) deps.realtime.toVisitor(visitor.clientId, visitor.sessionId, "mode", { serviceMode: mode });
}

/** The web visitor session behind a conversation, when it came through the widget. */
export async function webVisitorOf(deps: Pick<Deps, "db">, conversation: ConversationRow): Promise<{ clientId: string; sessionId: string } | undefined> {
  if (!conversation.clientId || isChannelSession(conversation)) return undefined;
  const row = await deps.db
    .select({ id: webClientSessions.id, clientId: webClientSessions.clientId })
    .from(webClientSessions)
    .where(eq(webClientSessions.conversationId, conversation.id))
    .get();
  return row ? { clientId: row.clientId, sessionId: row.id } : undefined;
}

/**
 * Hands a session to a person: MANUAL_MODE, the handover time kept, members notified by the
 * app's channels with a summary, the conversation tagged when AI tagging is on. Answers the
 * default reply the customer is told (none when the app has none).
 */
export async function transferToHuman(
  deps: Pick<Deps, "config" | "db" | "logger" | "mail" | "models" | "now" | "realtime" | "secrets" | "sms">,
  app: ChatApp,
  conversation: ConversationRow,
  input: { reason: "keyword" | "intent" | "no-hit" | "customer" | "operator"; detail?: string; language: Language },
): Promise<string | undefined> {
  const manual = app.advancedConfig.manualService;
  // A person has it already (the AI kept replying and, say, found nothing again): no second handover or notice.
  if (conversation.serviceMode === "MANUAL_MODE") return manual.defaultReply ?? undefined;
  const now = deps.now().toISOString();
  await deps.db
    .update(conversations)
    .set({ handoverRequestedAt: conversation.handoverRequestedAt ?? now })
    .where(eq(conversations.id, conversation.id));
  await setServiceMode(deps, conversation, "MANUAL_MODE");
  await recordTransfer(deps, conversation, { reason: input.reason, detail: input.detail ?? null, at: now });
  // Notices, summary and tags take model and network calls: they must not hold up the reply.
  void notifyHandover(deps, app, conversation, input).catch((error: unknown) => deps.logger.warn("handover notice failed", { error: String(error) }));
  return manual.defaultReply ?? undefined;
}

/** The summary the notice carries: the template's properties filled from the conversation. */
export async function handoverSummary(deps: Pick<Deps, "db" | "models">, app: ChatApp, conversation: ConversationRow, language: Language): Promise<string> {
  const manual = app.advancedConfig.manualService;
  const recent = await recentMessages(deps, conversation.id);
  const history = transcriptOf(conversation, recent);
  const properties = manual.summaryTemplate;
  const lines = [
    `${messageText(language, "handover_notice_customer")}: ${conversation.senderName ?? conversation.endUserId}`,
    `${messageText(language, "handover_notice_channel")}: ${conversation.channel}`,
  ];
  if (properties.length > 0) {
    const asked = await askModel(
      deps,
      app,
      [
        "From the conversation below, fill in each property. Answer one line per property as `property: value`; write `-` when the conversation does not say.",
        ...properties.map((entry) => `- ${entry.property}: ${entry.content}${entry.description ? ` (${entry.description})` : ""}`),
        "",
        history,
      ].join("\n"),
      language,
    ).catch(() => undefined);
    if (asked) lines.push(asked);
    else lines.push(...properties.map((entry) => `${entry.property}: -`));
  }
  // The customer's last message (an operator's, named after the operator, is not one).
  const lastCustomer = recent.findLast((row) => row.role === "user");
  if (lastCustomer) lines.push(`${messageText(language, "handover_notice_last")}: ${lastCustomer.content.replace(/\s+/g, " ").trim().slice(0, 300)}`);
  return lines.join("\n");
}

/** Tags the model gives the conversation (at most 3 short ones); none with the offline responder. */
async function aiTags(deps: Pick<Deps, "db" | "models">, app: ChatApp, conversation: ConversationRow, language: Language): Promise<string[]> {
  const answer = await askModel(
    deps,
    app,
    `Give at most 3 short tags (1-3 words each) for this customer conversation, comma separated, nothing else.\n\n${await transcript(deps, conversation)}`,
    language,
  ).catch(() => undefined);
  if (!answer) return [];
  return [
    ...new Set(
      answer
        .split(/[,，\n]/)
        .map((tag) => tag.trim().replace(/^[#"'`]+|["'`]+$/g, ""))
        .filter((tag) => tag.length > 0 && tag.length <= 30),
    ),
  ].slice(0, 3);
}

/** DingTalk and Feishu robots sign `timestamp\nsecret` with HMAC-SHA256 (DingTalk keys by the secret, Feishu by the string). */
export function robotSignature(kind: "dingtalk" | "feishu", timestamp: string, secret: string): string {
  const stringToSign = `${timestamp}\n${secret}`;
  return kind === "dingtalk"
    ? createHmac("sha256", secret).update(stringToSign).digest("base64")
    : createHmac("sha256", stringToSign).update("").digest("base64");
}

/** Posts a notice to a group robot webhook the way each platform expects. */
export async function postRobotNotice(deps: Pick<Deps, "config" | "now">, webhook: ManualService["notify"]["webhooks"][number], text: string): Promise<void> {
  const nowMs = deps.now().getTime();
  let url = webhook.url;
  let body: unknown;
  if (webhook.kind === "dingtalk") {
    const timestamp = String(nowMs);
    const sign = robotSignature("dingtalk", timestamp, webhook.secret);
    url += `${url.includes("?") ? "&" : "?"}timestamp=${timestamp}&sign=${encodeURIComponent(sign)}`;
    body = { msgtype: "text", text: { content: text } };
  } else if (webhook.kind === "feishu") {
    const timestamp = String(Math.floor(nowMs / 1000));
    body = { timestamp, sign: robotSignature("feishu", timestamp, webhook.secret), msg_type: "text", content: { text } };
  } else {
    // WeChat Work group robots are addressed by the key in their URL and sign nothing.
    body = { msgtype: "text", text: { content: text } };
  }
  const response = await guardedFetch(
    { method: "POST", url, headers: { "content-type": "application/json" }, body: JSON.stringify(body) },
    {
      policy: outboundPolicy(deps.config),
      timeoutMs: 10_000,
      maxBytes: 64 * 1024,
    },
  );
  if (response.status >= 300) throw new Error(`${webhook.kind} robot answered HTTP ${response.status}`);
  // The robots answer 200 also when they refuse (a bad signature or key): the outcome is in the body.
  let answer: Record<string, unknown> | undefined;
  try {
    const parsed: unknown = JSON.parse(response.body.toString("utf8"));
    if (parsed && typeof parsed === "object") answer = parsed as Record<string, unknown>;
  } catch {
    answer = undefined;
  }
  const code = webhook.kind === "feishu" ? (answer?.code ?? answer?.StatusCode) : answer?.errcode;
  if (code !== undefined && code !== 0) {
    throw new Error(`${webhook.kind} robot refused the notice: ${String(code)} ${String(answer?.errmsg ?? answer?.msg ?? "")}`.trim());
  }
}

async function notifyHandover(
  deps: Pick<Deps, "config" | "db" | "logger" | "mail" | "models" | "now" | "realtime" | "secrets" | "sms">,
  app: ChatApp,
  conversation: ConversationRow,
  input: { reason: string; detail?: string; language: Language },
): Promise<void> {
  const manual = app.advancedConfig.manualService;
  const language = input.language;
  if (manual.aiTagging) {
    const tags = await aiTags(deps, app, conversation, language);
    if (tags.length) {
      await deps.db
        .update(conversations)
        .set({ tags: JSON.stringify(tags) })
        .where(eq(conversations.id, conversation.id));
      deps.realtime.toSpace(conversation.spaceId, "session.updated", { sessionId: conversation.id, tags });
    }
    // The customer also gets the space's own tags that fit (when the space has any), marked as the AI's.
    if (conversation.customerId) {
      await tagCustomerByAi(deps, app, conversation, language).catch((error: unknown) =>
        deps.logger.warn("AI tagging of the customer failed", { conversationId: conversation.id, error: String(error) }),
      );
    }
  }
  const { notify } = manual;
  if (!notify.email && !notify.sms && !notify.wechat && !(notify.webhook && notify.webhooks.length)) return;
  const summary = await handoverSummary(deps, app, conversation, language);
  const title = messageText(language, "handover_notice_title", { app: app.name });
  const link = `${deps.config.publicUrl}/console/chatManage?session=${conversation.id}`;
  const text = `${title}\n${summary}\n${link}`;
  const failures: string[] = [];
  if ((notify.email || notify.sms) && manual.notifyMemberIds.length) {
    const members = await deps.db
      .select({ email: users.email, phone: users.phone })
      .from(spaceMembers)
      .innerJoin(users, eq(users.id, spaceMembers.userId))
      .where(and(eq(spaceMembers.spaceId, conversation.spaceId), inArray(spaceMembers.userId, manual.notifyMemberIds)))
      .orderBy(asc(users.id));
    for (const member of members) {
      if (notify.email && member.email)
        await deps.mail.send({ to: member.email, subject: title, text }).catch((error: unknown) => failures.push(`email: ${String(error)}`));
      if (notify.sms && member.phone && deps.sms) {
        await deps.sms
          .send({
            phone: member.phone,
            template: "handover-notice",
            params: { app: app.name.slice(0, 20), customer: (conversation.senderName ?? "").slice(0, 20) },
            text,
          })
          .catch((error: unknown) => failures.push(`sms: ${String(error)}`));
      }
    }
  }
  if (notify.wechat && manual.notifyMemberIds.length) {
    // Only members still in the space; each gets the notice on every official account they bound.
    const members = await deps.db
      .select({ userId: spaceMembers.userId })
      .from(spaceMembers)
      .where(and(eq(spaceMembers.spaceId, conversation.spaceId), inArray(spaceMembers.userId, manual.notifyMemberIds)));
    const notice = { title, subject: conversation.senderName ?? conversation.groupName ?? conversation.channel, text: summary, url: link };
    failures.push(
      ...(await sendWechatNotices(
        deps,
        conversation.spaceId,
        members.map((member) => member.userId),
        notice,
      )),
    );
  }
  if (notify.webhook) {
    for (const webhook of notify.webhooks)
      await postRobotNotice(deps, webhook, text).catch((error: unknown) => failures.push(`${webhook.kind}: ${String(error)}`));
  }
  if (failures.length) deps.logger.warn("some handover notices failed", { conversationId: conversation.id, failures });
}
