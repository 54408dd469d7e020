/**
 * The image port: draws pictures from a prompt and, where the provider offers it, upscales or
 * varies one of its results. Some providers answer at once (OpenAI images), others queue a task
 * and are polled (Midjourney proxies); the port hides neither: a submission answers a finished
 * {@link ImageStep} or a running one with the provider's task id to poll.
 */

/** Wire formats the image clients speak. */
export const imageFormats = ["openai", "midjourney"] as const;

/** One of {@link imageFormats}. */
export type ImageFormat = (typeof imageFormats)[number];

/** Sizes a request may ask for (width x height); providers map them to what they take. */
export const imageSizes = ["256x256", "512x512", "1024x1024", "1792x1024", "1024x1792"] as const;

/** One of {@link imageSizes}. */
export type ImageSize = (typeof imageSizes)[number];

/** An operation on one result of a finished task. */
export type ImageOperation = "upscale" | "variation";

/** One picture a provider produced. */
export interface ProducedImage {
  bytes: Uint8Array;
  contentType: string;
  /** The prompt the provider actually drew (OpenAI rewrites prompts), when it says. */
  revisedPrompt?: string;
}

/** A button of a Midjourney result (U1…V4): what an operation sends back. */
export interface ImageButton {
  customId: string;
  label: string;
}

/** Where a submitted or polled task stands at the provider. */
export type ImageStep =
  | { state: "running"; providerTaskId: string; progress: number }
  | { state: "succeeded"; providerTaskId?: string; images: ProducedImage[]; buttons?: ImageButton[] };

/** What a parent result is known by when it is operated on. */
export interface ParentResult {
  /** The provider's id of the parent task (Midjourney). */
  providerTaskId?: string | null;
  /** The parent's buttons as stored (Midjourney). */
  buttons?: readonly ImageButton[];
  /** The chosen result's bytes (OpenAI variations upload it). */
  image?: Uint8Array;
}

/** A model that draws. */
export interface ImageGenerator {
  readonly model: string;
  readonly format: ImageFormat;
  /** Operations the model offers on a result. */
  readonly operations: readonly ImageOperation[];
  /** Sizes the model draws. */
  readonly sizes: readonly ImageSize[];
  /** How many images one generate request makes (Midjourney always draws one grid of four). */
  readonly fixedCount?: number;
  generate(input: { prompt: string; size: ImageSize; count: number; signal?: AbortSignal }): Promise<ImageStep>;
  /** Upscale or vary result `index` (1-based) of a parent task. */
  operate(input: { operation: ImageOperation; index: number; parent: ParentResult; size: ImageSize; signal?: AbortSignal }): Promise<ImageStep>;
  /** Where a running task stands; only for providers that answer `running`. */
  poll(providerTaskId: string, signal?: AbortSignal): Promise<ImageStep>;
}

/**
 * Why an image call failed, as the spec's image statuses (§8) tell it: `rejected` 410 (the
 * prompt is not compliant), `unavailable` 503 (refused key, unreachable, overloaded), `failed`
 * 561 (the provider could not draw it), `unknown` 599.
 */
export type ImageErrorKind = "rejected" | "unavailable" | "failed" | "unknown";

/** A failed image call. */
export class ImageError extends Error {
  override name = "ImageError";
  constructor(
    readonly kind: ImageErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** Calls `fetch` and turns a network failure or timeout into an `unavailable` ImageError. */
export async function imageFetch(fetchImpl: typeof globalThis.fetch, url: string, init: RequestInit, timeoutMs: number): Promise<Response> {
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    return await fetchImpl(url, { ...init, signal: init.signal ? AbortSignal.any([init.signal, timeout]) : timeout });
  } catch (error) {
    const reason = error instanceof Error && error.name === "TimeoutError" ? "timed out" : error instanceof Error ? error.message : String(error);
    throw new ImageError("unavailable", `image request to ${url} failed: ${reason}`);
  }
}

/** Sniffs PNG, JPEG, WebP and GIF bytes; undefined for anything else. */
export function sniffImage(bytes: Uint8Array): string | undefined {
  const at = (offset: number, ...values: number[]) => values.every((value, index) => bytes[offset + index] === value);
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (at(0, 0xff, 0xd8, 0xff)) return "image/jpeg";
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return "image/webp";
  if (at(0, 0x47, 0x49, 0x46, 0x38)) return "image/gif";
  return undefined;
}
