import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { stream } from "hono/streaming";
import { z } from "zod";
import { newId } from "../crypto";
import { ServiceError } from "../errors";
import type { AppEnv } from "../http/context";
import { translate } from "../http/translate";
import type { ModelMessage, ToolDefinition } from "../platform/llm/types";
import type { ChatEvent } from "../chat/events";
import { answerTurn } from "../conversation/answer";
import { boundedJson } from "../http/schemas";
import { listOpenAiModels, type OpenAiCaller, openAiCaller, openAiModelApp } from "./service";

type OpenAiErrorType =
  | "invalid_request_error"
  | "authentication_error"
  | "permission_error"
  | "not_found_error"
  | "rate_limit_error"
  | "insufficient_quota"
  | "api_error";

function openAiError(c: Context<AppEnv>, status: number, type: OpenAiErrorType, message: string, code: string | null = null, param: string | null = null) {
  return c.json({ error: { message, type, param, code } }, status as 400);
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
    case "validation":
      return openAiError(c, 400, "invalid_request_error", message, null, error.extra.field ?? null);
    default:
      return openAiError(c, 500, "api_error", message);
  }
}

/** The caller of a request, from its bearer token and `X-Parley-Space` header. */
function callerOf(c: Context<AppEnv>): Promise<OpenAiCaller> {
  const bearer = /^Bearer\s+(\S+)$/i.exec(c.req.header("authorization") ?? "")?.[1];
  return openAiCaller(c.var.deps, bearer, c.req.header("x-parley-space")?.trim() || undefined);
}

const contentPart = z.object({ type: z.string(), text: z.string().optional() }).passthrough();
const messageSchema = z.discriminatedUnion("role", [
  z.object({ role: z.literal("system"), content: z.union([z.string(), z.array(contentPart)]) }),
  z.object({ role: z.literal("developer"), content: z.union([z.string(), z.array(contentPart)]) }),
  z.object({ role: z.literal("user"), content: z.union([z.string(), z.array(contentPart)]), name: z.string().optional() }),
  z.object({
    role: z.literal("assistant"),
    content: z
      .union([z.string(), z.array(contentPart)])
      .nullable()
      .optional(),
    tool_calls: z.array(z.object({ id: z.string(), type: z.literal("function"), function: z.object({ name: z.string(), arguments: z.string() }) })).optional(),
  }),
  z.object({ role: z.literal("tool"), tool_call_id: z.string(), content: z.union([z.string(), z.array(contentPart)]) }),
]);

const completionRequest = z.object({
  model: z.string().min(1),
  messages: z.array(messageSchema).min(1),
  stream: z.boolean().optional(),
  stream_options: z.object({ include_usage: z.boolean().optional() }).nullable().optional(),
  temperature: z.number().min(0).max(2).nullable().optional(),
  tools: z
    .array(
      z.object({
        type: z.literal("function"),
        function: z.object({ name: z.string(), description: z.string().optional(), parameters: boundedJson(z.record(z.string(), z.unknown())).optional() }),
      }),
    )
    .optional(),
  user: z.string().max(200).optional(),
});

function textOf(content: string | Array<z.infer<typeof contentPart>> | null | undefined): string {
  if (content === null || content === undefined) return "";
  if (typeof content === "string") return content;
  return content.map((part) => (part.type === "text" ? (part.text ?? "") : "")).join("");
}

/** Maps OpenAI chat messages to the model port's messages; system prompts join the app's own. */
export function toModelMessages(messages: z.infer<typeof completionRequest>["messages"]): ModelMessage[] {
  const toolNames = new Map<string, string>();
  const out: ModelMessage[] = [];
  for (const message of messages) {
    switch (message.role) {
      case "system":
      case "developer":
        out.push({ role: "system", content: textOf(message.content) });
        break;
      case "user":
        out.push({ role: "user", content: textOf(message.content) });
        break;
      case "assistant": {
        const toolCalls = message.tool_calls?.map((call) => {
          toolNames.set(call.id, call.function.name);
          return { id: call.id, name: call.function.name, arguments: call.function.arguments };
        });
        out.push({ role: "assistant", content: textOf(message.content), ...(toolCalls?.length ? { toolCalls } : {}) });
        break;
      }
      case "tool":
        out.push({ role: "tool", toolCallId: message.tool_call_id, name: toolNames.get(message.tool_call_id) ?? "tool", content: textOf(message.content) });
        break;
    }
  }
  return out;
}

const FINISH: Record<string, string> = {
  stop: "stop",
  length: "length",
  "tool-calls": "tool_calls",
  "content-filter": "content_filter",
  other: "stop",
  stopped: "stop",
  "rate-limited": "stop",
};

/** The OpenAI-compatible open API: an app's code is the model; the bearer is a personal API key or a user key. */
export function registerOpenAiRoutes(app: OpenAPIHono<AppEnv>) {
  app.get("/v1/models", async (c) => {
    try {
      const { deps } = c.var;
      const caller = await callerOf(c);
      const rows = await listOpenAiModels(deps, caller);
      return c.json({
        object: "list",
        data: rows.map((row) => ({ id: row.code, object: "model", created: Math.floor(Date.parse(row.createdAt) / 1000), owned_by: "parley" })),
      });
    } catch (error) {
      if (error instanceof ServiceError) return fromServiceError(c, error);
      throw error;
    }
  });

  app.post("/v1/chat/completions", async (c) => {
    const { deps, language } = c.var;
    let body: z.infer<typeof completionRequest>;
    try {
      const caller = await callerOf(c);
      let raw: unknown;
      try {
        raw = await c.req.json();
      } catch {
        return openAiError(c, 400, "invalid_request_error", translate(language, "malformed_json"));
      }
      const parsed = completionRequest.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const param = issue?.path.join(".") ?? null;
        return openAiError(c, 400, "invalid_request_error", `Invalid ${param}: ${issue?.message ?? "invalid"}`, null, param);
      }
      body = parsed.data;
      const chatApp = await openAiModelApp(deps, caller, body.model);
      const messages = toModelMessages(body.messages);
      const lastUser = [...messages].reverse().find((message) => message.role === "user");
      const clientTools: ToolDefinition[] | undefined = body.tools?.map((tool) => ({
        name: tool.function.name,
        description: tool.function.description ?? "",
        parameters: tool.function.parameters ?? { type: "object", properties: {} },
      }));
      const turn = {
        app: { ...chatApp, ...(body.temperature !== null && body.temperature !== undefined ? { temperature: body.temperature } : {}) },
        endUserId: body.user ? `${caller.endUserId}:${body.user}` : caller.endUserId,
        channel: "api",
        text: lastUser?.content ?? "",
        language,
        signal: c.req.raw.signal,
        messages,
        ...(clientTools?.length ? { clientTools } : {}),
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
        let end: Extract<ChatEvent, { type: "message-end" }> | undefined;
        for await (const event of events) {
          if (event.type === "text-delta") content += event.text;
          else if (event.type === "tool-call") toolCalls.push({ id: event.id, type: "function", function: { name: event.name, arguments: event.arguments } });
          else if (event.type === "message-end") end = event;
          else if (event.type === "error")
            return openAiError(c, event.code === 429 ? 429 : 502, event.code === 429 ? "rate_limit_error" : "api_error", event.message);
        }
        const usage = end?.usage ?? { promptTokens: 0, completionTokens: 0 };
        return c.json({
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
                ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
                refusal: null,
              },
              finish_reason: FINISH[end?.finishReason ?? "stop"] ?? "stop",
              logprobs: null,
            },
          ],
          usage: { prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens, total_tokens: usage.promptTokens + usage.completionTokens },
        });
      }
      const includeUsage = body.stream_options?.include_usage === true;
      c.header("Content-Type", "text/event-stream; charset=utf-8");
      c.header("Cache-Control", "no-cache");
      return stream(c, async (out) => {
        const chunk = (choice: Record<string, unknown> | null, extra: Record<string, unknown> = {}) =>
          out.write(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: choice ? [choice] : [], ...extra })}\n\n`);
        let toolIndex = 0;
        for await (const event of events) {
          if (event.type === "message-start") await chunk({ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null, logprobs: null });
          else if (event.type === "text-delta") await chunk({ index: 0, delta: { content: event.text }, finish_reason: null, logprobs: null });
          else if (event.type === "tool-call") {
            await chunk({
              index: 0,
              delta: { tool_calls: [{ index: toolIndex++, id: event.id, type: "function", function: { name: event.name, arguments: event.arguments } }] },
              finish_reason: null,
              logprobs: null,
            });
          } else if (event.type === "message-end") {
            await chunk({ index: 0, delta: {}, finish_reason: FINISH[event.finishReason] ?? "stop", logprobs: null });
            if (includeUsage) {
              const { promptTokens, completionTokens } = event.usage;
              await chunk(null, { usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens } });
            }
          } else if (event.type === "error") {
            await out.write(`data: ${JSON.stringify({ error: { message: event.message, type: "api_error", code: String(event.code) } })}\n\n`);
          }
        }
        await out.write("data: [DONE]\n\n");
      });
    } catch (error) {
      if (error instanceof ServiceError) return fromServiceError(c, error);
      throw error;
    }
  });
}
