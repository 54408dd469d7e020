import { adapterFor, type AdapterIO, ChannelError, type ChannelAdapter, type InboundMessage, readInbound, type ReplyHandle, splitText } from "@parley/channels";
import { and, asc, eq, gt, inArray } from "drizzle-orm";
import { getAppForChat } from "../apps/service/index";
import { type ChatFileRow, chatFileBytes, chatFileView, filesOfMessages } from "../chat/files/service";
import { splitReply } from "../chat/service/humanization";
import { conversationEvents, type ConversationEvents } from "../conversation/bus";
import { storeMessage } from "../conversation/store";
import { answerStoredMessage } from "../conversation/stored";
import { newId } from "../crypto";
import { channelClients, conversations, customers, messages } from "../db/schema/index";
import type { Deps } from "../kernel";
import type { JobRow } from "../jobs/queue";
import { jobsOf } from "../kernel/jobs";
import type { JobHandler, JobWorker } from "../jobs/worker";
import { isChannelSession } from "../inbox/activity";
import { adapterIO, adapterOf, type ChannelClientRow, fullConfig } from "./adapters";
import { channelRefusal } from "./edge";
import { markClient } from "./service";
import { type InboundMedia, mediaToTake, takeInboundMedia } from "./media";
import { bindByMessage } from "./wechat-bindings";

/** Answers the platform's message (runs the app, then queues the delivery). */
export const CHANNEL_REPLY_JOB = "channel-reply";
/** Delivers one stored message (an answer or an operator's message) through the platform's send API. */
export const CHANNEL_SEND_JOB = "channel-send";

/**
 * Deliveries are remembered this long to drop the platform's retries: longer than the longest
 * retry window (Meta retries for days; Feishu for over 7 hours).
 */
export const DEDUPE_TTL_SECONDS = 8 * 24 * 3600;
/** How long a reply job is held by the process that started it before another may take it over. */
export const REPLY_LEASE_MS = 120_000;
/** Pause between the pieces of a split answer. */
const SPLIT_PAUSE_MS = 600;
/** Room left under a passive-reply deadline for the HTTP answer to travel back. */
const PASSIVE_MARGIN_MS = 1_200;

/** Payload of {@link CHANNEL_REPLY_JOB}. */
interface ReplyJob {
  clientId: string;
  conversationId: string;
  messageId: string;
  /** Images and files to download and hand to the turn (the webhook does not wait for them). */
  media?: InboundMedia;
}

/** Payload of {@link CHANNEL_SEND_JOB}. */
interface SendJob {
  clientId: string;
  conversationId: string;
  messageId: string;
}

/** Finds or creates the customer record of a sender. */
async function upsertCustomer(deps: Pick<Deps, "db">, row: ChannelClientRow, message: InboundMessage, now: string): Promise<string> {
  const existing = await deps.db
    .select({ id: customers.id, nickname: customers.nickname, avatarUrl: customers.avatarUrl })
    .from(customers)
    .where(and(eq(customers.spaceId, row.spaceId), eq(customers.clientId, row.id), eq(customers.externalId, message.sender.id)))
    .get();
  if (existing) {
    await deps.db
      .update(customers)
      .set({
        lastConversationAt: now,
        ...(message.sender.name && message.sender.name !== existing.nickname ? { nickname: message.sender.name } : {}),
        ...(message.sender.avatarUrl && message.sender.avatarUrl !== existing.avatarUrl ? { avatarUrl: message.sender.avatarUrl } : {}),
      })
      .where(eq(customers.id, existing.id));
    return existing.id;
  }
  const id = newId("cus");
  await deps.db
    .insert(customers)
    .values({
      id,
      spaceId: row.spaceId,
      channel: row.kind,
      clientId: row.id,
      externalId: message.sender.id,
      nickname: message.sender.name ?? "",
      avatarUrl: message.sender.avatarUrl ?? "",
      lastConversationAt: now,
    })
    .onConflictDoNothing();
  const stored = await deps.db
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.spaceId, row.spaceId), eq(customers.clientId, row.id), eq(customers.externalId, message.sender.id)))
    .get();
  return stored!.id;
}

/** The session of a platform conversation: one per client and platform conversation id. */
async function sessionFor(deps: Pick<Deps, "db">, row: ChannelClientRow, message: InboundMessage, customerId: string, now: string) {
  const existing = await deps.db
    .select()
    .from(conversations)
    .where(and(eq(conversations.clientId, row.id), eq(conversations.externalConversationId, message.conversation.id)))
    .get();
  const replyHandle = JSON.stringify(message.reply);
  if (existing) {
    const changes = {
      replyHandle,
      updatedAt: now,
      // A direct chat shows the person; a group shows its name and the latest speaker.
      ...(message.sender.name ? { senderName: message.sender.name } : {}),
      ...(message.sender.avatarUrl ? { headImageUrl: message.sender.avatarUrl } : {}),
      ...(message.conversation.name ? { groupName: message.conversation.name } : {}),
    };
    await deps.db.update(conversations).set(changes).where(eq(conversations.id, existing.id));
    return { ...existing, ...changes };
  }
  const id = newId("conv");
  await deps.db.insert(conversations).values({
    id,
    spaceId: row.spaceId,
    appId: row.appId,
    endUserId: `${row.kind}:${row.id}:${message.conversation.id}`,
    channel: row.kind,
    title: (message.conversation.name ?? message.sender.name ?? message.text).slice(0, 80),
    clientId: row.id,
    externalConversationId: message.conversation.id,
    customerId,
    isGroup: message.conversation.isGroup,
    groupName: message.conversation.name ?? null,
    senderName: message.sender.name ?? null,
    headImageUrl: message.sender.avatarUrl ?? null,
    serviceMode: message.conversation.isGroup ? "GROUP_MODE" : "FULL_AUTO_MODE",
    replyHandle,
    createdAt: now,
    updatedAt: now,
  });
  return (await deps.db.select().from(conversations).where(eq(conversations.id, id)).get())!;
}

/** Text stored for a message that carried only attachments. */
function describe(message: InboundMessage): string {
  if (message.text.trim()) return message.text;
  return message.attachments.map((attachment) => `[${attachment.kind}${attachment.name ? `: ${attachment.name}` : ""}]`).join(" ") || "[message]";
}

/**
 * Takes one platform message in: de-duplicated (a retried delivery changes nothing), the sender
 * kept as a customer, the message stored in its session (which turns unread and moves to the
 * top), and a reply job queued, already claimed by this process. Answers the job, or nothing for
 * a duplicate.
 */
async function accept(deps: Deps, row: ChannelClientRow, adapter: ChannelAdapter, io: AdapterIO, message: InboundMessage) {
  const fresh = await io.kv.setIfAbsent(`dedupe:${row.id}:${message.dedupeKey}`, "1", DEDUPE_TTL_SECONDS);
  if (!fresh) return undefined;
  try {
    const now = deps.now().toISOString();
    const customerId = await upsertCustomer(deps, row, message, now);
    const conversation = await sessionFor(deps, row, message, customerId, now);
    const messageId = await storeMessage(deps, {
      conversation,
      role: "user",
      content: describe(message),
      ...(message.sender.name ? { senderName: message.sender.name } : {}),
    });
    const media = mediaToTake(adapter, message);
    const payload = { clientId: row.id, conversationId: conversation.id, messageId, ...(media ? { media } : {}) } satisfies ReplyJob;
    // Humanization: merge waits for the person to finish typing; delay waits before any answer.
    const app = await getAppForChat(deps, { appId: row.appId });
    const { mergeReply, mergeDelaySeconds, delayReplySeconds } = app.advancedConfig.humanization;
    const waitSeconds = Math.max(mergeReply ? (mergeDelaySeconds ?? 0) : 0, delayReplySeconds);
    if (waitSeconds > 0) {
      await jobsOf(deps).enqueue(CHANNEL_REPLY_JOB, payload, {
        spaceId: row.spaceId,
        runAfter: new Date(deps.now().getTime() + waitSeconds * 1000),
      });
      return { job: undefined, message };
    }
    const job = await jobsOf(deps).enqueueClaimed(CHANNEL_REPLY_JOB, payload, { spaceId: row.spaceId, leaseMs: REPLY_LEASE_MS });
    return { job, message };
  } catch (error) {
    // Not stored: let the platform's retry in again.
    await io.kv.delete(`dedupe:${row.id}:${message.dedupeKey}`);
    throw error;
  }
}

/** The channel worker of each running instance (by its database), so accepted jobs run at once in this process. */
const workers = new WeakMap<object, JobWorker>();

/** Makes `worker` the one that runs this instance's channel jobs at once. */
export function useChannelWorker(deps: Pick<Deps, "db">, worker: JobWorker | undefined) {
  if (worker) workers.set(deps.db, worker);
  else workers.delete(deps.db);
}

function workerOf(deps: Pick<Deps, "db">): JobWorker | undefined {
  return workers.get(deps.db);
}

/**
 * A platform webhook: verified against the raw bytes (a forged, stale or malformed request is
 * refused with nothing stored), handshakes answered, messages taken in, and the platform
 * acknowledged within its deadline. Platforms with passive replies (WeChat) get the answer in
 * the response when it is ready in time; otherwise it goes out through the send API.
 */
export async function handleWebhook(deps: Deps, clientId: string, request: Request): Promise<Response> {
  const row = await deps.db.select().from(channelClients).where(eq(channelClients.id, clientId)).get();
  const adapter = row ? adapterFor(row.kind) : undefined;
  if (!row || !adapter) return channelRefusal(404, "channel_client_not_found");
  const inbound = await readInbound(request);
  // Signatures cover the address the platform called: the public one, not how the proxy forwarded it.
  inbound.url = new URL(`${deps.config.publicUrl}/api/v1/channels/${row.id}/webhook${inbound.url.search}`);
  const config = fullConfig(deps, row);
  const io = adapterIO(deps, adapter);
  const verified = await adapter.verify(inbound, config, io).catch((error: unknown) => {
    deps.logger.warn("channel verify threw", { clientId: row.id, error: String(error) });
    return { kind: "rejected" as const, status: 400 as const, reason: "unreadable" };
  });
  if (verified.kind === "handshake") {
    await markClient(deps, row.id, { ok: true });
    return verified.response;
  }
  if (verified.kind === "rejected") {
    deps.logger.info("channel webhook rejected", { clientId: row.id, kind: row.kind, reason: verified.reason });
    return channelRefusal(verified.status, "channel_request_rejected");
  }
  if (!row.enabled) return channelRefusal(403, "channel_client_disabled");
  let parsed: InboundMessage[];
  try {
    parsed = await adapter.parse(verified.payload, config, io);
  } catch (error) {
    // The platform (customer service sync_msg) failed: answer an error so it delivers again.
    await markClient(deps, row.id, { ok: false, error: String(error) });
    return channelRefusal(503, "channel_platform_unavailable");
  }
  const accepted: NonNullable<Awaited<ReturnType<typeof accept>>>[] = [];
  const bound: { message: InboundMessage; reply: string }[] = [];
  for (const message of parsed) {
    if (message.sender.isBot) continue;
    // A member binding their WeChat for notices is not a customer: no session, no answer from the app.
    const binding = await bindByMessage(deps, row, io, message);
    if (binding === "duplicate") continue;
    if (binding) {
      bound.push({ message, reply: binding.reply });
      continue;
    }
    const taken = await accept(deps, row, adapter, io, message);
    if (taken) accepted.push(taken);
  }
  await markClient(deps, row.id, { ok: true });
  if (bound.length) {
    if (parsed.length === 1 && adapter.passiveReply) return adapter.passiveReply(bound[0]!.message, bound[0]!.reply, config, io);
    for (const { message, reply } of bound) {
      void adapter
        .send(message.reply, reply, config, io)
        .catch((error: unknown) => deps.logger.warn("binding reply failed", { clientId: row.id, error: String(error) }));
    }
  }
  const worker = workerOf(deps);
  // Without a worker in this process (tests of the webhook alone), the job waits for a lease to expire.
  const run = (job: JobRow) => (worker ? worker.run(job) : Promise.resolve());
  const only = accepted.length === 1 ? accepted[0] : undefined;
  if (only?.job && adapter.capabilities.passiveReply && adapter.passiveReply) {
    // Race the answer against the platform's deadline: in time, it goes back in this response.
    const slot = passiveSlot(only.job.id, Math.max(0, adapter.capabilities.ackDeadlineMs - PASSIVE_MARGIN_MS));
    void run(only.job).finally(() => slot.settle(undefined));
    const text = await slot.answer;
    return text ? adapter.passiveReply(only.message, text, config, io) : adapter.ack(verified.payload, config);
  }
  for (const taken of accepted) if (taken.job) void run(taken.job);
  return adapter.ack(verified.payload, config);
}

/** Reply jobs a webhook is waiting on to answer passively, by job id. */
const passiveSlots = new Map<string, (text: string | undefined) => boolean>();

/**
 * Hand-off between a webhook waiting to answer passively and its reply job. The first of three
 * settles it: the job offers its text (the webhook answers with it and the job sends nothing),
 * the job ends without text, or the deadline passes (the job then sends through the API).
 */
function passiveSlot(jobId: string, budgetMs: number) {
  let settle: (text: string | undefined) => boolean = () => false;
  const answer = new Promise<string | undefined>((resolve) => {
    const timer = setTimeout(() => settle(undefined), budgetMs);
    settle = (text) => {
      if (!passiveSlots.has(jobId)) return false;
      passiveSlots.delete(jobId);
      clearTimeout(timer);
      resolve(text);
      return true;
    };
    passiveSlots.set(jobId, settle);
  });
  return { answer, settle };
}

async function loadForJob(deps: Pick<Deps, "db">, payload: { clientId: string; conversationId: string; messageId: string }) {
  const row = await deps.db.select().from(channelClients).where(eq(channelClients.id, payload.clientId)).get();
  const conversation = await deps.db.select().from(conversations).where(eq(conversations.id, payload.conversationId)).get();
  const message = await deps.db.select().from(messages).where(eq(messages.id, payload.messageId)).get();
  return { row, conversation, message };
}

/** Answers one stored platform message with the app, then queues the delivery of the answer. */
export function replyHandler(deps: Deps): JobHandler {
  return async ({ job, payload, heartbeat }) => {
    const input = payload as ReplyJob;
    const loaded = await loadForJob(deps, input);
    const { row, conversation } = loaded;
    let { message } = loaded;
    if (!row || !conversation || !message || !row.enabled) return;
    let fileIds: string[] = [];
    if (input.media) {
      const adapter = adapterOf(row.kind);
      fileIds = await takeInboundMedia(deps, {
        row,
        adapter,
        config: fullConfig(deps, row),
        io: adapterIO(deps, adapter),
        conversation,
        messageId: message.id,
        media: input.media,
      });
      // A file that could not be taken in left a note in the message's text.
      message = (await deps.db.select().from(messages).where(eq(messages.id, message.id)).get()) ?? message;
    }
    // Already answered (a retried job after the answer was stored): only make sure it goes out.
    const answered = await deps.db
      .select({ id: messages.id, delivery: messages.delivery })
      .from(messages)
      .where(and(eq(messages.conversationId, conversation.id), gt(messages.createdAt, message.createdAt), inArray(messages.role, ["assistant"])))
      .orderBy(asc(messages.createdAt))
      .get();
    if (answered) {
      if (answered.delivery !== "sent" && answered.delivery !== "failed") await queueSend(deps, row, conversation.id, answered.id);
      return;
    }
    // Merge reply: a later message of the person has its own job, which answers them together.
    const newer = await deps.db
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.conversationId, conversation.id), gt(messages.createdAt, message.createdAt), eq(messages.role, "user")))
      .get();
    const app = await getAppForChat(deps, { appId: conversation.appId });
    if (newer && app.advancedConfig.humanization.mergeReply) return;
    const reply = await answerStoredMessage(deps, conversation, message, { channel: row.kind, heartbeat, ...(fileIds.length ? { fileIds } : {}) });
    if (!reply) return;
    const { id: answerId, text: answer } = reply;
    // A webhook still waiting to answer passively takes the text; else it goes through the send API.
    if (passiveSlots.get(job.id)?.(answer)) {
      await deps.db.update(messages).set({ delivery: "sent" }).where(eq(messages.id, answerId));
      return;
    }
    await deps.db.update(messages).set({ delivery: "pending" }).where(eq(messages.id, answerId));
    await queueSend(deps, row, conversation.id, answerId);
  };
}

/**
 * Delivers every message stored as `pending` in a platform's session (a workflow's answer, an
 * operator's message) through its channel. Subscribed at start-up: whoever stores such a message
 * (the workflows, the inbox) does not import the pipeline.
 */
export function deliverStoredMessages(): void {
  conversationEvents.on("message.stored", deliverIfPending);
}

async function deliverIfPending({ deps, conversation, message }: ConversationEvents["message.stored"]) {
  if (message.delivery !== "pending" || !conversation.clientId || !isChannelSession(conversation)) return;
  await queueSend(deps, { id: conversation.clientId, spaceId: conversation.spaceId }, conversation.id, message.id);
}

/** Queues the delivery of a stored message and, with a worker in this process, runs it at once. */
export async function queueSend(deps: Pick<Deps, "db" | "now">, row: Pick<ChannelClientRow, "id" | "spaceId">, conversationId: string, messageId: string) {
  const payload = { clientId: row.id, conversationId, messageId } satisfies SendJob;
  const worker = workerOf(deps);
  if (!worker) {
    await jobsOf(deps).enqueue(CHANNEL_SEND_JOB, payload, { spaceId: row.spaceId });
    return;
  }
  await worker.run(await jobsOf(deps).enqueueClaimed(CHANNEL_SEND_JOB, payload, { spaceId: row.spaceId, leaseMs: REPLY_LEASE_MS }));
}

/**
 * Delivers a stored message in parts the platform accepts, resuming after the last part sent
 * when retried. Refusals (not retryable) mark the message failed; the rest retry with backoff.
 */
export function sendHandler(deps: Pick<Deps, "config" | "db" | "files" | "logger" | "now" | "realtime" | "secrets" | "sms">): JobHandler {
  return async ({ payload }) => {
    const input = payload as SendJob;
    const { row, conversation, message } = await loadForJob(deps, input);
    if (!row || !conversation || !message || message.delivery === "sent") return;
    const adapter: ChannelAdapter = adapterOf(row.kind);
    const io = adapterIO(deps, adapter);
    const config = fullConfig(deps, row);
    const handle = JSON.parse(conversation.replyHandle ?? "{}") as ReplyHandle;
    const app = await getAppForChat(deps, { appId: conversation.appId }).catch(() => undefined);
    const humanization = app?.advancedConfig.humanization;
    // Split reply cuts the answer into message-sized pieces; every piece then fits the platform's limit.
    const pieces = humanization?.splitReply && message.role === "assistant" ? splitReply(message.content) : [message.content];
    // An operator's images follow the text (a message of images only has no text part).
    const files = message.role === "user" ? [] : ((await filesOfMessages(deps, [message.id])).get(message.id) ?? []);
    const texts = files.length && !message.content.trim() ? [] : pieces.flatMap((piece) => splitText(piece, adapter.capabilities.maxText));
    const parts: (string | ChatFileRow)[] = [...texts, ...files];
    const progressKey = `sent:${message.id}`;
    const done = Number((await io.kv.get(progressKey)) ?? "0");
    for (let index = done; index < parts.length; index++) {
      // Pieces of a split answer follow each other like typed messages, not all at once.
      if (index > done && pieces.length > 1) await new Promise((resolve) => setTimeout(resolve, SPLIT_PAUSE_MS));
      try {
        const part = parts[index]!;
        if (typeof part === "string") await adapter.send(handle, part, config, io);
        else await sendFile(deps, adapter, handle, part, config, io);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        await markClient(deps, row.id, { ok: false, error: reason });
        if (error instanceof ChannelError && !error.retryable) {
          await deps.db
            .update(messages)
            .set({ delivery: "failed", deliveryError: reason.slice(0, 500) })
            .where(eq(messages.id, message.id));
          deps.realtime.toSpace(conversation.spaceId, "session.delivery", {
            sessionId: conversation.id,
            messageId: message.id,
            delivery: "failed",
            error: reason,
          });
          return;
        }
        throw error;
      }
      await io.kv.set(progressKey, String(index + 1), DEDUPE_TTL_SECONDS);
    }
    await deps.db.update(messages).set({ delivery: "sent", deliveryError: null }).where(eq(messages.id, message.id));
    await markClient(deps, row.id, { ok: true });
    deps.realtime.toSpace(conversation.spaceId, "session.delivery", { sessionId: conversation.id, messageId: message.id, delivery: "sent" });
  };
}

/**
 * Sends a stored file: an image through the platform's image API where the adapter has one;
 * otherwise (and for documents) its signed address as a text link, valid 24 hours.
 */
async function sendFile(
  deps: Pick<Deps, "config" | "files" | "now" | "secrets">,
  adapter: ChannelAdapter,
  handle: ReplyHandle,
  file: ChatFileRow,
  config: ReturnType<typeof fullConfig>,
  io: AdapterIO,
) {
  if (file.kind === "image" && adapter.sendImage) {
    await adapter.sendImage(handle, { bytes: await chatFileBytes(deps, file), mime: file.mimeType, name: file.name }, config, io);
    return;
  }
  await adapter.send(handle, `${file.name}: ${deps.config.publicUrl}${chatFileView(deps, file).url}`, config, io);
}

/** Marks a message whose delivery was given up as failed. */
export async function markSendGivenUp(deps: Pick<Deps, "db">, payload: unknown, error: string) {
  const input = payload as SendJob;
  await deps.db
    .update(messages)
    .set({ delivery: "failed", deliveryError: error.slice(0, 500) })
    .where(eq(messages.id, input.messageId));
}
