import type { InboundAttachment, InboundMessage } from "../../types";
import { arrayAt, isObject, numberAt, objectAt, stringAt, type JsonObject } from "../global-shared/http";
import { snowflakeTime } from "./snowflake";

/** Interaction types (Discord "Interaction Object"). */
export const InteractionType = { PING: 1, APPLICATION_COMMAND: 2, MESSAGE_COMPONENT: 3, AUTOCOMPLETE: 4, MODAL_SUBMIT: 5 } as const;

/** Follow-ups through the interaction token are accepted this long after the interaction. */
export const INTERACTION_TOKEN_LIFETIME_MS = 15 * 60 * 1000;

const OPTION_SUB_COMMAND = 1;
const OPTION_SUB_COMMAND_GROUP = 2;
const OPTION_STRING = 3;
const OPTION_ATTACHMENT = 11;

/**
 * A slash command (e.g. `/ask question:…`) as a message: the text is its first string option,
 * attachments come from attachment options. Other interaction types and commands used by bots
 * carry nothing to answer.
 */
export function parseInteraction(interaction: unknown): InboundMessage[] {
  if (numberAt(interaction, "type") !== InteractionType.APPLICATION_COMMAND || !isObject(interaction)) return [];
  const id = stringAt(interaction, "id");
  const token = stringAt(interaction, "token");
  const applicationId = stringAt(interaction, "application_id");
  const channelId = stringAt(interaction, "channel_id") ?? stringAt(objectAt(interaction, "channel"), "id");
  // In a server the person is member.user; in a DM it is user.
  const user = objectAt(objectAt(interaction, "member"), "user") ?? objectAt(interaction, "user");
  const userId = stringAt(user, "id");
  if (!id || !token || !applicationId || !channelId || !userId || user?.bot === true) return [];
  const createdAt = snowflakeTime(id) ?? 0;
  const data = objectAt(interaction, "data");
  const options = arrayAt(data, "options").filter(isObject);
  const guildId = stringAt(interaction, "guild_id");
  const avatar = stringAt(user, "avatar");
  const name = stringAt(user, "global_name") ?? stringAt(user, "username");
  const channelName = stringAt(objectAt(interaction, "channel"), "name");
  return [
    {
      dedupeKey: id,
      conversation: { id: channelId, isGroup: guildId !== undefined, ...(channelName ? { name: channelName } : {}) },
      sender: {
        id: userId,
        ...(name ? { name } : {}),
        ...(avatar ? { avatarUrl: `https://cdn.discordapp.com/avatars/${userId}/${avatar}.png` } : {}),
        isBot: false,
      },
      text: firstString(options)?.trim() ?? "",
      attachments: attachmentsOf(options, objectAt(objectAt(data, "resolved"), "attachments")),
      sentAt: createdAt,
      reply: {
        applicationId,
        interactionId: id,
        interactionToken: token,
        expiresAt: createdAt + INTERACTION_TOKEN_LIFETIME_MS,
        channelId,
      },
    },
  ];
}

/** The value of the first string option, looking inside subcommands and subcommand groups. */
function firstString(options: JsonObject[]): string | undefined {
  for (const option of options) {
    const type = numberAt(option, "type");
    if (type === OPTION_STRING && typeof option.value === "string") return option.value;
    if (type === OPTION_SUB_COMMAND || type === OPTION_SUB_COMMAND_GROUP) {
      const nested = firstString(arrayAt(option, "options").filter(isObject));
      if (nested !== undefined) return nested;
    }
  }
  return undefined;
}

function attachmentsOf(options: JsonObject[], resolved: JsonObject | undefined): InboundAttachment[] {
  const attachments: InboundAttachment[] = [];
  for (const option of options) {
    const type = numberAt(option, "type");
    if (type === OPTION_SUB_COMMAND || type === OPTION_SUB_COMMAND_GROUP) {
      attachments.push(...attachmentsOf(arrayAt(option, "options").filter(isObject), resolved));
      continue;
    }
    if (type !== OPTION_ATTACHMENT || typeof option.value !== "string") continue;
    const attachment = objectAt(resolved, option.value);
    const url = stringAt(attachment, "url");
    if (!url) continue;
    const mime = stringAt(attachment, "content_type");
    const name = stringAt(attachment, "filename");
    const kind = mime?.startsWith("image/") ? "image" : mime?.startsWith("audio/") ? "audio" : mime?.startsWith("video/") ? "video" : "file";
    attachments.push({ kind, ref: url, ...(mime ? { mime } : {}), ...(name ? { name } : {}) });
  }
  return attachments;
}
