import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { deflateSync } from "node:zlib";

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real PNG: `width`×`height` pixels of one RGB colour (8-bit, no alpha). */
export function solidPng(width: number, height: number, rgb: [number, number, number]): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set(rgb, 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Uint8Array(Buffer.concat([signature, chunk("IHDR", header), chunk("IDAT", deflateSync(raw)), chunk("IEND", new Uint8Array())]));
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

function sendJson(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

async function listen(server: ReturnType<typeof createServer>): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closer(server: ReturnType<typeof createServer>) {
  return () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

/** One request as an image fake received it. */
export interface ImageFakeRequest {
  method: string;
  path: string;
  /** The auth header the protocol uses (`authorization` or `mj-api-secret`). */
  credential: string | undefined;
  contentType: string | undefined;
  /** JSON bodies parsed; multipart bodies as their named fields (files as their byte length). */
  body: Record<string, unknown>;
}

/** A local server speaking OpenAI's images API. */
export interface OpenAiImagesFake {
  /** The API root to configure (`{url}/images/generations`). */
  url: string;
  requests: ImageFakeRequest[];
  /** Answers the next generations with an HTTP 400 `content_policy_violation` (true) or normally. */
  rejectPrompts(reject: boolean): void;
  close(): Promise<void>;
}

/** Splits a multipart body into its fields; a file part counts as its size in bytes (and its leading bytes are checked by the caller). */
function multipartFields(body: Buffer, contentType: string): Record<string, unknown> {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  if (!boundary) return {};
  const marker = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const fields: Record<string, unknown> = {};
  let start = body.indexOf(marker);
  while (start !== -1) {
    const next = body.indexOf(marker, start + marker.length);
    if (next === -1) break;
    const part = body.subarray(start + marker.length + 2, next - 2);
    const split = part.indexOf("\r\n\r\n");
    const head = part.subarray(0, split).toString();
    const content = part.subarray(split + 4);
    const name = /name="([^"]+)"/.exec(head)?.[1];
    if (name) fields[name] = /filename=/.test(head) ? { bytes: content.length, png: content.subarray(1, 4).toString() === "PNG" } : content.toString();
    start = next;
  }
  return fields;
}

/**
 * Starts an OpenAI images server on 127.0.0.1: `POST /images/generations` (JSON) and
 * `POST /images/variations` (multipart with a PNG `image`), bearer key checked (401 with
 * OpenAI's error body), answers `{ created, data: [{ b64_json, revised_prompt }] }` of real PNGs.
 */
export async function startOpenAiImagesFake(options: { apiKey: string }): Promise<OpenAiImagesFake> {
  const requests: ImageFakeRequest[] = [];
  let reject = false;
  const server = createServer((request, response) => {
    void (async () => {
      const raw = await readBody(request);
      const contentType = request.headers["content-type"];
      const path = request.url ?? "/";
      let body: Record<string, unknown> = {};
      if (contentType?.startsWith("multipart/form-data")) body = multipartFields(raw, contentType);
      else {
        try {
          body = JSON.parse(raw.toString()) as Record<string, unknown>;
        } catch {
          body = {};
        }
      }
      requests.push({ method: request.method ?? "", path, credential: request.headers.authorization, contentType, body });
      if (request.headers.authorization !== `Bearer ${options.apiKey}`) {
        sendJson(response, 401, { error: { message: "Incorrect API key provided.", type: "invalid_request_error", param: null, code: "invalid_api_key" } });
        return;
      }
      const n = Number(body.n ?? 1);
      if (path === "/images/generations" && request.method === "POST") {
        if (typeof body.prompt !== "string" || !body.prompt) {
          sendJson(response, 400, { error: { message: "prompt is required", type: "invalid_request_error", param: "prompt", code: null } });
          return;
        }
        if (reject || /forbidden/i.test(body.prompt)) {
          sendJson(response, 400, {
            error: {
              code: "content_policy_violation",
              message: "Your request was rejected as a result of our safety system. Your prompt may contain text that is not allowed by our safety system.",
              param: null,
              type: "invalid_request_error",
            },
          });
          return;
        }
        const data = Array.from({ length: n }, (_, index) => ({
          b64_json: Buffer.from(solidPng(4, 4, [40 * index, 120, 200])).toString("base64"),
          revised_prompt: `A detailed picture of ${body.prompt}`,
        }));
        sendJson(response, 200, { created: Math.floor(Date.now() / 1000), data });
        return;
      }
      if (path === "/images/variations" && request.method === "POST") {
        const image = body.image as { png?: boolean } | undefined;
        if (!image?.png) {
          sendJson(response, 400, { error: { message: "Uploaded image must be a PNG", type: "invalid_request_error", param: "image", code: null } });
          return;
        }
        const data = Array.from({ length: n }, () => ({ b64_json: Buffer.from(solidPng(4, 4, [250, 10, 10])).toString("base64") }));
        sendJson(response, 200, { created: Math.floor(Date.now() / 1000), data });
        return;
      }
      sendJson(response, 404, { error: { message: "Invalid URL", type: "invalid_request_error", param: null, code: null } });
    })();
  });
  const url = await listen(server);
  return { url, requests, rejectPrompts: (value) => (reject = value), close: closer(server) };
}

/** A local midjourney-proxy server. */
export interface MidjourneyFake {
  /** The proxy root to configure (`{url}/mj/...`). */
  url: string;
  requests: ImageFakeRequest[];
  /** Fetches of a task before it succeeds (each adds progress); default 3. */
  setPollsToFinish(polls: number): void;
  close(): Promise<void>;
}

interface FakeTask {
  id: string;
  action: "IMAGINE" | "UPSCALE" | "VARIATION";
  prompt: string;
  polls: number;
  fail?: string;
}

/**
 * Starts a midjourney-proxy server on 127.0.0.1: `POST /mj/submit/imagine`, `POST
 * /mj/submit/action`, `GET /mj/task/{id}/fetch` with the `mj-api-secret` header (401 without).
 * A task moves SUBMITTED → IN_PROGRESS with rising progress → SUCCESS over a few fetches and then
 * serves a real PNG at its `imageUrl` with U1–U4 / V1–V4 buttons (an upscale has none). A prompt
 * holding "banned" is refused with code 24; one holding "explode" fails while drawing.
 */
export async function startMidjourneyFake(options: { secret: string }): Promise<MidjourneyFake> {
  const requests: ImageFakeRequest[] = [];
  const tasks = new Map<string, FakeTask>();
  let pollsToFinish = 3;
  let sequence = 1_700_000_000_000;
  let url = "";
  const gridButtons = (id: string) => [
    ...[1, 2, 3, 4].map((n) => ({ customId: `MJ::JOB::upsample::${n}::${id}`, emoji: "", label: `U${n}`, type: 2, style: 2 })),
    { customId: `MJ::JOB::reroll::0::${id}::SOLO`, emoji: "🔄", label: "", type: 2, style: 2 },
    ...[1, 2, 3, 4].map((n) => ({ customId: `MJ::JOB::variation::${n}::${id}`, emoji: "", label: `V${n}`, type: 2, style: 2 })),
  ];
  const server = createServer((request, response) => {
    void (async () => {
      const raw = await readBody(request);
      let body: Record<string, unknown> = {};
      try {
        body = raw.length ? (JSON.parse(raw.toString()) as Record<string, unknown>) : {};
      } catch {
        body = {};
      }
      const path = request.url ?? "/";
      const secret = request.headers["mj-api-secret"] as string | undefined;
      requests.push({ method: request.method ?? "", path, credential: secret, contentType: request.headers["content-type"], body });
      const image = /^\/attachments\/([\w-]+)\.png$/.exec(path);
      if (image && request.method === "GET") {
        const task = tasks.get(image[1]!);
        if (!task) return sendJson(response, 404, {});
        response.writeHead(200, { "content-type": "image/png" });
        response.end(task.action === "UPSCALE" ? solidPng(8, 8, [10, 200, 10]) : solidPng(16, 16, [200, 200, 20]));
        return;
      }
      if (secret !== options.secret) return sendJson(response, 401, { code: 401, description: "Unauthorized" });
      if (path === "/mj/submit/imagine" && request.method === "POST") {
        const prompt = typeof body.prompt === "string" ? body.prompt : "";
        if (!prompt) return sendJson(response, 200, { code: 4, description: "prompt不能为空", result: null });
        if (/banned/i.test(prompt))
          return sendJson(response, 200, { code: 24, description: "可能包含敏感词", properties: { promptEn: prompt, bannedWord: "banned" } });
        const id = String(sequence++);
        tasks.set(id, { id, action: "IMAGINE", prompt, polls: 0, ...(/explode/i.test(prompt) ? { fail: "Internal error while rendering" } : {}) });
        return sendJson(response, 200, { code: 1, description: "提交成功", result: id, properties: {} });
      }
      if (path === "/mj/submit/action" && request.method === "POST") {
        const parent = tasks.get(String(body.taskId));
        const match = /^MJ::JOB::(upsample|variation)::(\d)::(\d+)$/.exec(String(body.customId ?? ""));
        if (!parent || !match || match[3] !== parent.id) return sendJson(response, 200, { code: 3, description: "关联任务不存在或已失效", result: null });
        const id = String(sequence++);
        tasks.set(id, { id, action: match[1] === "upsample" ? "UPSCALE" : "VARIATION", prompt: parent.prompt, polls: 0 });
        return sendJson(response, 200, { code: 1, description: "提交成功", result: id, properties: {} });
      }
      const fetch = /^\/mj\/task\/([^/]+)\/fetch$/.exec(path);
      if (fetch && request.method === "GET") {
        const task = tasks.get(decodeURIComponent(fetch[1]!));
        if (!task) return sendJson(response, 404, { code: 3, description: "task not found" });
        task.polls += 1;
        const done = task.polls > pollsToFinish;
        const base = {
          id: task.id,
          action: task.action,
          prompt: task.prompt,
          promptEn: task.prompt,
          description: `/imagine ${task.prompt}`,
          submitTime: Date.now(),
        };
        if (done && task.fail) return sendJson(response, 200, { ...base, status: "FAILURE", progress: "", imageUrl: null, failReason: task.fail, buttons: [] });
        if (done) {
          return sendJson(response, 200, {
            ...base,
            status: "SUCCESS",
            progress: "100%",
            imageUrl: `${url}/attachments/${task.id}.png`,
            failReason: null,
            buttons: task.action === "UPSCALE" ? [] : gridButtons(task.id),
          });
        }
        const progress = Math.round((task.polls / (pollsToFinish + 1)) * 100);
        return sendJson(response, 200, {
          ...base,
          status: task.polls === 1 ? "SUBMITTED" : "IN_PROGRESS",
          progress: `${progress}%`,
          imageUrl: null,
          failReason: null,
          buttons: [],
        });
      }
      sendJson(response, 404, { code: 3, description: "not found" });
    })();
  });
  url = await listen(server);
  return { url, requests, setPollsToFinish: (polls) => (pollsToFinish = polls), close: closer(server) };
}
