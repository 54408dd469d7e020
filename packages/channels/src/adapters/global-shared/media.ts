import { ChannelError, MEDIA_MAX_BYTES, type OutboundImage } from "../../types";

/** Code of the refusal raised when a platform's media is larger than {@link MEDIA_MAX_BYTES}. */
export const MEDIA_TOO_LARGE = "media_too_large";

function tooLarge(what: string): ChannelError {
  return new ChannelError(`${what}: the media is larger than ${MEDIA_MAX_BYTES} bytes`, { retryable: false, platformCode: MEDIA_TOO_LARGE });
}

/**
 * Reads a body up to `limit` bytes: undefined as soon as it is longer (a declared Content-Length
 * over the limit is refused before reading; a streamed body stops being read there), so an
 * oversized answer is never held whole. A broken stream throws.
 */
export async function readBodyUpTo(response: Response, limit: number): Promise<Uint8Array | undefined> {
  const declared = Number(response.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => {});
    return undefined;
  }
  if (!response.body) return new Uint8Array();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * Reads a media download's body, stopping (and refusing, not retryable) as soon as it passes
 * `limit` bytes: a declared Content-Length over the limit is refused before reading at all.
 */
export async function readMediaBody(response: Response, what: string, limit = MEDIA_MAX_BYTES): Promise<Uint8Array> {
  let bytes: Uint8Array | undefined;
  try {
    bytes = await readBodyUpTo(response, limit);
  } catch (error) {
    throw new ChannelError(`${what}: ${error instanceof Error ? error.message : String(error)}`, { retryable: true });
  }
  if (!bytes) throw tooLarge(what);
  return bytes;
}

/** The media type of a download without its parameters (`image/jpeg; charset=…` → `image/jpeg`). */
export function mediaType(response: Response): string | undefined {
  const type = response.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  return type || undefined;
}

/** The file name in a Content-Disposition header (`filename*=UTF-8''…` or `filename="…"`). */
export function dispositionName(response: Response): string | undefined {
  const header = response.headers.get("content-disposition") ?? "";
  const extended = /filename\*\s*=\s*[^']*''([^;]+)/i.exec(header)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended.trim());
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(header)?.[1];
  return plain?.trim() || undefined;
}

/** A download that failed on the platform's side: 5xx and 429 retry, other answers are refusals. */
export function downloadFailure(response: Response, what: string, platformCode?: string | number): ChannelError {
  return new ChannelError(`${what}: HTTP ${response.status}`, {
    retryable: response.status >= 500 || response.status === 429,
    platformCode: platformCode ?? response.status,
  });
}

/** The image as a Blob for a multipart upload. */
export function imageBlob(image: OutboundImage): Blob {
  return new Blob([new Uint8Array(image.bytes)], { type: image.mime });
}
