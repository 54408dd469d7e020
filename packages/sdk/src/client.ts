import createOpenApiClient from "openapi-fetch";
import type { HeadersOptions, MaybeOptionalInit, ParseAsResponse } from "openapi-fetch";
import type { HttpMethod, MediaType, PathsWithMethod, Readable, RequiredKeysOf, ResponseObjectMap, SuccessResponse } from "openapi-typescript-helpers";
import { ParleyError } from "./errors";
import type { components, paths } from "./generated/schema";
import { parseEventStream } from "./stream";

/** Options of {@link createClient}. */
export interface ClientOptions {
  /** Where the API lives, e.g. `https://parley.example.com`. */
  baseUrl: string;
  /** A session token (`pst_…`), or a function read before every request. {@link ParleyClient.setToken} replaces it. */
  token?: string | (() => string | undefined);
  /** A personal API key (`pk_…`), used when there is no session token. */
  apiKey?: string;
  /** The fetch to use; defaults to the global one. */
  fetch?: typeof fetch;
  /** Longest a call may take, retries and waits included, until its answer is read (for streams: until the stream starts). 0 disables. Default 60000. */
  timeoutMs?: number;
  /** Extra attempts for GET, PUT and DELETE after a network error, a 429 or a 5xx. Default 2. */
  retries?: number;
  /** Sent as `Accept-Language` (`en` or `zh-CN`), or a function read before every request, so a UI can switch language without a new client. */
  language?: string | (() => string | undefined);
  /** The space to act in (`X-Parley-Space`), or a function read before every request. */
  space?: string | (() => string | undefined);
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** Called with every error a call returns or a stream throws, except when the caller aborted. */
  onError?: (error: ParleyError) => void;
}

/** Options every call accepts besides openapi-fetch's own (`params`, `body`, `headers`, `bodySerializer`, `parseAs` …). */
export interface CallOptions {
  /** Aborts the call; the result is then an error of kind `aborted`, never retried. */
  signal?: AbortSignal | null;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number;
  /** Extra attempts for this call. Setting it opts POST and PATCH in to retries; only do so when the operation is safe to repeat. */
  retries?: number;
  /** Sends `body` as `application/x-www-form-urlencoded` (the login endpoint expects this). Arrays repeat their key; null and undefined are left out. */
  form?: boolean;
}

/** What a call resolves to: the envelope's `data` and the response on success, a {@link ParleyError} otherwise. */
export type ParleyResult<Data> = { data: Data; error?: undefined; response: Response } | { data?: undefined; error: ParleyError; response?: Response };

/** The `data` of an envelope type `{ success, code, message, data }`; any other body type passes through. */
export type EnvelopeData<Body> = Body extends { success: boolean; data?: infer Data } ? Data : Body;

type SuccessData<Operation, Init> =
  ResponseObjectMap<Operation> extends infer Responses extends Record<string | number, unknown>
    ? ParseAsResponse<EnvelopeData<Readable<SuccessResponse<Responses, MediaType>>>, Init>
    : never;

type InitParam<Init> = RequiredKeysOf<Init> extends never ? [(Init & CallOptions)?] : [Init & CallOptions];

/** One HTTP method of the client, typed by the contract: a path, then its params/body and {@link CallOptions}. */
export type ClientMethod<Paths extends {}, Method extends HttpMethod> = <
  Path extends PathsWithMethod<Paths, Method>,
  Init extends MaybeOptionalInit<Paths[Path], Method & keyof Paths[Path]>,
>(
  path: Path,
  ...init: InitParam<Init>
) => Promise<ParleyResult<SuccessData<Paths[Path][Method & keyof Paths[Path]], Init>>>;

/** Options of {@link ParleyClient.stream}. */
export interface StreamOptions extends CallOptions {
  /** The JSON body to POST. */
  body?: unknown;
  /** Path and query parameters, as for the other calls. */
  params?: { path?: Record<string, unknown>; query?: Record<string, unknown> };
  /** Extra headers for this request. */
  headers?: Record<string, string>;
}

/** The client {@link createClient} returns. */
export interface ParleyClient<Paths extends {} = paths> {
  /** Calls a GET endpoint. */
  GET: ClientMethod<Paths, "get">;
  /** Calls a POST endpoint (not retried unless the call sets `retries`). */
  POST: ClientMethod<Paths, "post">;
  /** Calls a PUT endpoint. */
  PUT: ClientMethod<Paths, "put">;
  /** Calls a PATCH endpoint (not retried unless the call sets `retries`). */
  PATCH: ClientMethod<Paths, "patch">;
  /** Calls a DELETE endpoint. */
  DELETE: ClientMethod<Paths, "delete">;
  /** Replaces the session token (or clears it, falling back to the API key) for later requests. */
  setToken(token: string | undefined): void;
  /**
   * POSTs to a `text/event-stream` endpoint and yields each event's JSON. An HTTP error before
   * the stream starts is thrown as a {@link ParleyError}; aborting `signal` ends the iteration
   * without an error; leaving the loop early closes the connection.
   */
  stream<Event extends { type: string }>(path: PathsWithMethod<Paths, "post">, init?: StreamOptions): AsyncGenerator<Event, void, undefined>;
  /** Chat with an app. */
  chat: {
    /**
     * Asks an app and yields the answer's events as they arrive: `message-start`, `text-delta`…,
     * `tool-call`/`tool-result`, `citation`, then `message-end` or `error`. Refusals before the
     * stream starts (400, 404, 870) are thrown as {@link ParleyError}.
     */
    stream(input: ChatRequest, options?: CallOptions): AsyncGenerator<ChatEvent, void, undefined>;
  };
}

/** A chat question (see `POST /api/v1/chat/stream`). */
export type ChatRequest = components["schemas"]["ChatRequest"];
/** One event of the chat stream: a tagged union on `type`. */
export type ChatEvent = components["schemas"]["ChatEvent"];

type Envelope = { success: boolean; code: number; message: string; data: unknown };
type AnyInit = CallOptions & { headers?: HeadersOptions; parseAs?: string; [key: string]: unknown };

const MAX_RETRY_WAIT_MS = 30_000;

const isOpenAiError = (body: unknown): body is { error: { message: string } } =>
  typeof body === "object" && body !== null && "error" in body && typeof (body as { error: { message?: unknown } }).error?.message === "string";

const isEnvelope = (body: unknown): body is Envelope => typeof body === "object" && body !== null && "success" in body && "code" in body;

function readRetryAfter(headers: Headers): number | undefined {
  const value = headers.get("retry-after");
  if (!value) return undefined;
  const seconds = Number(value);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - Date.now();
  return Number.isNaN(ms) ? undefined : Math.max(0, ms);
}

// Node's fetch says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND …) is in its cause.
const networkCode = (error: unknown) => {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  const reason = cause?.code ?? cause?.message;
  return typeof reason === "string" ? ` (${reason})` : "";
};

// Full jitter keeps many clients that failed together from retrying together.
const backoff = (attempt: number) => Math.min(8000, 300 * 2 ** attempt) * (0.5 + Math.random() / 2);

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", stop);
      resolve();
    }, ms);
    if (signal.aborted) stop();
    else signal.addEventListener("abort", stop, { once: true });
  });

function formBody(body: unknown): string {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item != null) form.append(key, String(item));
    }
  }
  return form.toString();
}

/**
 * Creates a client for the Parley API. Calls are typed by the contract and resolve to
 * `{ data, response }` with the envelope unwrapped, or `{ error }` with a {@link ParleyError};
 * they do not throw for HTTP, network, timeout or abort failures.
 */
export function createClient<Paths extends {} = paths>(options: ClientOptions): ParleyClient<Paths> {
  const { apiKey, language, space, onError, timeoutMs: defaultTimeoutMs = 60_000, retries: defaultRetries = 2 } = options;
  const fetchImpl = options.fetch ?? fetch;
  const inner = createOpenApiClient({ baseUrl: options.baseUrl, headers: options.headers });
  let token = options.token;

  async function send(method: string, path: string, init: AnyInit = {}): Promise<ParleyResult<unknown>> {
    const { signal, timeoutMs = defaultTimeoutMs, retries: callRetries, form, ...rest } = init;
    const retries = callRetries ?? (method === "POST" || method === "PATCH" ? 0 : defaultRetries);
    const controller = new AbortController();
    const abort = () => controller.abort(signal?.reason);
    if (signal?.aborted) abort();
    else signal?.addEventListener("abort", abort);
    let timedOut = false;
    const timer =
      timeoutMs > 0 && timeoutMs < 2 ** 31
        ? setTimeout(() => {
            timedOut = true;
            controller.abort();
          }, timeoutMs)
        : undefined;
    let response: Response | undefined;
    let error: ParleyError;

    const fetchWithRetries = async (request: Request) => {
      const credential = (typeof token === "function" ? token() : token) ?? apiKey;
      const setDefault = (name: string, value: string | undefined) => {
        if (value && !request.headers.has(name)) request.headers.set(name, value);
      };
      setDefault("Authorization", credential && `Bearer ${credential}`);
      setDefault("X-Parley-Space", typeof space === "function" ? space() : space);
      setDefault("Accept-Language", typeof language === "function" ? language() : language);
      if (form) request.headers.set("Content-Type", "application/x-www-form-urlencoded");
      for (let attempt = 0; ; attempt++) {
        let wait: number;
        response = undefined;
        try {
          response = await fetchImpl(request.clone(), { signal: controller.signal });
          if (attempt >= retries || (response.status !== 429 && response.status < 500)) return response;
          wait = readRetryAfter(response.headers) ?? backoff(attempt);
          // Waiting less than the server asked would only earn another refusal; let the caller decide.
          if (wait > MAX_RETRY_WAIT_MS) return response;
          response.body?.cancel().catch(() => {});
        } catch (cause) {
          if (controller.signal.aborted || attempt >= retries) throw cause;
          wait = backoff(attempt);
        }
        await sleep(wait, controller.signal);
      }
    };

    try {
      const result = await inner.request(
        method as "get",
        path as never,
        {
          ...rest,
          ...(form && { bodySerializer: formBody }),
          fetch: fetchWithRetries,
        } as never,
      );
      response = result.response;
      const body: unknown = result.error ?? result.data;
      if (response.ok && !(isEnvelope(body) && !body.success)) {
        return { data: isEnvelope(body) ? body.data : body, response };
      }
      const envelope = isEnvelope(body) ? body : undefined;
      // The OpenAI-compatible routes (/v1/…) refuse with OpenAI's error object instead of the envelope.
      const openAi = isOpenAiError(body) ? body.error : undefined;
      error = new ParleyError("http", envelope?.message || openAi?.message || response.statusText || `HTTP ${response.status}`, {
        status: response.status,
        code: envelope?.code,
        requestId: response.headers.get("x-request-id") ?? undefined,
        retryAfterMs: readRetryAfter(response.headers),
        data: envelope?.data ?? openAi ?? undefined,
      });
    } catch (cause) {
      const kind = timedOut ? "timeout" : signal?.aborted ? "aborted" : cause instanceof SyntaxError ? "http" : "network";
      const message =
        kind === "timeout"
          ? `Request timed out after ${timeoutMs} ms`
          : kind === "aborted"
            ? "Request aborted"
            : kind === "http"
              ? "Response body is not valid JSON"
              : `Network error: ${(cause as Error).message}${networkCode(cause)}`;
      error = new ParleyError(kind, message, {
        status: kind === "http" ? response?.status : undefined,
        requestId: response?.headers.get("x-request-id") ?? undefined,
        cause,
      });
    } finally {
      clearTimeout(timer);
      // A streamed body is still being read, so it must stay abortable; stream() owns that signal.
      if (rest.parseAs !== "stream") signal?.removeEventListener("abort", abort);
    }
    if (error.kind !== "aborted") onError?.(error);
    return response ? { error, response } : { error };
  }

  async function* stream(path: string, init: StreamOptions = {}): AsyncGenerator<unknown, void, undefined> {
    const { signal, headers, ...rest } = init;
    const controller = new AbortController();
    const abort = () => controller.abort();
    if (signal?.aborted) return;
    signal?.addEventListener("abort", abort);
    try {
      const result = await send("POST", path, {
        ...rest,
        headers: { Accept: "text/event-stream", ...headers },
        signal: controller.signal,
        parseAs: "stream",
      });
      if (result.error) {
        if (result.error.kind === "aborted") return;
        throw result.error;
      }
      if (!result.data) return;
      for await (const message of parseEventStream(result.data as ReadableStream<Uint8Array>)) {
        yield JSON.parse(message.data);
      }
    } catch (cause) {
      if (controller.signal.aborted) return;
      if (cause instanceof ParleyError) throw cause;
      const kind = cause instanceof SyntaxError ? "http" : "network";
      const error = new ParleyError(kind, `Stream failed: ${(cause as Error).message}`, { cause });
      onError?.(error);
      throw error;
    } finally {
      signal?.removeEventListener("abort", abort);
    }
  }

  const method = (name: string) => (path: string, init?: AnyInit) => send(name, path, init);
  return {
    GET: method("GET"),
    POST: method("POST"),
    PUT: method("PUT"),
    PATCH: method("PATCH"),
    DELETE: method("DELETE"),
    setToken(next: string | undefined) {
      token = next;
    },
    stream,
    chat: {
      stream: (input: ChatRequest, options: CallOptions = {}) => stream("/api/v1/chat/stream", { ...options, body: input }),
    },
  } as unknown as ParleyClient<Paths>;
}
