import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { clientForVisitor, sessionForVisitor, WEB_EMBED_CHANNEL } from "../clients/service";
import { fail } from "../errors";
import type { AppEnv } from "../http/context";
import { ok } from "../http/envelope";
import { defineRoute, idParam } from "../http/openapi";
import { transcriptionCredits } from "../models/pricing";
import { transcriptionModelSchema } from "../models/schemas";
import { transcriptionBody, transcriptionSchema } from "./schemas";
import { transcribeForSpace } from "./service";

/** Paths that take a recording: the general body limit is too small for them (see app.ts). */
export const SPEECH_UPLOAD_PATH = /^\/api\/v1\/(?:chat\/transcriptions|widget\/[^/]+\/sessions\/[^/]+\/transcriptions)$/;

/** Transcriptions one visitor session may ask for in {@link VISITOR_TRANSCRIPTION_WINDOW_SECONDS}: they cost the space credits. */
export const VISITOR_TRANSCRIPTIONS_PER_WINDOW = 30;
const VISITOR_TRANSCRIPTION_WINDOW_SECONDS = 10 * 60;

const multipart = { required: true, content: { "multipart/form-data": { schema: transcriptionBody } } } as const;
const errors = {
  409: "No transcription model is configured (`speech_no_model`): the instance owner adds one to a model provider (API access → Models)",
  413: "The recording is larger than 15 MB",
  502: "The provider failed; nothing was charged",
};

async function readForm(form: Record<string, unknown>) {
  const file = form.file;
  if (!(file instanceof File)) throw fail.invalid("field_required", "file", { field: "file" });
  return {
    audio: new Uint8Array(await file.arrayBuffer()),
    ...(typeof form.language === "string" && form.language ? { language: form.language } : {}),
    ...(typeof form.model === "string" && form.model ? { model: form.model } : {}),
  };
}

/** Speech input: the transcription models, and recordings turned into chat input for members and widget visitors. */
export function registerSpeechRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/transcription-models",
      tags: ["Models"],
      summary: "List speech-to-text models",
      description:
        "Transcription models the enabled providers serve (their `transcriptionModels`), with what a minute of audio costs. Empty means speech input is off: the chat shows no microphone.",
      data: z.array(transcriptionModelSchema),
    }),
    async (c) => {
      await c.var.deps.models.ready();
      return ok(
        c,
        c.var.deps.models.transcriptionModels().map((model) => ({ ...model, creditsPerMinute: transcriptionCredits(model.id, 60) })),
      );
    },
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/chat/transcriptions",
      tags: ["Chat"],
      summary: "Transcribe a spoken question (the chat's microphone)",
      description:
        "Takes a recording (multipart `file`) and answers its text for the chat input; nothing is sent to the app. The file must be audio by its first bytes, at most 15 MB and 10 minutes, checked before the provider is called. The space pays the model's price per minute (held before, settled after, released on failure) and the call leaves a usage record.",
      request: { body: multipart },
      data: transcriptionSchema,
      extraErrors: errors,
    }),
    async (c) => {
      const input = await readForm(c.req.valid("form") as Record<string, unknown>);
      return ok(c, await transcribeForSpace(c.var.deps, { ...input, spaceId: c.var.auth.spaceId, channel: "web" }));
    },
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/widget/{clientId}/sessions/{sessionId}/transcriptions",
      tags: ["Widget"],
      public: true,
      summary: "Transcribe a visitor's spoken question (Authorization: Bearer <visitorToken>)",
      description:
        "As POST /api/v1/chat/transcriptions, for the widget's microphone: the client's space pays and the usage record names its app. At most 30 per session in 10 minutes.",
      request: {
        params: idParam("clientId", "demo").extend({
          sessionId: z
            .string()
            .min(1)
            .max(64)
            .openapi({ param: { name: "sessionId", in: "path" }, example: "wcs_01jd7w3k5q9x2m4n6p8r" }),
        }),
        body: multipart,
      },
      data: transcriptionSchema,
      extraErrors: { ...errors, 403: "The client is disabled or the site's origin is not allowed" },
    }),
    async (c) => {
      const { deps } = c.var;
      const params = c.req.valid("param");
      const row = await clientForVisitor(deps, params.clientId, c.req.header("origin"));
      const { conversation } = await sessionForVisitor(deps, row, params.sessionId, c.req.header("authorization"));
      const wait = await deps.throttle.hit(
        `widget-transcriptions:${params.sessionId}`,
        VISITOR_TRANSCRIPTIONS_PER_WINDOW,
        VISITOR_TRANSCRIPTION_WINDOW_SECONDS,
      );
      if (wait > 0) throw fail.rateLimited(wait);
      const input = await readForm(c.req.valid("form") as Record<string, unknown>);
      return ok(
        c,
        await transcribeForSpace(deps, { ...input, spaceId: row.spaceId, appId: row.appId, endUserId: conversation.endUserId, channel: WEB_EMBED_CHANNEL }),
      );
    },
  );
}
