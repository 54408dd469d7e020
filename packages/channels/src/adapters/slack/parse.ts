import type { InboundAttachment, InboundMessage } from "../../types";
import { isRecord, text } from "../workplace-shared/http";

/** The bot users this delivery was authorized for (its own messages and mentions are recognised by them). */
function botUserIds(payload: Record<string, unknown>): Set<string> {
  const ids = new Set<string>();
  const authorizations = Array.isArray(payload.authorizations) ? payload.authorizations : [];
  for (const authorization of authorizations) {
    if (isRecord(authorization) && authorization.is_bot !== false && typeof authorization.user_id === "string") ids.add(authorization.user_id);
  }
  return ids;
}

/**
 * Slack's message markup to plain text: mentions of the bot removed (and, in an `app_mention`, the
 * leading mention), other user mentions as `@name` or `@U…`, links as their label or URL, and the
 * three escaped characters restored.
 */
export function slackPlainText(raw: string, botIds: Set<string>, dropLeadingMention: boolean): string {
  let value = raw;
  if (dropLeadingMention) value = value.replace(/^\s*<@[UW][A-Z0-9]+(?:\|[^>]*)?>/, "");
  value = value.replace(/<@([UW][A-Z0-9]+)(?:\|([^>]*))?>/g, (_whole, id: string, label: string | undefined) => (botIds.has(id) ? "" : `@${label || id}`));
  value = value.replace(/<!(here|channel|everyone)(?:\|[^>]*)?>/g, "@$1");
  value = value.replace(/<#[CG][A-Z0-9]+\|([^>]*)>/g, "#$1");
  value = value.replace(/<((?:https?|mailto):[^|>]+)(?:\|([^>]*))?>/g, (_whole, url: string, label: string | undefined) => label || url);
  value = value.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
  return value.replace(/[ \t]{2,}/g, " ").trim();
}

function attachmentKind(mime: string | undefined): InboundAttachment["kind"] {
  if (mime?.startsWith("image/")) return "image";
  if (mime?.startsWith("audio/")) return "audio";
  if (mime?.startsWith("video/")) return "video";
  return "file";
}

function attachments(files: unknown): InboundAttachment[] {
  if (!Array.isArray(files)) return [];
  return files.flatMap((file): InboundAttachment[] => {
    if (!isRecord(file)) return [];
    const ref = text(file.url_private) ?? text(file.id);
    if (!ref) return [];
    const mime = text(file.mimetype);
    const name = text(file.name);
    return [{ kind: attachmentKind(mime), ref, ...(mime ? { mime } : {}), ...(name ? { name } : {}) }];
  });
}

/**
 * The message an Events API delivery carries: `app_mention` in channels and `message` in direct
 * messages (`message.im`); nothing for other events, edits and other subtypes, or bot messages.
 */
export function parseSlackEvent(payload: unknown): InboundMessage[] {
  if (!isRecord(payload) || payload.type !== "event_callback" || !isRecord(payload.event)) return [];
  const event = payload.event;
  const eventId = text(payload.event_id);
  const channel = text(event.channel);
  const user = text(event.user);
  const ts = text(event.ts);
  if (!eventId || !channel || !user || !ts) return [];
  // Bot messages (ours included) carry bot_id; edits, joins and the like carry a subtype. A file
  // shared by a person is the one subtype that is still a person's message.
  if (event.bot_id !== undefined || event.bot_profile !== undefined) return [];
  if (event.subtype !== undefined && event.subtype !== "file_share") return [];
  const isMention = event.type === "app_mention";
  // Channel messages arrive as app_mention; plain `message` events are taken only from direct messages.
  if (!isMention && !(event.type === "message" && event.channel_type === "im")) return [];
  const bots = botUserIds(payload);
  if (bots.has(user)) return [];

  const isDirect = event.channel_type === "im" || channel.startsWith("D");
  const profile = isRecord(event.user_profile) ? event.user_profile : undefined;
  const name = text(profile?.display_name) ?? text(profile?.real_name);
  const avatarUrl = text(profile?.image_72);
  const threadTs = text(event.thread_ts);
  return [
    {
      dedupeKey: eventId,
      conversation: { id: channel, isGroup: !isDirect },
      sender: { id: user, isBot: false, ...(name ? { name } : {}), ...(avatarUrl ? { avatarUrl } : {}) },
      text: slackPlainText(typeof event.text === "string" ? event.text : "", bots, isMention),
      attachments: attachments(event.files),
      sentAt: Math.round(Number(ts) * 1000) || Number(payload.event_time) * 1000 || 0,
      reply: { channel, threadTs: threadTs ?? null, teamId: text(payload.team_id) ?? null },
    },
  ];
}
