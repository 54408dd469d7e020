import { type AdapterIO, ChannelError, type ChannelAdapter, type ChannelConfig, type InboundAttachment, type InboundMessage } from "@parley/channels";
import { eq } from "drizzle-orm";
import { bindFilesToMessage, MAX_FILES_PER_MESSAGE, storeChatFile } from "../chat/files/service";
import { languageOf } from "../conversation/stored";
import type { ConversationRow } from "../conversation/store";
import { messages } from "../db/schema/index";
import { ServiceError } from "../errors";
import type { Language } from "../i18n/language";
import { messageText } from "../i18n/catalogue";
import type { Deps } from "../kernel";
import type { ChannelClientRow } from "./adapters";

/*
 * Images and files people send on a platform, taken in by the reply job (not the webhook, which
 * must answer within the platform's deadline): each is downloaded with the platform's media API,
 * checked and stored as a chat file of the conversation, bound to the person's stored message
 * and handed to the turn. Audio, video, locations and links stay placeholders.
 */

/** Attachments fetched and stored as chat files. */
const takenKinds = new Set<InboundAttachment["kind"]>(["image", "file"]);

/** What the reply job is told about a message's media (stored with the job: JSON only). */
export interface InboundMedia {
  attachments: InboundAttachment[];
  /** The platform message (some media APIs need its handles, e.g. Feishu's message_id). */
  message: InboundMessage;
}

/** The media of `message` the reply job should take in; undefined when there is none or the adapter cannot fetch. */
export function mediaToTake(adapter: ChannelAdapter, message: InboundMessage): InboundMedia | undefined {
  if (!adapter.fetchMedia) return undefined;
  const attachments = message.attachments.filter((attachment) => takenKinds.has(attachment.kind)).slice(0, MAX_FILES_PER_MESSAGE);
  return attachments.length ? { attachments, message } : undefined;
}

/** A file name when the platform gave none (the stored file's type comes from its bytes anyway). */
function fallbackName(attachment: InboundAttachment, mime: string | undefined): string {
  if (attachment.kind === "image") return mime === "image/png" ? "image.png" : "image.jpg";
  return "file";
}

function kindLabel(language: Language, attachment: InboundAttachment): string {
  return messageText(language, attachment.kind === "image" ? "channel_media_kind_image" : "channel_media_kind_file");
}

/** The note that replaces a file that could not be taken in, in the person's language. */
function refusalNote(language: Language, attachment: InboundAttachment, error: unknown): string {
  const kind = kindLabel(language, attachment);
  if (error instanceof ChannelError) {
    if (error.platformCode === "media_too_large") return messageText(language, "channel_media_too_large", { kind, megabytes: 15 });
    return messageText(language, "channel_media_refused", { kind });
  }
  if (error instanceof ServiceError) {
    return messageText(language, "channel_media_not_accepted", { kind, reason: messageText(language, error.messageId, error.params) });
  }
  return messageText(language, "channel_media_refused", { kind });
}

/**
 * Takes in the media of a stored platform message, once: later runs of the same job reuse what
 * the first stored. A download the platform refuses, a file over 15 MB, or one the chat-file
 * checks refuse stores nothing: it is logged and the message's text gets a note in its place,
 * so the person is still answered. Answers the ids of the stored files.
 */
export async function takeInboundMedia(
  deps: Deps,
  input: {
    row: ChannelClientRow;
    adapter: ChannelAdapter;
    config: ChannelConfig;
    io: AdapterIO;
    conversation: ConversationRow;
    messageId: string;
    media: InboundMedia;
  },
): Promise<string[]> {
  const { row, adapter, config, io, conversation, messageId, media } = input;
  const doneKey = `media:${messageId}`;
  const done = await io.kv.get(doneKey);
  if (done !== undefined) return JSON.parse(done) as string[];
  const language = languageOf(media.message.text);
  const fileIds: string[] = [];
  const taken: InboundAttachment[] = [];
  const notes: string[] = [];
  for (const attachment of media.attachments) {
    try {
      const fetched = await adapter.fetchMedia!(attachment, media.message, config, io);
      const stored = await storeChatFile(deps, {
        spaceId: conversation.spaceId,
        appId: conversation.appId,
        endUserId: conversation.endUserId,
        channel: row.kind,
        conversationId: conversation.id,
        name: fetched.name ?? attachment.name ?? fallbackName(attachment, fetched.mime),
        bytes: fetched.bytes,
      });
      fileIds.push(stored.id);
      taken.push(attachment);
    } catch (error) {
      deps.logger.warn("channel media not taken in", {
        clientId: row.id,
        kind: row.kind,
        conversationId: conversation.id,
        attachment: attachment.kind,
        ...(error instanceof ChannelError ? { platformCode: error.platformCode, retryable: error.retryable } : {}),
        ...(error instanceof ServiceError ? { reason: error.messageId } : {}),
        error: error instanceof Error ? error.message : String(error),
      });
      notes.push(refusalNote(language, attachment, error));
    }
  }
  if (fileIds.length) {
    // Bound to the person's message at once: the inbox shows them even when no answer follows (a person has the session).
    await bindFilesToMessage(deps, fileIds, conversation.id, messageId);
    await deps.db
      .update(messages)
      .set({ attachments: JSON.stringify(fileIds) })
      .where(eq(messages.id, messageId));
  }
  if (notes.length) {
    const text = media.message.text.trim();
    const kept = text ? [text] : taken.map((attachment) => `[${kindLabel(language, attachment)}]`);
    await deps.db
      .update(messages)
      .set({ content: [...kept, ...notes].join("\n") })
      .where(eq(messages.id, messageId));
  }
  await io.kv.set(doneKey, JSON.stringify(fileIds), 8 * 24 * 3600);
  return fileIds;
}
