import { z } from "@hono/zod-openapi";

const usage = z.object({ promptTokens: z.number().int(), completionTokens: z.number().int() }).openapi("TokenUsage");

/**
 * The chat stream: one tagged union shared by the API, the SDK and the widget. Each SSE event's
 * name equals its `type`.
 */
export const chatEventSchema = z
  .discriminatedUnion("type", [
    z
      .object({
        type: z.literal("message-start"),
        conversationId: z.string(),
        messageId: z.string(),
        model: z.string().openapi({ description: "The model answering (the offline responder is `parley-offline`)" }),
        offline: z.boolean(),
      })
      .openapi("ChatMessageStart"),
    z.object({ type: z.literal("text-delta"), text: z.string() }).openapi("ChatTextDelta"),
    z
      .object({ type: z.literal("tool-call"), id: z.string(), name: z.string(), arguments: z.string().openapi({ description: "JSON text" }) })
      .openapi("ChatToolCall"),
    z
      .object({
        type: z.literal("tool-result"),
        id: z.string(),
        name: z.string(),
        ok: z.boolean(),
        content: z.string(),
        durationMs: z.number(),
        table: z
          .object({
            columns: z.array(z.string()),
            rows: z.array(z.array(z.union([z.string(), z.number(), z.boolean(), z.null()]))),
            truncated: z.boolean().openapi({ description: "More rows were found than are shown" }),
          })
          .optional()
          .openapi({ description: "A database read's rows, for clients to show as a table" }),
        confirmation: z
          .object({
            id: z.string().openapi({ description: "Confirm with POST /api/v1/chat/database-writes/{id}/confirm (console) or the widget's confirm call" }),
            databaseName: z.string(),
            kind: z.enum(["insert", "update", "delete"]),
            sql: z.string().openapi({ description: "The exact statement that runs when confirmed" }),
            expiresAt: z.string(),
          })
          .optional()
          .openapi({ description: "A database write waiting for the user's confirmation (the app's confirmWrites)" }),
      })
      .openapi("ChatToolResult"),
    z
      .object({
        type: z.literal("citation"),
        index: z.number().int().openapi({ description: "The source's number: the answer cites it as [index]" }),
        source: z.string().openapi({ description: "File name of the source" }),
        content: z.string().openapi({ description: "Excerpt of the cited segment" }),
        score: z.number().optional().openapi({ description: "Cosine similarity of a semantic hit; absent for a full-text-only hit" }),
      })
      .openapi("ChatCitation"),
    z
      .object({
        type: z.literal("message-end"),
        finishReason: z
          .enum(["stop", "length", "tool-calls", "content-filter", "other", "stopped", "rate-limited", "handover"])
          .openapi({ description: "`handover`: nothing was found and the app hands the conversation to a person (no-hit strategy manual)" }),
        usage,
        credits: z.number().int().openapi({ description: "Credits charged for this answer" }),
        balance: z.number().int().nullable().openapi({ description: "The space's balance after the charge" }),
      })
      .openapi("ChatMessageEnd"),
    z
      .object({
        type: z.literal("error"),
        code: z
          .number()
          .int()
          .openapi({ description: "Envelope-style code: 429 rate limited, 870 insufficient credits, 502 model failed, 504 model timed out, 500" }),
        message: z.string(),
      })
      .openapi("ChatError"),
  ])
  .openapi("ChatEvent");

/** One event of the chat stream. */
export type ChatEvent = z.infer<typeof chatEventSchema>;
