import { chatFileSchema } from "./files/schemas";
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { balanceOf, listLedger } from "../billing/service/ledger";
import { listUsageRecords } from "../billing/service/usage";
import { requireAuth } from "../http/auth";
import type { AppEnv, Auth } from "../http/context";
import { errorEnvelope, ok } from "../http/envelope";
import { defineRoute, idParam, jsonBody, standardErrors } from "../http/openapi";
import { chatAppForMember } from "./service/access";
import { appVoiceServed } from "../voice/service/voice";
import { confirmDatabaseWrite } from "./service/database-tool";
import { clearContext, listConversations, listMessages, reachableConversation } from "./service/conversations";
import { streamChatTurn } from "./stream";
import { parseOpening } from "./service/opening";
import { chatEventSchema } from "./events";
import { pageQuerySchema } from "../http/schemas";

const tags = ["Chat"];

const endUserOf = (auth: Auth) => `user:${auth.userId}`;

const chatRequest = z
  .object({
    appCode: z.string().min(1).max(64).openapi({ example: "a7K2pQ9x" }),
    message: z.string().max(20_000).openapi({ example: "What can you do?", description: "The question; may be empty when `fileIds` is not" }),
    fileIds: z
      .array(z.string().min(1).max(64))
      .max(10)
      .optional()
      .openapi({ description: "Files uploaded with POST /api/v1/chat/files, sent with this message (at most 10)" }),
    conversationId: z.string().max(64).optional().openapi({ description: "Continue this conversation; omit to start one" }),
    model: z.string().max(100).optional().openapi({ description: "One of the app's models; the app's default when omitted" }),
    channel: z.enum(["web", "preview"]).optional().openapi({ description: "`preview` for the console's preview pane; `web` when omitted" }),
  })
  .openapi("ChatRequest");

const pageQuery = pageQuerySchema;

function page(query: { pageNo?: number | undefined; pageSize?: number | undefined }) {
  const size = Math.min(100, query.pageSize ?? 20);
  const number = query.pageNo ?? 1;
  return { limit: size, offset: (number - 1) * size };
}

/** Streaming chat, conversations, credits and usage records. */
export function registerChatRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      method: "post",
      path: "/api/v1/chat/stream",
      tags,
      summary: "Ask an app; the answer streams as server-sent events",
      description:
        "Each SSE event is named after its `type` and carries one ChatEvent as JSON: `message-start`, `text-delta`…, `tool-call`/`tool-result` when plugins run, `citation`, then `message-end` or `error`. Refusals before the stream starts (unknown model 400, app not found 404, insufficient credits 870) answer as envelopes.",
      security: [{ bearer: [] }],
      middleware: [requireAuth({ operation: "POST /api/v1/chat/stream" })],
      request: { body: jsonBody(chatRequest) },
      responses: {
        200: { description: "The answer as a stream of ChatEvents", content: { "text/event-stream": { schema: chatEventSchema } } },
        402: { description: "Insufficient credits (code 870)", content: { "application/json": { schema: errorEnvelope } } },
        ...standardErrors,
      },
    }),
    async (c) => {
      const { deps, auth, language } = c.var;
      const body = c.req.valid("json");
      const chatApp = await chatAppForMember(deps, auth, body.appCode);
      // Stop the model as soon as the listener leaves, however the server notices it.
      const stop = new AbortController();
      c.req.raw.signal.addEventListener("abort", () => stop.abort(), { once: true });
      const turn = {
        app: chatApp,
        endUserId: endUserOf(auth),
        memberUserId: auth.userId,
        channel: body.channel ?? "web",
        text: body.message,
        ...(body.fileIds?.length ? { fileIds: body.fileIds } : {}),
        language,
        signal: stop.signal,
        ...(body.conversationId ? { conversationId: body.conversationId } : {}),
        ...(body.model ? { model: body.model } : {}),
      };
      return streamChatTurn(c, deps, turn, stop);
    },
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/chat/apps/{appCode}",
      tags,
      summary: "An app as its chat page shows it: opening text, guiding questions, models",
      request: { params: idParam("appCode", "a7K2pQ9x") },
      data: z
        .object({
          code: z.string(),
          name: z.string(),
          avatarUrl: z.string(),
          openingText: z.string().openapi({ description: "The opening introduction (Markdown) without its guiding questions" }),
          guidingQuestions: z.array(z.string()).openapi({ description: "Questions written in [square brackets] in the opening introduction" }),
          defaultModel: z.string(),
          models: z.array(z.string()),
          imageModels: z.array(z.string()).openapi({ description: "Those of `models` that read images: attach images only when one of these answers" }),
          bottomSlogan: z.string().nullable(),
          voice: z.boolean().openapi({ description: "Whether the app reads answers aloud (POST /api/v1/voice/stream): it has a voice a provider serves" }),
        })
        .openapi("ChatAppView"),
    }),
    async (c) => {
      const chatApp = await chatAppForMember(c.var.deps, c.var.auth, c.req.valid("param").appCode);
      const opening = parseOpening(chatApp.openingIntroduction);
      await c.var.deps.models.ready();
      const models = [chatApp.defaultModel, ...chatApp.optionalModels.filter((model) => model !== chatApp.defaultModel)];
      return ok(c, {
        code: chatApp.code,
        name: chatApp.name,
        avatarUrl: chatApp.avatarUrl,
        openingText: opening.text,
        guidingQuestions: opening.guidingQuestions,
        defaultModel: chatApp.defaultModel,
        models,
        imageModels: models.filter((model) => (c.var.deps.models.resolve(model) ?? c.var.deps.models.fallback()).model.supportsImages),
        bottomSlogan: chatApp.bottomSlogan,
        voice: appVoiceServed(c.var.deps, chatApp),
      });
    },
  );

  const conversationSchema = z
    .object({
      id: z.string(),
      title: z.string().nullable(),
      channel: z.string(),
      handoverRequestedAt: z.string().nullable().openapi({
        description: "When the app handed the conversation to a person (no-hit strategy manual); null while the AI answers",
        example: null,
      }),
      createdAt: z.string(),
      updatedAt: z.string(),
    })
    .openapi("Conversation");
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/chat/conversations",
      tags,
      summary: "The caller's conversations with an app, newest first",
      request: { query: z.object({ appCode: z.string().min(1).max(64) }) },
      data: z.array(conversationSchema),
    }),
    async (c) => {
      const chatApp = await chatAppForMember(c.var.deps, c.var.auth, c.req.valid("query").appCode);
      return ok(c, await listConversations(c.var.deps, { appId: chatApp.id, endUserId: endUserOf(c.var.auth), limit: 100 }));
    },
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/chat/conversations/{conversationId}/messages",
      tags,
      summary: "Messages of one of the caller's conversations, oldest first",
      request: { params: idParam("conversationId", "conv_01jd7w3k5q9x2m4n6p8r") },
      data: z.array(
        z
          .object({
            id: z.string(),
            role: z.enum(["user", "assistant", "tool"]),
            content: z.string(),
            status: z.enum(["complete", "stopped", "error", "streaming", "interrupted"]).openapi({
              description:
                "`streaming`: the answer is being written (the content so far); `interrupted`: the server stopped mid-answer and the content is what had been sent",
            }),
            model: z.string().nullable(),
            citations: z
              .array(
                z
                  .object({
                    index: z.number().int().openapi({ description: "The source's number [n] in the answer", example: 1 }),
                    source: z.string().openapi({ description: "File name", example: "store-guide" }),
                    content: z.string().openapi({ description: "Excerpt of the cited segment", example: "Returns are accepted within thirty days…" }),
                    score: z.number().optional().openapi({ description: "Similarity of a semantic hit; absent for full-text-only hits", example: 0.82 }),
                  })
                  .openapi("ChatMessageCitation"),
              )
              .openapi({ description: "Sources the answer cites (empty when none)" }),
            createdAt: z.string(),
            attachments: z.array(chatFileSchema).openapi({ description: "Files and images the message carries (empty when none)" }),
          })
          .openapi("ChatMessage"),
      ),
    }),
    async (c) =>
      ok(
        c,
        await listMessages(c.var.deps, {
          conversationId: c.req.valid("param").conversationId,
          endUserId: endUserOf(c.var.auth),
          reach: reachableConversation(c.var.auth),
        }),
      ),
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/chat/conversations/{conversationId}/clear-context",
      tags,
      summary: "Delete context: later answers no longer remember earlier messages",
      request: { params: idParam("conversationId", "conv_01jd7w3k5q9x2m4n6p8r") },
      data: z.object({ clearedAt: z.string() }),
    }),
    async (c) =>
      ok(
        c,
        await clearContext(c.var.deps, {
          conversationId: c.req.valid("param").conversationId,
          endUserId: endUserOf(c.var.auth),
          reach: reachableConversation(c.var.auth),
        }),
      ),
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/chat/database-writes/{confirmationId}/confirm",
      tags,
      summary: "Run a database write the model asked for in one of the caller's conversations, once (the app's confirmWrites)",
      request: { params: idParam("confirmationId", "dbw_01jd7w3k5q9x2m4n6p8r") },
      data: z.object({ affectedRows: z.number().int(), sql: z.string().openapi({ description: "The statement that ran" }) }).openapi("ChatDatabaseWriteResult"),
      extraErrors: { 409: "The write already ran or expired" },
    }),
    async (c) =>
      ok(c, await confirmDatabaseWrite(c.var.deps, { id: c.req.valid("param").confirmationId, endUserId: endUserOf(c.var.auth), language: c.var.language })),
  );

  const billingTags = ["Credits"];
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/credits",
      tags: billingTags,
      summary: "The current space's credit balance",
      data: z.object({ balance: z.number().int() }).openapi("CreditBalance"),
    }),
    async (c) => ok(c, { balance: await balanceOf(c.var.deps, c.var.auth.spaceId) }),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/credits/ledger",
      tags: billingTags,
      summary: "Credit movements of the current space, newest first (the credits record)",
      request: { query: pageQuery },
      data: z.array(
        z
          .object({
            id: z.string(),
            delta: z.number().int(),
            balanceAfter: z.number().int(),
            reason: z.enum(["grant", "usage", "purchase", "check-in", "invite", "refund", "adjustment"]),
            reference: z.string().nullable(),
            userId: z.string().nullable().openapi({ description: "The member whose turn or run a usage charge paid for (null: the space's own spending)" }),
            fromAllocation: z.number().int().openapi({ description: "The part of a usage charge paid from the member's allocation" }),
            createdAt: z.string(),
          })
          .openapi("CreditMovement"),
      ),
    }),
    async (c) => ok(c, await listLedger(c.var.deps, c.var.auth.spaceId, page(c.req.valid("query")))),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/usage-records",
      tags: billingTags,
      summary: "Usage records of the current space, newest first",
      request: { query: pageQuery.extend({ appId: z.string().max(64).optional() }) },
      data: z.array(
        z
          .object({
            id: z.string(),
            appId: z.string().nullable(),
            conversationId: z.string().nullable(),
            channel: z.string().nullable(),
            prompt: z.string(),
            answer: z.string(),
            model: z.string(),
            promptTokens: z.number().int(),
            completionTokens: z.number().int(),
            credits: z.number().int(),
            createdAt: z.string(),
          })
          .openapi("UsageRecord"),
      ),
    }),
    async (c) => {
      const query = c.req.valid("query");
      const { limit, offset } = page(query);
      const rows = await listUsageRecords(c.var.deps, c.var.auth, { appId: query.appId, limit, offset });
      return ok(c, rows);
    },
  );
}
