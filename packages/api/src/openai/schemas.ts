import { z } from "@hono/zod-openapi";
import { boundedJson } from "../http/schemas";

// The OpenAI-compatible surface, described in OpenAI's own shapes so that `openai` clients and
// the SDK's generated types agree (packages/sdk/src/openai-types.check.ts compiles one against
// the other). Fields Parley reads are declared; other OpenAI fields are accepted and ignored.

const textPart = z.object({ type: z.literal("text"), text: z.string() }).openapi("OpenAiTextPart");
const refusalPart = z.object({ type: z.literal("refusal"), refusal: z.string() });
const imagePart = z
  .object({ type: z.literal("image_url"), image_url: z.object({ url: z.string(), detail: z.enum(["auto", "low", "high"]).optional() }) })
  .openapi({ description: "Accepted; not yet passed to the model" });
const audioPart = z
  .object({ type: z.literal("input_audio"), input_audio: z.object({ data: z.string(), format: z.enum(["wav", "mp3"]) }) })
  .openapi({ description: "Accepted; not yet passed to the model" });
const filePart = z
  .object({ type: z.literal("file"), file: z.object({ file_data: z.string().optional(), file_id: z.string().optional(), filename: z.string().optional() }) })
  .openapi({ description: "Accepted; not yet passed to the model" });

/** A part of a user message: Parley reads `text` parts. */
export const contentPartSchema = z.discriminatedUnion("type", [textPart, imagePart, audioPart, filePart]).openapi("OpenAiContentPart");

const textContent = z.union([z.string(), z.array(textPart)]);

const functionCall = z.object({ name: z.string(), arguments: z.string() });

/** A tool call the assistant made earlier in the conversation. */
const toolCallParam = z.union([
  z.object({ id: z.string(), type: z.literal("function"), function: functionCall }),
  z
    .object({ id: z.string(), type: z.literal("custom"), custom: z.object({ name: z.string(), input: z.string() }) })
    .openapi({ description: "Custom tools are not supported: a request carrying one is refused" }),
]);

/** One message of the conversation sent with the request. */
export const messageSchema = z
  .discriminatedUnion("role", [
    z.object({ role: z.literal("system"), content: textContent, name: z.string().optional() }),
    z.object({ role: z.literal("developer"), content: textContent, name: z.string().optional() }),
    z.object({ role: z.literal("user"), content: z.union([z.string(), z.array(contentPartSchema)]), name: z.string().optional() }),
    z.object({
      role: z.literal("assistant"),
      content: z
        .union([z.string(), z.array(z.discriminatedUnion("type", [textPart, refusalPart]))])
        .nullable()
        .optional(),
      name: z.string().optional(),
      refusal: z.string().nullable().optional(),
      tool_calls: z.array(toolCallParam).optional(),
      function_call: functionCall.nullable().optional(),
    }),
    z.object({ role: z.literal("tool"), tool_call_id: z.string(), content: textContent }),
    z
      .object({ role: z.literal("function"), name: z.string(), content: z.string().nullable() })
      .openapi({ description: "Deprecated by OpenAI; read as a tool result" }),
  ])
  .openapi("OpenAiChatMessage");

const functionTool = z.object({
  type: z.literal("function"),
  function: z.object({
    name: z.string().min(1).max(64),
    description: z.string().optional(),
    parameters: boundedJson(z.record(z.string(), z.unknown())).optional(),
    strict: z.boolean().nullable().optional(),
  }),
});

const customTool = z
  .object({ type: z.literal("custom"), custom: z.object({ name: z.string(), description: z.string().optional() }) })
  .openapi({ description: "Not supported: a request carrying one is refused" });

/** `POST /v1/chat/completions`: the app's code is the model. */
export const completionRequestSchema = z
  .object({
    model: z.string().min(1).openapi({ description: "The code of one of the caller's apps (or a public app)", example: "app_k7p2qx9m3d5f8h1j" }),
    messages: z.array(messageSchema).min(1),
    stream: z.boolean().nullable().optional(),
    stream_options: z
      .object({ include_usage: z.boolean().optional(), include_obfuscation: z.boolean().optional() })
      .nullable()
      .optional()
      .openapi({ description: "`include_usage` adds a last chunk with the usage" }),
    temperature: z.number().min(0).max(2).nullable().optional().openapi({ description: "Overrides the app's temperature for this call" }),
    max_tokens: z.number().int().nullable().optional().openapi({ description: "Accepted; the app's own reply limit applies" }),
    max_completion_tokens: z.number().int().nullable().optional().openapi({ description: "Accepted; the app's own reply limit applies" }),
    tools: z
      .array(z.union([functionTool, customTool]))
      .max(128)
      .optional()
      .openapi({ description: "Functions the caller runs itself: the model may call them beside the app's own plugins" }),
    user: z.string().max(200).optional().openapi({ description: "The end user: each value gets its own conversations and usage records" }),
  })
  .openapi("OpenAiChatCompletionRequest");

export type CompletionRequest = z.infer<typeof completionRequestSchema>;

/** A knowledge passage an answer draws on (Parley's extension field `citations`). */
export const citationSchema = z
  .object({
    index: z.number().int().openapi({ description: "The source's number: the answer cites it as [index]" }),
    source: z.string().openapi({ description: "File name of the source", example: "returns-policy.pdf" }),
    content: z.string().openapi({ description: "Excerpt of the cited segment" }),
    score: z.number().optional().openapi({ description: "Cosine similarity of a semantic hit; absent for a full-text-only hit" }),
  })
  .openapi("OpenAiCitation");

const usageSchema = z.object({ prompt_tokens: z.number().int(), completion_tokens: z.number().int(), total_tokens: z.number().int() }).openapi("OpenAiUsage");

export const finishReasons = ["stop", "length", "tool_calls", "content_filter", "function_call"] as const;

const topLogprob = z.object({ token: z.string(), logprob: z.number(), bytes: z.array(z.number().int()).nullable() });
const tokenLogprob = topLogprob.extend({ top_logprobs: z.array(topLogprob) });
/** Always null: Parley does not return log probabilities. */
const logprobs = z
  .object({ content: z.array(tokenLogprob).nullable(), refusal: z.array(tokenLogprob).nullable() })
  .nullable()
  .openapi({ description: "Always null: Parley does not return log probabilities" });

const toolCall = z.object({ id: z.string(), type: z.literal("function"), function: functionCall });

/** A whole answer (`stream` false). */
export const completionSchema = z
  .object({
    id: z.string().openapi({ example: "chatcmpl-01jd7w3k5q9x2m4n6p8r" }),
    object: z.literal("chat.completion"),
    created: z.number().int().openapi({ description: "Unix seconds" }),
    model: z.string(),
    choices: z.array(
      z.object({
        index: z.number().int(),
        message: z.object({
          role: z.literal("assistant"),
          content: z.string().nullable(),
          refusal: z.string().nullable(),
          tool_calls: z.array(toolCall).optional(),
          citations: z
            .array(citationSchema)
            .optional()
            .openapi({ description: "Parley extension: the knowledge passages the answer cites, numbered as in its [n] marks. Absent when none" }),
        }),
        finish_reason: z.enum(finishReasons),
        logprobs,
      }),
    ),
    usage: usageSchema,
  })
  .openapi("OpenAiChatCompletion");

/** One server-sent event's JSON (`stream` true); the stream ends with `data: [DONE]`. */
export const completionChunkSchema = z
  .object({
    id: z.string(),
    object: z.literal("chat.completion.chunk"),
    created: z.number().int(),
    model: z.string(),
    choices: z.array(
      z.object({
        index: z.number().int(),
        delta: z.object({
          role: z.literal("assistant").optional(),
          content: z.string().nullable().optional(),
          tool_calls: z.array(z.object({ index: z.number().int(), id: z.string(), type: z.literal("function"), function: functionCall })).optional(),
          citations: z
            .array(citationSchema)
            .optional()
            .openapi({ description: "Parley extension: knowledge passages the answer cites, sent before the text that cites them" }),
        }),
        finish_reason: z.enum(finishReasons).nullable(),
        logprobs: logprobs.optional(),
      }),
    ),
    usage: usageSchema.nullable().optional().openapi({ description: "Only in the last chunk, with `stream_options.include_usage`" }),
  })
  .openapi("OpenAiChatCompletionChunk");

/** `GET /v1/models`: the apps the caller may name as `model`. */
export const modelListSchema = z
  .object({
    object: z.literal("list"),
    data: z.array(
      z.object({
        id: z.string().openapi({ description: "The app's code", example: "app_k7p2qx9m3d5f8h1j" }),
        object: z.literal("model"),
        created: z.number().int(),
        owned_by: z.string().openapi({ example: "parley" }),
      }),
    ),
  })
  .openapi("OpenAiModelList");

export const errorTypes = [
  "invalid_request_error",
  "authentication_error",
  "permission_error",
  "not_found_error",
  "rate_limit_error",
  "insufficient_quota",
  "api_error",
] as const;

/** Every refusal on this surface, in OpenAI's error format (messages follow `Accept-Language`). */
export const openAiErrorSchema = z
  .object({
    error: z.object({
      message: z.string(),
      type: z.enum(errorTypes),
      param: z.string().nullable(),
      code: z.string().nullable(),
    }),
  })
  .openapi("OpenAiError");
