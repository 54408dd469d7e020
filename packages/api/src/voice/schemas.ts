import { z } from "@hono/zod-openapi";
import { speechFormats } from "../platform/speech/types";
import { VOICE_TEXT_MAX } from "./service/voice";

/** A speech model an app may read aloud with (GET /api/v1/speech-models). */
export const speechModelSchema = z
  .object({
    id: z.string().openapi({ description: "The id an app's `voiceModel` names", example: "tts-1" }),
    providerId: z.string().openapi({ example: "mp_01jd7w3k5q9x2m4n6p8r" }),
    providerName: z.string().openapi({ example: "OpenAI" }),
    format: z.enum(speechFormats).openapi({ description: "The provider's wire format", example: "openai" }),
    creditsPerThousandChars: z
      .number()
      .openapi({ description: "Credits 1,000 characters read aloud cost (each call rounds up to whole credits)", example: 150 }),
  })
  .openapi("SpeechModel");

/** A tone (voice) of a speech model. */
export const toneSchema = z
  .object({
    id: z.string().openapi({ description: "The tone id an app's `voice` names", example: "alloy" }),
    name: z.string().openapi({ example: "Alloy" }),
    locale: z.string().nullable().openapi({ description: "The locale it speaks natively, null when it speaks many", example: null }),
    gender: z.enum(["female", "male", "neutral"]).nullable().openapi({ example: null }),
  })
  .openapi("VoiceTone");

/** `?model=` of the tone list. */
export const toneQuery = z.object({
  model: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: "model", in: "query" }, description: "A speech model id (GET /api/v1/speech-models)", example: "tts-1" }),
});

/** `?model=&tone=` of a demo. */
export const demoQuery = toneQuery.extend({
  tone: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: "tone", in: "query" }, example: "alloy" }),
});

const text = z
  .string()
  .max(100_000)
  .openapi({ description: `The text to read aloud: 1 to ${VOICE_TEXT_MAX} characters`, example: "Shipping takes three days." });
const tone = z
  .string()
  .min(1)
  .max(100)
  .optional()
  .openapi({ description: "Another tone of the app's speech model; the app's own voice when omitted", example: "nova" });

/** Body of the signed-in voice/stream and voice/read. */
export const voiceBody = z.object({ appCode: z.string().min(1).max(64).openapi({ example: "a7K2pQ9x" }), text, tone }).openapi("VoiceRequest");

/** Body of the widget's voice/stream and voice/read. */
export const widgetVoiceBody = z.object({ text, tone }).openapi("WidgetVoiceRequest");

/** The audio answers: MP3 as the provider produces it. */
export const audioContent = { "audio/mpeg": { schema: z.string().openapi({ type: "string", format: "binary" }) } };
