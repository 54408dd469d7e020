/**
 * The language-model port: what the chat engine asks of any provider. Implementations adapt
 * vendor SDKs to this shape; the engine never sees a vendor type.
 */

/** A JSON Schema object describing tool arguments. */
export type JsonSchema = Record<string, unknown>;

/** A tool the model may call. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: JsonSchema;
}

/** A tool call the model made. `arguments` is the raw JSON text the model produced. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** An image given to a model with a person's message: its bytes, or an address the vendor fetches itself. */
export interface ImagePart {
  type: "image";
  mediaType: string;
  /** The image's bytes (sent inline, base64 in the vendor's wire format) or an https address. */
  data: Uint8Array | URL;
}

/** One message of the prompt. A person's message may carry images (`images`), for models that read them. */
export type ModelMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string; images?: ImagePart[] }
  | { role: "assistant"; content: string; toolCalls?: ToolCall[] }
  | { role: "tool"; toolCallId: string; name: string; content: string };

/** Token counts as the provider reported them (or estimated when it did not). */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
}

/** What a model stream yields, in order: deltas and tool calls, then exactly one finish. */
export type ModelStreamPart =
  | { type: "text-delta"; text: string }
  | { type: "tool-call"; call: ToolCall }
  | { type: "finish"; reason: "stop" | "length" | "tool-calls" | "content-filter" | "other"; usage: TokenUsage };

/** A request to one model. */
export interface ModelRequest {
  /** The model id at the provider, e.g. `gpt-4.1-mini`. */
  model: string;
  messages: ModelMessage[];
  temperature?: number;
  maxOutputTokens?: number;
  tools?: ToolDefinition[];
  signal?: AbortSignal;
  /**
   * Knowledge hits retrieved for this turn, best first. Vendor providers ignore it (the engine
   * puts knowledge into the prompt); the offline responder answers from it.
   */
  knowledge?: Array<{
    content: string;
    source?: string;
    score?: number;
    /** The hit's number in the prompt's references, cited as [index]. */
    index?: number;
    /** The answer of a Q&A pair: the offline responder gives it as the answer itself. */
    answer?: string;
  }>;
  /** The reader's language; the offline responder answers in it. Defaults to `en`. */
  language?: "en" | "zh-CN";
  /**
   * Who reads the answer: the space's own people (console, API) or its customers (widget and
   * channels). The offline responder gives both the same words; only operators get the place
   * where a model is configured as a console link.
   */
  audience?: "operator" | "customer";
}

/** A model the catalogue offers. */
export interface ModelInfo {
  /** The id apps and API callers use. */
  id: string;
  /** The provider entry that serves it. */
  providerId: string;
  providerKind: ProviderKind;
  /** Human-readable label. */
  label: string;
  contextWindow: number;
  supportsTools: boolean;
  /** Whether the model reads images given with a message (vision). */
  supportsImages: boolean;
  /** True for the built-in offline responder. */
  offline: boolean;
}

/** Vendor families Parley speaks to. */
export type ProviderKind = "openai" | "openai-compatible" | "anthropic" | "gemini" | "offline";

/** One configured provider. */
export interface LanguageModelProvider {
  readonly id: string;
  readonly kind: ProviderKind;
  /** Models this provider serves. */
  models(): ModelInfo[];
  /** Streams one completion. Errors are thrown as {@link ModelError}, before or during the stream. */
  stream(request: ModelRequest): AsyncIterable<ModelStreamPart>;
}

/** Why a model call failed, in terms the engine can act on. */
export type ModelErrorKind = "rate_limited" | "timeout" | "unavailable" | "bad_request" | "auth" | "context_length" | "malformed" | "aborted";

/** A provider failure. `retryAfterSeconds` comes from the vendor's Retry-After when it sent one. */
export class ModelError extends Error {
  override name = "ModelError";
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    readonly details: { status?: number; retryAfterSeconds?: number; provider?: string } = {},
  ) {
    super(message);
  }
}
