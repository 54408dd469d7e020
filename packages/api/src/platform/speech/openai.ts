import { audioOf, type SpeechSynthesizer, type SpeechTone, speechFetch } from "./types";

/**
 * OpenAI's documented voices: `/audio/speech` has no endpoint listing them, so the catalogue
 * offers these unless the provider lists its own.
 */
export const OPENAI_VOICES = ["alloy", "ash", "ballad", "coral", "echo", "fable", "nova", "onyx", "sage", "shimmer", "verse"] as const;

/** Settings of a speech model behind `POST {baseUrl}/audio/speech`. */
export interface OpenAiSpeechOptions {
  /** API root including its version path, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** The voices this server offers; OpenAI's documented list when empty. */
  voices?: readonly string[];
  /** Speed, 0.25–4 (default 1). */
  speed?: number;
  /** Timeout until the audio starts, in milliseconds (default 30 000). */
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
}

/**
 * A speech model over OpenAI's `POST {baseUrl}/audio/speech` (also served by many compatible
 * servers): `{ model, input, voice, response_format: "mp3", speed }` with the key as a bearer
 * token; the answer's body is the audio, streamed as it is produced.
 */
export function createOpenAiSpeech(options: OpenAiSpeechOptions): SpeechSynthesizer {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const url = `${options.baseUrl.replace(/\/+$/, "")}/audio/speech`;
  const voices = options.voices?.length ? options.voices : OPENAI_VOICES;
  return {
    model: options.model,
    async tones(): Promise<SpeechTone[]> {
      return voices.map((id) => ({ id, name: id.charAt(0).toUpperCase() + id.slice(1), locale: null, gender: null }));
    },
    async synthesize({ text, tone, signal }) {
      const response = await speechFetch(fetchImpl, url, {
        method: "POST",
        headers: { "content-type": "application/json", ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
        body: JSON.stringify({ model: options.model, input: text, voice: tone, response_format: "mp3", speed: options.speed ?? 1 }),
        timeoutMs: options.timeoutMs ?? 30_000,
        signal,
      });
      return audioOf(response, url, "audio/mpeg");
    },
  };
}
