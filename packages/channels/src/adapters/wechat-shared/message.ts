import type { InboundAttachment } from "../../types";

/** Text and attachments of a WeChat/WeCom XML message. */
export interface MessageContent {
  text: string;
  attachments: InboundAttachment[];
}

const voiceMime: Record<string, string> = { amr: "audio/amr", speex: "audio/speex", silk: "audio/silk", mp3: "audio/mpeg" };

/**
 * What a person sent, from the XML fields of an Official Account or WeCom message: text, image,
 * voice (with the speech recognition text when the account turned it on), video, short video,
 * location and link. Undefined for events and types that carry nothing to answer.
 */
export function contentOf(fields: Record<string, string>): MessageContent | undefined {
  switch (fields.MsgType) {
    case "text":
      return { text: fields.Content ?? "", attachments: [] };
    case "image":
      return fields.MediaId
        ? { text: "", attachments: [{ kind: "image", ref: fields.MediaId, ...(fields.PicUrl ? { name: fields.PicUrl } : {}) }] }
        : undefined;
    case "voice": {
      if (!fields.MediaId) return undefined;
      const mime = voiceMime[(fields.Format ?? "").toLowerCase()];
      return { text: fields.Recognition ?? "", attachments: [{ kind: "audio", ref: fields.MediaId, ...(mime ? { mime } : {}) }] };
    }
    case "video":
    case "shortvideo":
      return fields.MediaId ? { text: "", attachments: [{ kind: "video", ref: fields.MediaId }] } : undefined;
    case "location":
      return {
        text: "",
        attachments: [{ kind: "location", ref: `${fields.Location_X ?? ""},${fields.Location_Y ?? ""}`, ...(fields.Label ? { name: fields.Label } : {}) }],
      };
    case "link":
      return fields.Url ? { text: "", attachments: [{ kind: "link", ref: fields.Url, ...(fields.Title ? { name: fields.Title } : {}) }] } : undefined;
    default:
      return undefined;
  }
}

/** `CreateTime` (seconds) as milliseconds; `fallback` when absent or malformed. */
export function createdAt(fields: Record<string, string>, fallback: number): number {
  const seconds = Number(fields.CreateTime);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : fallback;
}
