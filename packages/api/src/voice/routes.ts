import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { chatAppForMember } from "../chat/service/access";
import { getAppForChat } from "../apps/service/index";
import { clientForVisitor, sessionForVisitor, WEB_EMBED_CHANNEL } from "../clients/service";
import { requireAuth } from "../http/auth";
import type { AppEnv } from "../http/context";
import { errorEnvelope, ok } from "../http/envelope";
import { defineRoute, idParam, jsonBody, standardErrors } from "../http/openapi";
import { speechCredits } from "../models/pricing";
import { audioContent, demoQuery, speechModelSchema, toneQuery, toneSchema, voiceBody, widgetVoiceBody } from "./schemas";
import { demoOf, speak, speechModel, tonesOf } from "./service/voice";

const tags = ["Voice"];
const paid = { 402: { description: "Insufficient credits (code 870)", content: { "application/json": { schema: errorEnvelope } } } };
const sessionParams = idParam("clientId", "demo").extend({
  sessionId: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "sessionId", in: "path" }, example: "wcs_01jd7w3k5q9x2m4n6p8r" }),
});

type Spoken = Awaited<ReturnType<typeof speak>>;

/** The audio as it arrives: chunked, never cached, playable before it ends. */
function streamed(c: Context<AppEnv>, audio: Spoken) {
  return c.body(audio.body, 200, { "Content-Type": audio.contentType, "Cache-Control": "no-store", "X-Parley-Credits": String(audio.credits) });
}

/** The whole audio as one file, sent once the provider finished (a failure is an envelope, not half a file). */
async function whole(c: Context<AppEnv>, audio: Spoken) {
  const bytes = new Uint8Array(await new Response(audio.body).arrayBuffer());
  return c.body(bytes, 200, {
    "Content-Type": audio.contentType,
    "Content-Length": String(bytes.length),
    "Content-Disposition": 'attachment; filename="answer.mp3"',
    "Cache-Control": "no-store",
    "X-Parley-Credits": String(audio.credits),
  });
}

const streamDescription =
  "The answer's body is the audio (MP3) as the speech provider produces it, so playback can start before it is complete. Credits per character (models/pricing.ts) are held before the call, settled when the audio was all sent and released when the provider fails. Bad input (empty text, over 4,096 characters, unknown tone, no voice, no speech model configured) answers an envelope before any audio.";

/** Speech models, tones, demos, and reading answers aloud for signed-in chats and the widget (issue 21). */
export function registerVoiceRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/speech-models",
      tags,
      summary: "List speech models",
      description:
        "Text-to-speech models the enabled providers serve (their `speechModels`); an app's `voiceModel` names one. Empty: configure one under API access → Models.",
      data: z.array(speechModelSchema),
    }),
    async (c) => {
      await c.var.deps.models.ready();
      return ok(
        c,
        c.var.deps.models.speechModels().map((model) => ({ ...model, creditsPerThousandChars: speechCredits(model.id, 1000) })),
      );
    },
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/voice/tones",
      tags,
      summary: "The tones (voices) of a speech model",
      description: "Azure's from its voice list, OpenAI's documented voices (or those the provider lists); cached for ten minutes.",
      request: { query: toneQuery },
      data: z.array(toneSchema),
    }),
    async (c) => {
      const { deps } = c.var;
      return ok(c, await tonesOf(deps, await speechModel(deps, c.req.valid("query").model)));
    },
  );
  app.openapi(
    createRoute({
      method: "get",
      path: "/api/v1/voice/demo",
      tags,
      summary: "A short fixed sentence read with a tone, in the request's language (synthesized once per tone, then cached; not charged)",
      security: [{ bearer: [] }],
      middleware: [requireAuth({ operation: "GET /api/v1/voice/demo" })],
      request: { query: demoQuery },
      responses: { 200: { description: "The demo audio", content: audioContent }, ...standardErrors },
    }),
    async (c) => {
      const query = c.req.valid("query");
      const demo = await demoOf(c.var.deps, query.model, query.tone, c.var.language);
      return c.body(demo.bytes, 200, { "Content-Type": demo.contentType, "Cache-Control": "private, max-age=3600" });
    },
  );

  const signedIn = (path: "/api/v1/voice/stream" | "/api/v1/voice/read", summary: string) =>
    createRoute({
      method: "post",
      path,
      tags,
      summary,
      description: streamDescription,
      security: [{ bearer: [] }],
      middleware: [requireAuth({ operation: `POST ${path}` })],
      request: { body: jsonBody(voiceBody) },
      responses: { 200: { description: "The audio", content: audioContent }, ...paid, ...standardErrors },
    });
  const memberSpeak = async (c: Context<AppEnv>, body: z.infer<typeof voiceBody>) => {
    const { deps, auth } = c.var;
    const chatApp = await chatAppForMember(deps, auth!, body.appCode);
    return speak(deps, {
      app: chatApp,
      text: body.text,
      tone: body.tone,
      memberUserId: auth!.userId,
      endUserId: `user:${auth!.userId}`,
      channel: "web",
      signal: c.req.raw.signal,
    });
  };
  app.openapi(signedIn("/api/v1/voice/stream", "Read text aloud with an app's voice, streamed"), async (c) =>
    streamed(c, await memberSpeak(c, c.req.valid("json"))),
  );
  app.openapi(signedIn("/api/v1/voice/read", "Read text aloud with an app's voice, as one file"), async (c) =>
    whole(c, await memberSpeak(c, c.req.valid("json"))),
  );

  const visitor = (suffix: "stream" | "read", summary: string) =>
    createRoute({
      method: "post",
      path: `/api/v1/widget/{clientId}/sessions/{sessionId}/voice/${suffix}`,
      tags: ["Widget"],
      summary,
      description: `Authorization: \`Bearer <visitorToken>\`; the client's app's voice. ${streamDescription}`,
      security: [],
      request: { params: sessionParams, body: jsonBody(widgetVoiceBody) },
      responses: { 200: { description: "The audio", content: audioContent }, ...paid, ...standardErrors },
    });
  const visitorSpeak = async (c: Context<AppEnv>, params: z.infer<typeof sessionParams>, body: z.infer<typeof widgetVoiceBody>) => {
    const { deps } = c.var;
    const row = await clientForVisitor(deps, params.clientId, c.req.header("origin"));
    const { conversation } = await sessionForVisitor(deps, row, params.sessionId, c.req.header("authorization"));
    const chatApp = await getAppForChat(deps, { appId: row.appId });
    return speak(deps, {
      app: chatApp,
      text: body.text,
      tone: body.tone,
      endUserId: conversation.endUserId,
      channel: WEB_EMBED_CHANNEL,
      signal: c.req.raw.signal,
    });
  };
  app.openapi(visitor("stream", "The visitor hears an answer read aloud, streamed"), async (c) =>
    streamed(c, await visitorSpeak(c, c.req.valid("param"), c.req.valid("json"))),
  );
  app.openapi(visitor("read", "The visitor gets an answer read aloud as one file"), async (c) =>
    whole(c, await visitorSpeak(c, c.req.valid("param"), c.req.valid("json"))),
  );
}
