import { call, client } from "./request";
import type { Extra } from "./endpoints/shared";

/** Text to speech (issue 21): speech models, tones, demos and reading an answer aloud. */
export const voiceEndpoints = {
  speechModels: (extra: Extra = {}) => call({ dedupeKey: "speech-models", ...extra }, (init) => client.GET("/api/v1/speech-models", init)),
  tones: (model: string, extra: Extra = {}) =>
    call({ dedupeKey: `voice-tones-${model}`, ...extra }, (init) => client.GET("/api/v1/voice/tones", { ...init, params: { query: { model } } })),
  /** The demo audio of a tone, as a blob. */
  demo: (model: string, tone: string, extra: Extra = {}) =>
    call(extra, (init) => client.GET("/api/v1/voice/demo", { ...init, params: { query: { model, tone } }, parseAs: "blob" }) as Promise<{ data?: Blob }>),
  /**
   * The app's voice reading `text`, as the stream arrives; undefined when it failed (read-aloud
   * stays silent on failure, spec §8).
   */
  stream: async (appCode: string, text: string, signal?: AbortSignal): Promise<{ body: ReadableStream<Uint8Array>; contentType: string } | undefined> => {
    try {
      const answer = await client.POST("/api/v1/voice/stream", { body: { appCode, text }, parseAs: "stream", ...(signal ? { signal } : {}) });
      const body = answer.data as ReadableStream<Uint8Array> | undefined;
      if (!answer.response?.ok || !body) return undefined;
      return { body, contentType: answer.response?.headers.get("content-type") ?? "audio/mpeg" };
    } catch {
      return undefined;
    }
  },
};
