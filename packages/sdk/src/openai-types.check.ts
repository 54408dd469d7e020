// Compiled by `npm run typecheck` (part of `npm test`), never run: the contract's OpenAI-compatible
// operations must fit the official `openai` package's types. If a change to the routes' schemas
// makes openapi.yaml disagree with OpenAI's format, this file stops compiling.
import type OpenAI from "openai";
import type { ParleyClient } from "./client";
import type { components } from "./generated/schema";

type Schemas = components["schemas"];

/** Parameters built for OpenAI's client go through the SDK unchanged, and the answer reads as OpenAI's. */
export async function completeThroughSdk(
  client: ParleyClient,
  params: OpenAI.ChatCompletionCreateParamsNonStreaming,
): Promise<OpenAI.ChatCompletion | undefined> {
  const { data } = await client.POST("/v1/chat/completions", { body: params });
  if (data?.object !== "chat.completion") return undefined;
  const completion: OpenAI.ChatCompletion = data;
  // Parley's extension: the passages a knowledge app's answer cites.
  const citations: Schemas["OpenAiCitation"][] | undefined = data.choices[0]?.message.citations;
  void citations;
  return completion;
}

/** Streaming parameters fit the same request body. */
export const streamingBody = (params: OpenAI.ChatCompletionCreateParamsStreaming): Schemas["OpenAiChatCompletionRequest"] => params;

/** Every message kind OpenAI's client can send fits the contract's message. */
export const message = (param: OpenAI.ChatCompletionMessageParam): Schemas["OpenAiChatMessage"] => param;

/** Each chunk of the stream reads as OpenAI's chunk. */
export const chunk = (parley: Schemas["OpenAiChatCompletionChunk"]): OpenAI.ChatCompletionChunk => parley;

/** The models list reads as OpenAI's models. */
export async function listModels(client: ParleyClient): Promise<OpenAI.Model[]> {
  const { data } = await client.GET("/v1/models");
  return data?.data ?? [];
}

/** The usage block reads as OpenAI's. */
export const usage = (parley: Schemas["OpenAiUsage"]): OpenAI.CompletionUsage => parley;

/** The error body has the fields of OpenAI's error object. */
export const error = (parley: Schemas["OpenAiError"]): Pick<OpenAI.ErrorObject, "message" | "type" | "param" | "code"> => parley.error;
