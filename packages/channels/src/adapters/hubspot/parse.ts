import type { ChannelConfig, InboundAttachment, InboundMessage } from "../../types";
import { arrayAt, isObject, objectAt, stringAt, type JsonObject } from "../global-shared/http";

/** The webhook event HubSpot sends when someone writes in a thread of the custom channel. */
export const OUTGOING_MESSAGE_EVENT = "OUTGOING_CHANNEL_MESSAGE_CREATED";

/** Actor prefixes of HubSpot's bots (B-), integrations (I-) and the system (S-): never answered, so two bots cannot loop. */
const automatedActor = /^[BIS]-/;

/** Who Parley publishes as when HubSpot's message named no delivery identifier to answer from. */
export function fallbackAgentIdentifier(channelAccountId: string): { type: string; value: string } {
  return { type: "CHANNEL_SPECIFIC_OPAQUE_ID", value: `parley:${channelAccountId}` };
}

/**
 * The messages of a custom-channel webhook (one event, or an array of them). Only
 * `OUTGOING_CHANNEL_MESSAGE_CREATED` for this channel (and channel account, when configured)
 * counts; account events (`CHANNEL_ACCOUNT_CREATED`/`UPDATED`), messages published by this app
 * and messages written by bots, integrations or the system yield nothing.
 */
export function parseWebhook(payload: unknown, config: ChannelConfig, now: number): InboundMessage[] {
  const events = Array.isArray(payload) ? payload : [payload];
  const messages: InboundMessage[] = [];
  for (const event of events) {
    const parsed = isObject(event) ? parseEvent(event, config, now) : undefined;
    if (parsed) messages.push(parsed);
  }
  return messages;
}

function parseEvent(event: JsonObject, config: ChannelConfig, now: number): InboundMessage | undefined {
  if (stringAt(event, "type") !== OUTGOING_MESSAGE_EVENT) return undefined;
  const message = objectAt(event, "message");
  const id = stringAt(message, "id");
  if (!message || !id) return undefined;
  const direction = stringAt(message, "direction");
  if (direction && direction !== "OUTGOING") return undefined;
  const channelId = idAt(event, "channelId") ?? idAt(message, "channelId");
  const channelAccountId = idAt(event, "channelAccountId") ?? idAt(message, "channelAccountId") ?? config.channelAccountId ?? "";
  if (config.channelId && channelId && channelId !== config.channelId) return undefined;
  if (config.channelAccountId && channelAccountId !== config.channelAccountId) return undefined;
  const client = objectAt(message, "client");
  if (config.appId && idAt(client, "integrationAppId") === config.appId) return undefined;

  const sender = arrayAt(message, "senders").filter(isObject)[0];
  const actorId = stringAt(sender, "actorId") ?? stringAt(message, "createdBy") ?? "";
  if (!actorId || automatedActor.test(actorId)) return undefined;
  const senderName = stringAt(sender, "name");

  const integrationThreadId = arrayAt(event, "channelIntegrationThreadIds").find((value) => typeof value === "string") as string | undefined;
  const threadId = idAt(message, "conversationsThreadId") ?? integrationThreadId;
  if (!threadId) return undefined;
  // HubSpot wrote *to* this identifier: it is the Parley agent's address on the channel, so the answer comes from it.
  const agent = objectAt(arrayAt(message, "recipients").filter(isObject)[0], "deliveryIdentifier");
  const hubspotSide = objectAt(sender, "deliveryIdentifier");
  const agentIdentifier = stringAt(agent, "value")
    ? { type: stringAt(agent, "type") ?? "CHANNEL_SPECIFIC_OPAQUE_ID", value: stringAt(agent, "value") as string }
    : fallbackAgentIdentifier(channelAccountId);
  const createdAt = Date.parse(stringAt(message, "createdAt") ?? "");
  return {
    dedupeKey: id,
    conversation: { id: threadId, isGroup: false },
    sender: { id: actorId, ...(senderName ? { name: senderName } : {}), isBot: false },
    text: (stringAt(message, "text") ?? plainText(stringAt(message, "richText") ?? "")).trim(),
    attachments: attachmentsOf(message),
    sentAt: Number.isFinite(createdAt) ? createdAt : now,
    reply: {
      channelId: channelId ?? config.channelId ?? "",
      channelAccountId,
      integrationThreadId: integrationThreadId ?? null,
      inReplyToId: id,
      agentIdentifierType: agentIdentifier.type,
      agentIdentifierValue: agentIdentifier.value,
      hubspotIdentifierType: stringAt(hubspotSide, "type") ?? null,
      hubspotIdentifierValue: stringAt(hubspotSide, "value") ?? null,
    },
  };
}

/** A string or numeric id as a string. */
function idAt(object: unknown, key: string): string | undefined {
  if (!isObject(object)) return undefined;
  const value = object[key];
  return typeof value === "string" && value ? value : typeof value === "number" ? String(value) : undefined;
}

/** Rich text without its HTML, for messages that come without a plain `text`. */
function plainText(html: string): string {
  return html
    .replace(/<br\s*\/?>|<\/p>/gi, "\n")
    .replace(/<[^>]*>/g, "")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

function attachmentsOf(message: JsonObject): InboundAttachment[] {
  const attachments: InboundAttachment[] = [];
  for (const attachment of arrayAt(message, "attachments").filter(isObject)) {
    const ref = stringAt(attachment, "url") ?? idAt(attachment, "fileId");
    if (!ref) continue;
    const usage = stringAt(attachment, "fileUsageType") ?? "";
    const kind = usage === "IMAGE" || usage === "STICKER" ? "image" : usage === "AUDIO" || usage === "VOICE_RECORDING" ? "audio" : "file";
    const name = stringAt(attachment, "name");
    attachments.push({ kind, ref, ...(name ? { name } : {}) });
  }
  return attachments;
}
