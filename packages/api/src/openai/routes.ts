import { ImageInputError, type ImageReference, resolveImages } from "./images";
import { createRoute, type OpenAPIHono, type z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { stream } from "hono/streaming";
import type { ChatEvent } from "../chat/events";
import { answerTurn } from "../conversation/answer";
import { newId } from "../crypto";
import { errorCatalogue } from "../http/envelope";
import { ServiceError } from "../errors";
import { accessFor, checkAccess } from "../http/auth";
import type { AppEnv } from "../http/context";
import { translate } from "../http/translate";
import type { ImagePart, ModelMessage, ToolDefinition } from "../platform/llm/types";
import {
  type CompletionRequest,
  type citationSchema,
  completionChunkSchema,
  completionRequestSchema,
  completionSchema,
  type errorTypes,
  type finishReasons,
  modelListSchema,
  openAiErrorSchema,
} from "./schemas";
import { listOpenAiModels, type OpenAiCaller, openAiCaller, openAiModelApp } from "./service";

type OpenAiErrorType = (typeof errorTypes)[number];

function openAiError(c: Context<AppEnv>, status: number, type: OpenAiErrorType, message: string, code: string | null = null, param: string | null = null) {
  const body: z.infer<typeof openAiErrorSchema> = { error: { message, type, param, code } };
  return c.json(body, status as 400);
}

function fromServiceError(c: Context<AppEnv>, error: ServiceError) {
  const message = translate(c.var.language, error.messageId, error.params);
  switch (error.kind) {
    case "insufficient_credits":
      return openAiError(c, 402, "insufficient_quota", message, "insufficient_credits");
    case "rate_limited":
      if (error.extra.retryAfterSeconds) c.header("Retry-After", String(error.extra.retryAfterSeconds));
      return openAiError(c, 429, "rate_limit_error", message, "rate_limited");
    case "not_found":
      return openAiError(c, 404, "not_found_error", message, "model_not_found", "model");
    case "unauthenticated":
    case "session_ended":
      return openAiError(c, 401, "authentication_error", message, "invalid_api_key");
    case "forbidden":
      return openAiError(c, 403, "permission_error", message, "forbidden");
    case "validation":
      return openAiError(c, 400, "invalid_request_error", message, null, error.extra.field ?? null);
    case "upgrade_required":
      return openAiError(c, 402, "insufficient_quota", message, "upgrade_required");
    default: {
      const status = errorCatalogue[error.kind].status;
      return status >= 500 ? openAiError(c, 502, "api_error", message, error.kind) : openAiError(c, status, "invalid_request_error", message, error.kind);
    }
  }
}

/** The caller of a request, from its bearer token and `X-Parley-Space` header; a person's role must allow the operation. */
function callerOf(c: Context<AppEnv>, operation: string): Promise<OpenAiCaller> {
  const bearer = /^Bearer\s+(\S+)$/i.exec(c.req.header("authorization") ?? "")?.[1];
  const needed = accessFor(operation);
  return openAiCaller(c.var.deps, bearer, c.req.header("x-parley-space")?.trim() || undefined, (auth) => checkAccess(auth, needed));
}

/** A request OpenAI's format allows that Parley cannot serve: a 400 naming the field. */
class UnsupportedInput extends Error {
  constructor(
    readonly messageId: "custom_tools_unsupported",
    readonly param: string,
  ) {
    super(messageId);
  }
}

function textOf(content: string | Array<{ type: string; text?: string }> | null | undefined): string {
  if (content === null || content === undefined) return "";
  if (typeof content === "string") return content;
  return content.map((part) => (part.type === "text" ? (part.text ?? "") : "")).join("");
}

/** The `image_url` parts of a person's message, with where each sits in the request. */
function imageReferences(content: unknown, at: number): ImageReference[] {
  if (!Array.isArray(content)) return [];
  return content.flatMap((part: { type?: string; image_url?: { url?: string } }, index) =>
    part?.type === "image_url" && typeof part.image_url?.url === "string"
      ? [{ url: part.image_url.url, param: `messages.${at}.content.${index}.image_url.url` }]
      : [],
  );
}

/**
 * Maps OpenAI chat messages to the model port's messages; system prompts join the app's own.
 * A person's `image_url` parts become images (fetched or decoded by {@link resolveImages}).
 */
export async function toModelMessages(deps: Parameters<typeof resolveImages>[0], messages: CompletionRequest["messages"]): Promise<ModelMessage[]> {
  const toolNames = new Map<string, string>();
  const out: ModelMessage[] = [];
  const references = messages.flatMap((message, at) => (message.role === "user" ? imageReferences(message.content, at) : []));
  const images = await resolveImages(deps, references);
  const imagesOf = new Map<string, ImagePart>(references.map((reference, index) => [reference.param, images[index] as ImagePart]));
  for (const [at, message] of messages.entries()) {
    switch (message.role) {
      case "system":
      case "developer":
        out.push({ role: "system", content: textOf(message.content) });
        break;
      case "user": {
        const own = imageReferences(message.content, at).map((reference) => imagesOf.get(reference.param) as ImagePart);
        out.push({ role: "user", content: textOf(message.content), ...(own.length ? { images: own } : {}) });
        break;
      }
      case "assistant": {
        const calls = [
          ...(message.tool_calls ?? []),
          ...(message.function_call ? [{ id: message.function_call.name, type: "function" as const, function: message.function_call }] : []),
        ];
        const toolCalls = calls.map((call) => {
          if (call.type !== "function") throw new UnsupportedInput("custom_tools_unsupported", "messages");
          toolNames.set(call.id, call.function.name);
          return { id: call.id, name: call.function.name, arguments: call.function.arguments };
        });
        out.push({ role: "assistant", content: textOf(message.content), ...(toolCalls?.length ? { toolCalls } : {}) });
        break;
      }
      case "tool":
        out.push({ role: "tool", toolCallId: message.tool_call_id, name: toolNames.get(message.tool_call_id) ?? "tool", content: textOf(message.content) });
        break;
      case "function":
        out.push({ role: "tool", toolCallId: message.name, name: message.name, content: message.content ?? "" });
        break;
    }
  }
  return out;
}

type FinishReason = (typeof finishReasons)[number];

const FINISH: Record<string, FinishReason> = {
  stop: "stop",
  length: "length",
  "tool-calls": "tool_calls",
  "content-filter": "content_filter",
  other: "stop",
  stopped: "stop",
  "rate-limited": "stop",
  handover: "stop",
};

const errorResponse = (description: string) => ({ description, content: { "application/json": { schema: openAiErrorSchema } } });
const errors = {
  400: errorResponse("Invalid request: `error.param` names the field"),
  401: errorResponse("Missing, unknown, disabled or expired key"),
  402: errorResponse("Out of credits (`insufficient_credits`), the user key's credit limit reached, or the plan does not allow it"),
  404: errorResponse("No such app among those the key may use (`model_not_found`)"),
  429: errorResponse("Rate limited; see the Retry-After header"),
} as const;
const security = [{ bearer: [] }];
const tags = ["OpenAI-compatible"];

const modelsRoute = createRoute({
  method: "get",
  path: "/v1/models",
  tags,
  security,
  summary: "The apps the key may name as `model` (OpenAI's format)",
  description:
    "A personal API key (with `X-Parley-Space` for another space) lists its space's apps; a user key lists the one app it is bound to, or all of its space's apps.",
  responses: { 200: { description: "The apps, newest first", content: { "application/json": { schema: modelListSchema } } }, 401: errors[401] },
});

const completionsRoute = createRoute({
  method: "post",
  path: "/v1/chat/completions",
  tags,
  security,
  summary: "Ask an app in OpenAI's chat completions format",
  description: [
    "The app's code is the `model`; the app's prompt, knowledge, plugins, rate limits and credits apply, as in every channel.",
    "Answers of knowledge apps carry the passages they cite in the extension field `citations` (on `choices[].message`, or on a chunk's `delta` when streaming), numbered as the answer's [n] marks.",
    "With `stream: true` the answer is server-sent events of `OpenAiChatCompletionChunk`, ending with `data: [DONE]`; an error after the stream started is one event `{ error }` before `[DONE]`.",
    "Every refusal is OpenAI's error object `{ error: { message, type, param, code } }`, in the language of `Accept-Language`.",
  ].join("\n\n"),
  request: { body: { required: true, content: { "application/json": { schema: completionRequestSchema } } } },
  responses: {
    200: {
      description: "The answer: a chat completion, or its chunks as server-sent events when `stream` is true",
      content: { "application/json": { schema: completionSchema }, "text/event-stream": { schema: completionChunkSchema } },
    },
    ...errors,
    502: errorResponse("The app's model failed or could not be reached"),
  },
});

type Citation = z.infer<typeof citationSchema>;
type Completion = z.infer<typeof completionSchema>;
type Chunk = z.infer<typeof completionChunkSchema>;

function citationOf(event: Extract<ChatEvent, { type: "citation" }>): Citation {
  return { index: event.index, source: event.source, content: event.content, ...(event.score !== undefined ? { score: event.score } : {}) };
}

/**
 * The OpenAI-compatible open API: an app's code is the model; the bearer is a personal API key or
 * a user key. Both operations are in the contract (`openapi.yaml`), described in OpenAI's shapes;
 * their bodies are checked against the same schemas here, before anything runs, so that every
 * refusal is OpenAI's error object rather than Parley's envelope.
 */
export function registerOpenAiRoutes(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerPath(modelsRoute);
  app.openAPIRegistry.registerPath(completionsRoute);

  app.get("/v1/models", async (c) => {
    try {
      const caller = await callerOf(c, "GET /v1/models");
      const rows = await listOpenAiModels(c.var.deps, caller);
      const body: z.infer<typeof modelListSchema> = {
        object: "list",
        data: rows.map((row) => ({ id: row.code, object: "model", created: Math.floor(Date.parse(row.createdAt) / 1000), owned_by: "parley" })),
      };
      return c.json(body);
    } catch (error) {
      if (error instanceof ServiceError) return fromServiceError(c, error);
      throw error;
    }
  });

  app.post("/v1/chat/completions", async (c) => {
    const { deps, language } = c.var;
    try {
      const caller = await callerOf(c, "POST /v1/chat/completions");
      let raw: unknown;
      try {
        raw = await c.req.json();
      } catch {
        return openAiError(c, 400, "invalid_request_error", translate(language, "malformed_json"));
      }
      const parsed = completionRequestSchema.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const param = issue?.path.join(".") || null;
        return openAiError(c, 400, "invalid_request_error", `Invalid ${param ?? "body"}: ${issue?.message ?? "invalid"}`, null, param);
      }
      const body = parsed.data;
      if (body.tools?.some((tool) => tool.type !== "function"))
        return openAiError(c, 400, "invalid_request_error", translate(language, "custom_tools_unsupported"), "unsupported_tool", "tools");
      let messages: ModelMessage[];
      try {
        messages = await toModelMessages(deps, body.messages);
      } catch (error) {
        if (error instanceof UnsupportedInput)
          return openAiError(c, 400, "invalid_request_error", translate(language, error.messageId), "unsupported_tool", error.param);
        if (error instanceof ImageInputError)
          return openAiError(c, 400, "invalid_request_error", translate(language, error.messageId), "invalid_image_url", error.param);
        throw error;
      }
      const chatApp = await openAiModelApp(deps, caller, body.model);
      const lastUser = [...messages].reverse().find((message) => message.role === "user");
      const clientTools: ToolDefinition[] = [];
      for (const tool of body.tools ?? []) {
        if (tool.type !== "function") continue;
        clientTools.push({
          name: tool.function.name,
          description: tool.function.description ?? "",
          parameters: tool.function.parameters ?? { type: "object", properties: {} },
        });
      }
      const turn = {
        app: { ...chatApp, ...(body.temperature !== null && body.temperature !== undefined ? { temperature: body.temperature } : {}) },
        endUserId: body.user ? `${caller.endUserId}:${body.user}` : caller.endUserId,
        channel: "api",
        text: lastUser?.content ?? "",
        language,
        signal: c.req.raw.signal,
        messages,
        ...(clientTools.length ? { clientTools } : {}),
        // A user key's credit limit is held with the space's balance before the model is called.
        ...(caller.userKeyId ? { userKeyId: caller.userKeyId } : {}),
        ...(caller.memberUserId ? { memberUserId: caller.memberUserId } : {}),
      };
      const events = await answerTurn(deps, turn);
      const id = `chatcmpl-${newId("x").slice(2)}`;
      const created = Math.floor(deps.now().getTime() / 1000);
      const model = body.model;
      if (!body.stream) {
        let content = "";
        const toolCalls: Array<{ id: string; type: "function"; function: { name: string; arguments: string } }> = [];
        const citations: Citation[] = [];
        let end: Extract<ChatEvent, { type: "message-end" }> | undefined;
        for await (const event of events) {
          if (event.type === "text-delta") content += event.text;
          else if (event.type === "tool-call") toolCalls.push({ id: event.id, type: "function", function: { name: event.name, arguments: event.arguments } });
          else if (event.type === "citation") citations.push(citationOf(event));
          else if (event.type === "message-end") end = event;
          else if (event.type === "error")
            return openAiError(c, event.code === 429 ? 429 : 502, event.code === 429 ? "rate_limit_error" : "api_error", event.message);
        }
        const usage = end?.usage ?? { promptTokens: 0, completionTokens: 0 };
        const answer: Completion = {
          id,
          object: "chat.completion",
          created,
          model,
          choices: [
            {
              index: 0,
              message: {
                role: "assistant",
                content: toolCalls.length && !content ? null : content,
                refusal: null,
                ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
                ...(citations.length ? { citations } : {}),
              },
              finish_reason: FINISH[end?.finishReason ?? "stop"] ?? "stop",
              logprobs: null,
            },
          ],
          usage: { prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens, total_tokens: usage.promptTokens + usage.completionTokens },
        };
        return c.json(answer);
      }
      const includeUsage = body.stream_options?.include_usage === true;
      c.header("Content-Type", "text/event-stream; charset=utf-8");
      c.header("Cache-Control", "no-cache");
      return stream(c, async (out) => {
        const send = (choices: Chunk["choices"], usage?: Chunk["usage"]) => {
          const chunk: Chunk = { id, object: "chat.completion.chunk", created, model, choices, ...(usage ? { usage } : {}) };
          return out.write(`data: ${JSON.stringify(chunk)}\n\n`);
        };
        let toolIndex = 0;
        for await (const event of events) {
          if (event.type === "message-start") await send([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null, logprobs: null }]);
          else if (event.type === "text-delta") await send([{ index: 0, delta: { content: event.text }, finish_reason: null, logprobs: null }]);
          else if (event.type === "citation") await send([{ index: 0, delta: { citations: [citationOf(event)] }, finish_reason: null, logprobs: null }]);
          else if (event.type === "tool-call") {
            await send([
              {
                index: 0,
                delta: { tool_calls: [{ index: toolIndex++, id: event.id, type: "function", function: { name: event.name, arguments: event.arguments } }] },
                finish_reason: null,
                logprobs: null,
              },
            ]);
          } else if (event.type === "message-end") {
            await send([{ index: 0, delta: {}, finish_reason: FINISH[event.finishReason] ?? "stop", logprobs: null }]);
            if (includeUsage) {
              const { promptTokens, completionTokens } = event.usage;
              await send([], { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens });
            }
          } else if (event.type === "error") {
            const failure: z.infer<typeof openAiErrorSchema> = {
              error: { message: event.message, type: event.code === 429 ? "rate_limit_error" : "api_error", param: null, code: String(event.code) },
            };
            await out.write(`data: ${JSON.stringify(failure)}\n\n`);
          }
        }
        await out.write("data: [DONE]\n\n");
      });
    } catch (error) {
      if (error instanceof ServiceError) return fromServiceError(c, error);
      throw error;
    }
  });

  // Anything else under /v1 is OpenAI's 404, not the console's page.
  app.all("/v1/*", (c) =>
    openAiError(c, 404, "not_found_error", translate(c.var.language, "route_not_found", { method: c.req.method, path: c.req.path }), "unknown_url"),
  );
}
