import { type Transcriber, TranscriptionError } from "./types";

/** Settings of a transcriber behind `POST {baseUrl}/audio/transcriptions`. */
export interface OpenAiTranscriberOptions {
  /** API root including its version path, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Per-call timeout in milliseconds (default 60 000). */
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
}

/** Reads OpenAI's error body `{ error: { message, type, code } }`, or the start of whatever else came. */
function describeError(text: string): { message: string; code?: string } {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown; code?: unknown } };
    if (body?.error && typeof body.error.message === "string") {
      return { message: body.error.message, ...(typeof body.error.code === "string" ? { code: body.error.code } : {}) };
    }
  } catch {
    // Not JSON: the raw start is the best description there is.
  }
  return { message: text.slice(0, 300) };
}

/**
 * A transcriber over OpenAI's `POST {baseUrl}/audio/transcriptions` (whisper-1,
 * gpt-4o-transcribe, and the servers that copy its wire format: Groq, SiliconFlow,
 * faster-whisper servers, LocalAI …): a multipart form with `file`, `model`, optional
 * `language` and `response_format=json`, the key as a bearer token; the answer is `{ text }`.
 */
export function createOpenAiTranscriber(options: OpenAiTranscriberOptions): Transcriber {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const url = `${options.baseUrl.replace(/\/+$/, "")}/audio/transcriptions`;
  return {
    model: options.model,
    async transcribe({ audio, fileName, mimeType, language, signal }) {
      const form = new FormData();
      form.append("file", new Blob([audio as Uint8Array<ArrayBuffer>], { type: mimeType }), fileName);
      form.append("model", options.model);
      if (language) form.append("language", language);
      form.append("response_format", "json");
      const timeout = AbortSignal.timeout(options.timeoutMs ?? 60_000);
      let response: Response;
      try {
        response = await fetchImpl(url, {
          method: "POST",
          headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
          body: form,
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
      } catch (error) {
        const reason = error instanceof Error && error.name === "TimeoutError" ? "timed out" : error instanceof Error ? error.message : String(error);
        throw new TranscriptionError(`transcription request to ${url} failed: ${reason}`);
      }
      if (!response.ok) {
        const detail = describeError(await response.text().catch(() => ""));
        throw new TranscriptionError(`transcription request to ${url} answered ${response.status}: ${detail.message}`, response.status, detail.code);
      }
      const answer = (await response.json().catch(() => undefined)) as { text?: unknown } | undefined;
      if (typeof answer?.text !== "string") throw new TranscriptionError(`transcription answer of ${url} holds no text`);
      return { text: answer.text.trim() };
    },
  };
}
