import { z } from "@hono/zod-openapi";

/** Multipart body of the transcription routes. */
export const transcriptionBody = z
  .object({
    file: z.any().openapi({
      type: "string",
      format: "binary",
      description: "The recording: WebM, Ogg, WAV, MP3 or M4A (checked by its first bytes), at most 15 MB and 10 minutes",
    }),
    language: z
      .string()
      .regex(/^[a-z]{2}$/)
      .optional()
      .openapi({ description: "ISO-639-1 language of the speech (`en`, `zh`); absent lets the model detect it", example: "en" }),
    model: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .openapi({ description: "A transcription model (GET /api/v1/transcription-models); default the first served", example: "whisper-1" }),
  })
  .openapi("TranscriptionRequest");

/** What a transcription answers. */
export const transcriptionSchema = z
  .object({
    text: z.string().openapi({ description: "The transcript, to put into the chat input", example: "What does shipping cost?" }),
    model: z.string().openapi({ description: "The model that transcribed it", example: "whisper-1" }),
    durationSeconds: z.number().openapi({ description: "The recording's length, as read from the file", example: 3.4 }),
    credits: z.number().int().openapi({ description: "Credits charged: the model's price per minute of audio, rounded up", example: 4 }),
  })
  .openapi("Transcription");
