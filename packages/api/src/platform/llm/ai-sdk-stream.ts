import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3FinishReason,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import { toModelError } from "./errors";
import { estimatePromptTokens, estimateTokens } from "./tokens";
import { ModelError, type ModelMessage, type ModelRequest, type ModelStreamPart } from "./types";

/** How one vendor call is run. */
export interface StreamOptions {
  /** Provider label used in error messages, e.g. `openai`. */
  provider: string;
  /**
   * Longest wait, in milliseconds, for the answer to start and then between two stream parts.
   * An idle stream is cut and reported as `timeout`.
   */
  timeoutMs: number;
  /** Secrets to cut out of any error message. */
  redact?: readonly string[];
}

const TIMEOUT = Symbol("timeout");

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Vendors want an object; a model that wrote broken JSON gets it back as an empty call.
    return {};
  }
}

/** Maps the port's messages to the AI SDK's provider-level prompt. */
export function toProviderPrompt(messages: readonly ModelMessage[]): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = [];
  for (const message of messages) {
    switch (message.role) {
      case "system":
        prompt.push({ role: "system", content: message.content });
        break;
      case "user":
        prompt.push({
          role: "user",
          content: [
            // Images first, then the words about them: the order vendors' own guides use.
            ...(message.images ?? []).map((image) => ({ type: "file" as const, mediaType: image.mediaType, data: image.data })),
            ...(message.content || !message.images?.length ? [{ type: "text" as const, text: message.content }] : []),
          ],
        });
        break;
      case "assistant": {
        const content: Extract<LanguageModelV3Prompt[number], { role: "assistant" }>["content"] = [];
        if (message.content) content.push({ type: "text", text: message.content });
        for (const call of message.toolCalls ?? []) {
          content.push({ type: "tool-call", toolCallId: call.id, toolName: call.name, input: parseArguments(call.arguments) });
        }
        prompt.push({ role: "assistant", content });
        break;
      }
      case "tool": {
        const part = {
          type: "tool-result" as const,
          toolCallId: message.toolCallId,
          toolName: message.name,
          output: { type: "text" as const, value: message.content },
        };
        const previous = prompt[prompt.length - 1];
        // Results of one assistant turn travel together, as every vendor expects.
        if (previous?.role === "tool") previous.content.push(part);
        else prompt.push({ role: "tool", content: [part] });
        break;
      }
    }
  }
  return prompt;
}

function finishReason(reason: LanguageModelV3FinishReason): Extract<ModelStreamPart, { type: "finish" }>["reason"] {
  const unified = reason.unified;
  return unified === "error" ? "other" : unified;
}

/**
 * Streams one completion from an AI SDK provider model by calling its `doStream` directly.
 *
 * Why not `streamText` from `ai`: it adds a retry loop (the engine owns retries), tool
 * execution, step handling and telemetry we do not use, and an extra transform stage per part;
 * the provider model's `doStream` is the vendor wire protocol already parsed into typed parts,
 * which we map one-to-one onto {@link ModelStreamPart}. Errors — thrown by the call or sent as
 * `error` parts — become {@link ModelError}s; an idle timer (reset on every part) turns a hung
 * vendor into `timeout`, the caller's signal into `aborted`.
 */
export async function* streamFromLanguageModel(model: LanguageModelV3, request: ModelRequest, options: StreamOptions): AsyncGenerator<ModelStreamPart> {
  const callerSignal = request.signal;
  if (callerSignal?.aborted) throw new ModelError("aborted", "The request was cancelled", { provider: options.provider });
  const controller = new AbortController();
  const onCallerAbort = () => controller.abort(callerSignal?.reason);
  callerSignal?.addEventListener("abort", onCallerAbort, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(TIMEOUT);
  }, options.timeoutMs);
  const settle = (error: unknown): ModelError => {
    if (timedOut)
      return new ModelError("timeout", `${options.provider} did not answer within ${Math.round(options.timeoutMs / 1000)} s`, { provider: options.provider });
    if (callerSignal?.aborted) return new ModelError("aborted", "The request was cancelled", { provider: options.provider });
    return toModelError(error, { provider: options.provider, ...(options.redact ? { redact: options.redact } : {}) });
  };

  const call: LanguageModelV3CallOptions = {
    prompt: toProviderPrompt(request.messages),
    abortSignal: controller.signal,
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.maxOutputTokens !== undefined ? { maxOutputTokens: request.maxOutputTokens } : {}),
    ...(request.tools && request.tools.length > 0
      ? {
          tools: request.tools.map((tool) => ({ type: "function" as const, name: tool.name, description: tool.description, inputSchema: tool.parameters })),
          toolChoice: { type: "auto" as const },
        }
      : {}),
  };

  let reader: ReadableStreamDefaultReader<LanguageModelV3StreamPart> | undefined;
  let completionText = 0;
  let finished = false;
  try {
    let result: Awaited<ReturnType<LanguageModelV3["doStream"]>>;
    try {
      result = await model.doStream(call);
    } catch (error) {
      throw settle(error);
    }
    reader = result.stream.getReader();
    for (;;) {
      let next: ReadableStreamReadResult<LanguageModelV3StreamPart>;
      try {
        next = await reader.read();
      } catch (error) {
        throw settle(error);
      }
      if (next.done) break;
      timer.refresh();
      const part = next.value;
      switch (part.type) {
        case "text-delta":
          if (part.delta.length > 0) {
            completionText += estimateTokens(part.delta);
            yield { type: "text-delta", text: part.delta };
          }
          break;
        case "tool-call":
          completionText += estimateTokens(part.input);
          yield { type: "tool-call", call: { id: part.toolCallId, name: part.toolName, arguments: part.input || "{}" } };
          break;
        case "error":
          throw settle(part.error);
        case "finish": {
          if (part.finishReason.unified === "error")
            throw new ModelError("malformed", `${options.provider} ended the answer with an error`, { provider: options.provider });
          finished = true;
          yield {
            type: "finish",
            reason: finishReason(part.finishReason),
            usage: {
              promptTokens: part.usage.inputTokens.total ?? estimatePromptTokens(request.messages),
              completionTokens: part.usage.outputTokens.total ?? completionText,
            },
          };
          break;
        }
        default:
          // Reasoning, sources, metadata and raw parts are not part of the port.
          break;
      }
    }
    if (!finished) {
      if (controller.signal.aborted) throw settle(controller.signal.reason);
      throw new ModelError("malformed", `${options.provider} closed the stream before it finished`, { provider: options.provider });
    }
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener("abort", onCallerAbort);
    if (!finished) controller.abort();
    reader?.releaseLock();
  }
}
