import { readBodyUpTo } from "@parley/channels";
import type { Deps } from "../kernel";
import { CHAT_IMAGE_MAX_BYTES, detectChatFile } from "../chat/files/service";
import { outboundPolicy, PluginNetworkError, policedFetch, type Resolver } from "../plugins/service/network";
import type { ImagePart } from "../platform/llm/types";

/** Longest Parley waits for an `image_url` address to answer. */
const IMAGE_FETCH_TIMEOUT_MS = 15_000;

/** Images one request may carry. */
export const MAX_IMAGES_PER_REQUEST = 20;

/** Why an `image_url` part was refused: OpenAI's error code and a message id, with the part's path. */
export class ImageInputError extends Error {
  constructor(
    readonly messageId: "openai_image_invalid" | "openai_image_forbidden" | "openai_image_unreachable" | "openai_image_too_large" | "openai_images_too_many",
    readonly param: string,
  ) {
    super(messageId);
  }
}

/** A part as the request named it: a data URL or an address, where it sits in the request. */
export interface ImageReference {
  url: string;
  param: string;
}

const DATA_URL = /^data:([a-z0-9.+/-]+)?(;[a-z0-9-]+=[^;,]*)*;base64,(.*)$/is;

/** The image's bytes, checked: a JPEG or PNG by its first bytes, at most 5 MB. */
function checked(bytes: Uint8Array | undefined, param: string): ImagePart {
  if (!bytes) throw new ImageInputError("openai_image_too_large", param);
  if (bytes.byteLength > CHAT_IMAGE_MAX_BYTES) throw new ImageInputError("openai_image_too_large", param);
  const detected = detectChatFile(bytes, "");
  if (detected?.kind !== "image") throw new ImageInputError("openai_image_invalid", param);
  return { type: "image", mediaType: detected.mimeType, data: bytes };
}

/**
 * Turns the request's `image_url` parts into images for the model. Data URLs are decoded; other
 * addresses are fetched by Parley under the one outbound network policy (no loopback, metadata
 * or private address unless the administrator allowed it, at most 3 redirects, each checked),
 * read up to 5 MB, and checked by their bytes like an upload. The model then gets the bytes
 * inline, whatever vendor serves it.
 */
export async function resolveImages(deps: Pick<Deps, "config"> & { resolver?: Resolver }, references: readonly ImageReference[]): Promise<ImagePart[]> {
  if (references.length > MAX_IMAGES_PER_REQUEST) throw new ImageInputError("openai_images_too_many", references[MAX_IMAGES_PER_REQUEST]?.param ?? "messages");
  const fetch = policedFetch(outboundPolicy({ plugins: deps.config.plugins }), deps.resolver);
  return Promise.all(
    references.map(async ({ url, param }) => {
      const data = DATA_URL.exec(url);
      if (data) {
        // Base64 is 4/3 of the bytes: a longer text cannot decode to an image under the limit.
        if ((data[3]?.length ?? 0) > Math.ceil((CHAT_IMAGE_MAX_BYTES * 4) / 3) + 4) throw new ImageInputError("openai_image_too_large", param);
        return checked(Buffer.from(data[3] ?? "", "base64"), param);
      }
      let address: URL;
      try {
        address = new URL(url);
      } catch {
        throw new ImageInputError("openai_image_invalid", param);
      }
      if (address.protocol !== "https:" && address.protocol !== "http:") throw new ImageInputError("openai_image_invalid", param);
      let response: Response;
      try {
        response = await fetch(address, { signal: AbortSignal.timeout(IMAGE_FETCH_TIMEOUT_MS), headers: { accept: "image/png,image/jpeg" } });
      } catch (error) {
        if (error instanceof PluginNetworkError && (error.reason === "refused" || error.reason === "url"))
          throw new ImageInputError("openai_image_forbidden", param);
        throw new ImageInputError("openai_image_unreachable", param);
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        throw new ImageInputError("openai_image_unreachable", param);
      }
      let bytes: Uint8Array | undefined;
      try {
        bytes = await readBodyUpTo(response, CHAT_IMAGE_MAX_BYTES);
      } catch {
        throw new ImageInputError("openai_image_unreachable", param);
      }
      return checked(bytes, param);
    }),
  );
}
