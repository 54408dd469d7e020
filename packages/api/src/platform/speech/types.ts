/**
 * The speech port: turns text into audio with one of a provider's voices ("tones" in the spec).
 * Implementations speak a vendor's wire format; the audio is handed on as the vendor produces it.
 */

/** The wire formats a provider's speech models speak: OpenAI's `/audio/speech` (and its copies) or Azure Speech REST. */
export const speechFormats = ["openai", "azure"] as const;

/** One of {@link speechFormats}. */
export type SpeechFormat = (typeof speechFormats)[number];

/** A voice of a speech model. */
export interface SpeechTone {
  /** The id sent to the provider (`alloy`, `en-US-JennyNeural`). */
  id: string;
  /** A display name. */
  name: string;
  /** BCP 47 locale the voice speaks natively, or null when it speaks many. */
  locale: string | null;
  gender: "female" | "male" | "neutral" | null;
}

/** Audio as the provider streams it. */
export interface SpeechAudio {
  /** MIME type of the bytes (`audio/mpeg`). */
  contentType: string;
  body: ReadableStream<Uint8Array>;
}

/** A model that reads text aloud. */
export interface SpeechSynthesizer {
  /** The model id as apps name it. */
  readonly model: string;
  /** The voices it offers. */
  tones(signal?: AbortSignal): Promise<SpeechTone[]>;
  /** Starts synthesizing `text` with `tone`; resolves once the provider accepted, the audio still streaming. */
  synthesize(input: { text: string; tone: string; signal?: AbortSignal }): Promise<SpeechAudio>;
}

/** A speech call that failed: refused, timed out or answered something that is not audio. */
export class SpeechError extends Error {
  override name = "SpeechError";
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** Fetches with a timeout on the answer's head, turning network failures into {@link SpeechError}s. */
export async function speechFetch(
  fetchImpl: typeof fetch,
  url: string,
  init: RequestInit & { timeoutMs: number; signal?: AbortSignal | undefined },
): Promise<Response> {
  const { timeoutMs, signal, ...rest } = init;
  const timeout = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetchImpl(url, { ...rest, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
  } catch (error) {
    const reason = error instanceof Error && error.name === "TimeoutError" ? "timed out" : error instanceof Error ? error.message : String(error);
    throw new SpeechError(`speech request to ${url} failed: ${reason}`);
  }
  if (!response.ok) {
    const detail = (await response.text().catch(() => "")).slice(0, 300);
    throw new SpeechError(`speech request to ${url} answered ${response.status}: ${detail}`, response.status);
  }
  return response;
}

/** The answer's audio, refusing a JSON or HTML answer a misconfigured server sends with 200. */
export function audioOf(response: Response, url: string, fallbackType: string): SpeechAudio {
  const contentType = (response.headers.get("content-type") ?? fallbackType).split(";")[0]!.trim().toLowerCase();
  if (!response.body) throw new SpeechError(`speech answer of ${url} has no body`);
  if (contentType.startsWith("application/json") || contentType.startsWith("text/")) {
    void response.body.cancel().catch(() => undefined);
    throw new SpeechError(`speech answer of ${url} is ${contentType}, not audio`);
  }
  return { contentType: contentType.startsWith("audio/") ? contentType : fallbackType, body: response.body };
}
