import type { components } from "@parley/sdk";
import { call, client, type CallOptions } from "./request";

type Schemas = components["schemas"];
type Extra = Pick<CallOptions, "silent" | "signal" | "dedupeKey">;

/** A speech-to-text model the instance serves. */
export type TranscriptionModel = Schemas["TranscriptionModel"];

/** Speech input: which transcription models are served, and a recording turned into text for the chat input. */
export const speechEndpoints = {
  transcriptionModels: (extra: Extra = {}) => call({ dedupeKey: "transcription-models", ...extra }, (init) => client.GET("/api/v1/transcription-models", init)),
  /** Multipart upload of one recording; answers its text (the chat input gets it, nothing is sent to the app). */
  transcribe: (recording: Blob, fileName: string, extra: Extra = {}) =>
    call(extra, (init) => {
      const form = new FormData();
      form.append("file", recording, fileName);
      // FormData goes to fetch untouched, which sets the boundary.
      return client.POST("/api/v1/chat/transcriptions", {
        ...init,
        body: form as unknown as Schemas["TranscriptionRequest"],
        bodySerializer: (body: unknown) => body as FormData,
      });
    }),
};
