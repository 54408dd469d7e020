import { type ImageButton, ImageError, type ImageGenerator, type ImageSize, imageFetch, type ImageStep, sniffImage } from "./types";

/** Settings of a client of a midjourney-proxy server. */
export interface MidjourneyOptions {
  /** The proxy's root (its routes are under `/mj`). */
  baseUrl: string;
  /** The name the catalogue lists it by (the proxy itself serves one Midjourney account). */
  model: string;
  /** Sent as `mj-api-secret`. */
  apiKey?: string;
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
}

/** The aspect ratio a size asks Midjourney for, appended to the prompt as `--ar`. */
const aspectOf: Record<ImageSize, string | undefined> = {
  "256x256": undefined,
  "512x512": undefined,
  "1024x1024": undefined,
  "1792x1024": "7:4",
  "1024x1792": "4:7",
};

/** midjourney-proxy's return codes: 1 accepted, 21 the same task exists, 22 queued, 23 queue full, 24 banned prompt. */
const ACCEPTED = new Set([1, 21, 22]);

interface TaskView {
  id?: unknown;
  status?: unknown;
  progress?: unknown;
  imageUrl?: unknown;
  failReason?: unknown;
  buttons?: unknown;
}

/** `"45%"` → 45; anything unreadable → 0. */
function percent(value: unknown): number {
  const parsed = typeof value === "string" ? Number.parseFloat(value) : typeof value === "number" ? value : Number.NaN;
  return Number.isFinite(parsed) ? Math.max(0, Math.min(100, Math.round(parsed))) : 0;
}

function buttonsOf(value: unknown): ImageButton[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry: { customId?: unknown; label?: unknown } | null) =>
    typeof entry?.customId === "string" && typeof entry.label === "string" ? [{ customId: entry.customId, label: entry.label }] : [],
  );
}

/** Fail reasons Midjourney gives a prompt it will not draw. */
const REJECTED_REASON = /banned|sensitive|blocked|moderat|prompt/i;

/**
 * A client of the open midjourney-proxy REST API: `POST /mj/submit/imagine` and
 * `/mj/submit/action` answer `{ code, description, result: taskId }`; `GET /mj/task/{id}/fetch`
 * tells the task's status, progress (`"45%"`), image URL and buttons (U1–U4, V1–V4). Every call
 * carries the `mj-api-secret` header. A finished task's image (a grid of four for imagine and
 * variations, one picture for an upscale) is downloaded from its `imageUrl`.
 */
export function createMidjourneyGenerator(options: MidjourneyOptions): ImageGenerator {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const base = options.baseUrl.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? 30_000;
  const headers: Record<string, string> = { "content-type": "application/json", ...(options.apiKey ? { "mj-api-secret": options.apiKey } : {}) };

  async function json(url: string, init: RequestInit): Promise<unknown> {
    const response = await imageFetch(fetchImpl, url, { ...init, headers }, timeoutMs);
    if (!response.ok) {
      const detail = (await response.text().catch(() => "")).slice(0, 300);
      const kind = response.status === 401 || response.status === 403 || response.status === 429 || response.status >= 500 ? "unavailable" : "failed";
      throw new ImageError(kind, `midjourney request to ${url} answered ${response.status}: ${detail}`, response.status);
    }
    return response.json().catch(() => {
      throw new ImageError("unknown", `midjourney answer of ${url} is not JSON`);
    });
  }

  async function submit(path: string, body: unknown, signal?: AbortSignal): Promise<ImageStep> {
    const url = `${base}${path}`;
    const answer = (await json(url, { method: "POST", body: JSON.stringify(body), ...(signal ? { signal } : {}) })) as {
      code?: unknown;
      description?: unknown;
      result?: unknown;
    } | null;
    const code = typeof answer?.code === "number" ? answer.code : Number.NaN;
    const description = typeof answer?.description === "string" ? answer.description : "";
    if (!ACCEPTED.has(code)) {
      const kind = code === 24 ? "rejected" : code === 23 ? "unavailable" : "failed";
      throw new ImageError(kind, `midjourney refused the task (code ${String(answer?.code)}): ${description}`);
    }
    const id = answer?.result;
    if (typeof id !== "string" && typeof id !== "number") throw new ImageError("unknown", "midjourney accepted the task without a task id");
    return { state: "running", providerTaskId: String(id), progress: 0 };
  }

  async function download(imageUrl: string, signal?: AbortSignal): Promise<Uint8Array> {
    const response = await imageFetch(fetchImpl, new URL(imageUrl, `${base}/`).toString(), { ...(signal ? { signal } : {}) }, timeoutMs);
    if (!response.ok) throw new ImageError("unavailable", `midjourney image ${imageUrl} answered ${response.status}`, response.status);
    return new Uint8Array(await response.arrayBuffer());
  }

  return {
    model: options.model,
    format: "midjourney",
    operations: ["upscale", "variation"],
    sizes: ["1024x1024", "1792x1024", "1024x1792"],
    fixedCount: 1,
    async generate({ prompt, size, signal }) {
      const aspect = aspectOf[size];
      return submit("/mj/submit/imagine", { prompt: aspect && !/--ar\s/.test(prompt) ? `${prompt} --ar ${aspect}` : prompt }, signal);
    },
    async operate({ operation, index, parent, signal }) {
      const label = `${operation === "upscale" ? "U" : "V"}${index}`;
      const button = parent.buttons?.find((entry) => entry.label === label);
      if (!button || !parent.providerTaskId) throw new ImageError("failed", `the result offers no ${label}`);
      return submit("/mj/submit/action", { customId: button.customId, taskId: parent.providerTaskId }, signal);
    },
    async poll(providerTaskId, signal) {
      const url = `${base}/mj/task/${encodeURIComponent(providerTaskId)}/fetch`;
      const task = (await json(url, { method: "GET", ...(signal ? { signal } : {}) })) as TaskView | null;
      const status = typeof task?.status === "string" ? task.status : "";
      if (status === "FAILURE") {
        const reason = typeof task?.failReason === "string" ? task.failReason : "no reason given";
        throw new ImageError(REJECTED_REASON.test(reason) ? "rejected" : "failed", `midjourney task ${providerTaskId} failed: ${reason}`);
      }
      if (status === "SUCCESS") {
        if (typeof task?.imageUrl !== "string" || !task.imageUrl)
          throw new ImageError("unknown", `midjourney task ${providerTaskId} succeeded without an image`);
        const bytes = await download(task.imageUrl, signal);
        const contentType = sniffImage(bytes);
        if (!contentType) throw new ImageError("unknown", `midjourney image of task ${providerTaskId} is not a picture`);
        return { state: "succeeded", providerTaskId, images: [{ bytes, contentType }], buttons: buttonsOf(task.buttons) };
      }
      if (!["NOT_START", "SUBMITTED", "MODAL", "IN_PROGRESS"].includes(status))
        throw new ImageError("unknown", `midjourney task ${providerTaskId} has status ${status || "none"}`);
      return { state: "running", providerTaskId, progress: percent(task?.progress) };
    },
  };
}
