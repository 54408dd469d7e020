import type { AdapterIO, ChannelConfig, InboundAttachment, InboundMessage } from "../../types";
import { postWithToken } from "../wechat-shared/api";

/**
 * Pulling messages with `kf/sync_msg`: the callback only says "something arrived" (with a
 * short-lived Token); the messages are read from a cursor kept per corp and customer-service account.
 */

/** One entry of `msg_list` (only the fields Parley reads). */
interface SyncedMessage {
  msgid?: string;
  open_kfid?: string;
  external_userid?: string;
  send_time?: number;
  /** 3 = the WeChat customer, 4 = system event, 5 = a servicer in the WeCom client. */
  origin?: number;
  msgtype?: string;
  text?: { content?: string };
  image?: { media_id?: string };
  voice?: { media_id?: string };
  video?: { media_id?: string };
  file?: { media_id?: string };
  location?: { latitude?: number; longitude?: number; name?: string; address?: string };
  link?: { title?: string; url?: string };
}

/** `sync_msg` allows at most 1000 per page. */
const pageLimit = 1000;
/** A guard against a platform that keeps answering has_more. */
const maxPages = 50;
/** Cursors are kept this long (messages are readable for 3 days; a month-old cursor is merely stale). */
const cursorTtlSeconds = 30 * 24 * 3600;

/** The kv key of the cursor for one corp and customer-service account. */
export function cursorKey(corpId: string, openKfId: string): string {
  return `wechat-customer-service:cursor:${corpId}:${openKfId || "*"}`;
}

function attachmentOf(item: SyncedMessage): InboundAttachment | undefined {
  switch (item.msgtype) {
    case "image":
      return item.image?.media_id ? { kind: "image", ref: item.image.media_id } : undefined;
    case "voice":
      return item.voice?.media_id ? { kind: "audio", ref: item.voice.media_id, mime: "audio/amr" } : undefined;
    case "video":
      return item.video?.media_id ? { kind: "video", ref: item.video.media_id } : undefined;
    case "file":
      return item.file?.media_id ? { kind: "file", ref: item.file.media_id } : undefined;
    case "location": {
      const place = item.location;
      if (place?.latitude === undefined || place.longitude === undefined) return undefined;
      const name = place.name ?? place.address;
      return { kind: "location", ref: `${place.latitude},${place.longitude}`, ...(name ? { name } : {}) };
    }
    case "link":
      return item.link?.url ? { kind: "link", ref: item.link.url, ...(item.link.title ? { name: item.link.title } : {}) } : undefined;
    default:
      return undefined;
  }
}

/** A customer's message (origin 3) as an InboundMessage; undefined for events, servicers' messages and unsupported types. */
export function normalize(item: SyncedMessage, corpId: string, fallbackTime: number): InboundMessage | undefined {
  if (item.origin !== 3 || !item.msgid || !item.external_userid || !item.open_kfid) return undefined;
  const text = item.msgtype === "text" ? (item.text?.content ?? "") : "";
  const attachment = attachmentOf(item);
  if (!text && !attachment) return undefined;
  return {
    dedupeKey: `wechat-customer-service:${corpId}:${item.msgid}`,
    conversation: { id: `${item.open_kfid}:${item.external_userid}`, isGroup: false },
    sender: { id: item.external_userid, isBot: false },
    text,
    attachments: attachment ? [attachment] : [],
    sentAt: typeof item.send_time === "number" && item.send_time > 0 ? item.send_time * 1000 : fallbackTime,
    reply: { touser: item.external_userid, openKfId: item.open_kfid },
  };
}

/** How `sync_msg` is called for one account. */
export interface SyncRequest {
  config: ChannelConfig;
  tokenKey: string;
  issue: () => Promise<{ token: string; expiresInSeconds: number }>;
  /** The Token from the callback (valid 10 minutes). */
  syncToken: string;
  openKfId: string;
}

/**
 * Reads every page from the stored cursor onwards and returns the customers' messages (each msgid
 * once); the cursor is stored when the last page has been read.
 */
export async function pullMessages(request: SyncRequest, io: AdapterIO): Promise<InboundMessage[]> {
  const corpId = request.config.corpId ?? "";
  const key = cursorKey(corpId, request.openKfId);
  let cursor = await io.kv.get(key);
  const messages: InboundMessage[] = [];
  const seen = new Set<string>();
  for (let page = 0; page < maxPages; page += 1) {
    const answer = await postWithToken(
      io,
      request.tokenKey,
      request.issue,
      "/cgi-bin/kf/sync_msg",
      {
        ...(cursor ? { cursor } : {}),
        ...(request.syncToken ? { token: request.syncToken } : {}),
        limit: pageLimit,
        voice_format: 0,
        ...(request.openKfId ? { open_kfid: request.openKfId } : {}),
      },
      "WeChat customer service sync_msg",
    );
    const list = Array.isArray(answer.msg_list) ? (answer.msg_list as SyncedMessage[]) : [];
    for (const item of list) {
      const message = normalize(item, corpId, io.now());
      if (message && !seen.has(message.dedupeKey)) {
        seen.add(message.dedupeKey);
        messages.push(message);
      }
    }
    if (typeof answer.next_cursor === "string" && answer.next_cursor) cursor = answer.next_cursor;
    if (answer.has_more !== 1) break;
  }
  // Saved only once every page was read: a failure midway throws, and the retried parse reads the
  // same pages again rather than skipping messages that were never returned.
  if (cursor) await io.kv.set(key, cursor, cursorTtlSeconds);
  return messages;
}
