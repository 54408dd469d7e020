import { ImageError, type ImageGenerator, type ImageSize, imageFetch, type ImageStep, type ProducedImage, sniffImage } from "./types";

/** Settings of a client of OpenAI's images API (or a server copying it). */
export interface OpenAiImagesOptions {
  /** API root including its version path, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Per-call timeout in milliseconds (default 120 000: a 1792-wide DALL·E 3 image takes tens of seconds). */
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
}

/** Sizes each OpenAI image model takes; a model not named takes the square 1024 only. */
function sizesOf(model: string): readonly ImageSize[] {
  if (model === "dall-e-2") return ["256x256", "512x512", "1024x1024"];
  if (model === "dall-e-3") return ["1024x1024", "1792x1024", "1024x1792"];
  return ["1024x1024"];
}

/** Reads an OpenAI error body and says which §8 kind it is. */
async function failure(response: Response, url: string): Promise<ImageError> {
  const text = (await response.text().catch(() => "")).slice(0, 500);
  let code: string | undefined;
  let message = text;
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
    if (typeof body.error?.code === "string") code = body.error.code;
    if (typeof body.error?.message === "string") message = body.error.message;
  } catch {
    // Not JSON: the text is the detail.
  }
  const detail = `image request to ${url} answered ${response.status}: ${message}`;
  if (code === "content_policy_violation" || code === "moderation_blocked") return new ImageError("rejected", detail, response.status);
  if (response.status === 401 || response.status === 403 || response.status === 429 || response.status >= 500) {
    return new ImageError("unavailable", detail, response.status);
  }
  return new ImageError("failed", detail, response.status);
}

/** Decodes `{ created, data: [{ b64_json, revised_prompt? }] }` into images whose bytes are real pictures. */
export function decodeOpenAiImages(body: unknown): ProducedImage[] {
  const rows = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(rows) || rows.length === 0) throw new ImageError("unknown", "image answer holds no data");
  return rows.map((row: { b64_json?: unknown; revised_prompt?: unknown } | null) => {
    if (typeof row?.b64_json !== "string") throw new ImageError("unknown", "image answer holds no b64_json");
    const bytes = new Uint8Array(Buffer.from(row.b64_json, "base64"));
    const contentType = sniffImage(bytes);
    if (!contentType) throw new ImageError("unknown", "image answer's b64_json is not a picture");
    return { bytes, contentType, ...(typeof row.revised_prompt === "string" ? { revisedPrompt: row.revised_prompt } : {}) };
  });
}

/**
 * A client of `POST {base}/images/generations` (JSON, `response_format: "b64_json"`) and, for
 * DALL·E 2, `POST {base}/images/variations` (multipart with the PNG). DALL·E 3 draws one image
 * per request, so a count above one is that many requests. Answers are final: no task to poll.
 */
export function createOpenAiImageGenerator(options: OpenAiImagesOptions): ImageGenerator {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const base = options.baseUrl.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? 120_000;
  const auth: Record<string, string> = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {};
  // gpt-image models always answer base64 and refuse the parameter.
  const sendsFormat = !options.model.startsWith("gpt-image");
  const onePerRequest = options.model === "dall-e-3";

  async function call(path: string, init: RequestInit): Promise<ProducedImage[]> {
    const url = `${base}${path}`;
    const response = await imageFetch(
      fetchImpl,
      url,
      { method: "POST", ...init, headers: { ...auth, ...(init.headers as Record<string, string>) } },
      timeoutMs,
    );
    if (!response.ok) throw await failure(response, url);
    const body: unknown = await response.json().catch(() => {
      throw new ImageError("unknown", `image answer of ${url} is not JSON`);
    });
    return decodeOpenAiImages(body);
  }

  const generateOnce = (prompt: string, size: ImageSize, n: number, signal?: AbortSignal) =>
    call("/images/generations", {
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: options.model, prompt, n, size, ...(sendsFormat ? { response_format: "b64_json" } : {}) }),
      ...(signal ? { signal } : {}),
    });

  return {
    model: options.model,
    format: "openai",
    operations: options.model === "dall-e-2" ? ["variation"] : [],
    sizes: sizesOf(options.model),
    async generate({ prompt, size, count, signal }): Promise<ImageStep> {
      const batches = onePerRequest
        ? await Promise.all(Array.from({ length: count }, () => generateOnce(prompt, size, 1, signal)))
        : [await generateOnce(prompt, size, count, signal)];
      return { state: "succeeded", images: batches.flat() };
    },
    async operate({ operation, parent, size, signal }): Promise<ImageStep> {
      if (operation !== "variation" || options.model !== "dall-e-2") throw new ImageError("failed", `${options.model} offers no ${operation}`);
      if (!parent.image) throw new ImageError("failed", "the result to vary is missing");
      const form = new FormData();
      form.append("image", new Blob([parent.image as Uint8Array<ArrayBuffer>], { type: "image/png" }), "image.png");
      form.append("model", options.model);
      form.append("n", "1");
      form.append("size", size);
      if (sendsFormat) form.append("response_format", "b64_json");
      return { state: "succeeded", images: await call("/images/variations", { body: form, ...(signal ? { signal } : {}) }) };
    },
    poll(): Promise<ImageStep> {
      return Promise.reject(new ImageError("unknown", "OpenAI image answers are final; there is no task to poll"));
    },
  };
}
