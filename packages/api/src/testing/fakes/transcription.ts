import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** One `/audio/transcriptions` request as the fake parsed it from its multipart body. */
export interface TranscriptionFakeRequest {
  authorization: string | undefined;
  model: string;
  language: string | null;
  responseFormat: string | null;
  fileName: string;
  fileType: string;
  bytes: number;
  /** The container the file's first bytes show (`webm`, `ogg`, `wav`, `mp3`, `mp4`), or null. */
  container: string | null;
}

/** What the fake answers next: `fail` 500s with OpenAI's error body, `hang` never answers. */
export type TranscriptionFakeMode = "ok" | "fail" | "hang";

/** A local server speaking OpenAI's `POST /audio/transcriptions`. */
export interface TranscriptionFake {
  /** Base URL to configure (the server answers `{url}/audio/transcriptions`). */
  url: string;
  requests: TranscriptionFakeRequest[];
  setMode(mode: TranscriptionFakeMode): void;
  close(): Promise<void>;
}

/** Options of {@link startTranscriptionFake}. */
export interface TranscriptionFakeOptions {
  /** The bearer key every request must carry. */
  apiKey: string;
  /** Models it serves (others answer 404 `model_not_found`); default `whisper-1`. */
  models?: string[];
  /** The text it answers for a file; default "Hello from the microphone". */
  transcript?: (request: TranscriptionFakeRequest) => string;
  /** Awaited before a transcript is sent: lets a test look at the server's state while the call is under way. */
  beforeAnswer?: (request: TranscriptionFakeRequest) => Promise<void>;
}

// The fake's own reading of the container, independent of the server's sniffing.
function containerOf(bytes: Uint8Array): string | null {
  const ascii = (start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end));
  if (bytes.length < 12) return null;
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return "webm";
  if (ascii(0, 4) === "OggS") return "ogg";
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WAVE") return "wav";
  if (ascii(4, 8) === "ftyp") return "mp4";
  if (ascii(0, 3) === "ID3" || (bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0)) return "mp3";
  return null;
}

const openAiError = (message: string, code: string | null) => JSON.stringify({ error: { message, type: "invalid_request_error", param: null, code } });

/**
 * Starts an OpenAI-compatible transcription server on 127.0.0.1. It parses the multipart body
 * for real (`file`, `model`, `language`, `response_format`), refuses a wrong key (401
 * `invalid_api_key`), an unknown model (404 `model_not_found`), a missing file or one that is
 * not audio (400, OpenAI's "Invalid file format"), and answers `{ text }` as `response_format=json` does.
 */
export async function startTranscriptionFake(options: TranscriptionFakeOptions): Promise<TranscriptionFake> {
  const requests: TranscriptionFakeRequest[] = [];
  const models = options.models ?? ["whisper-1"];
  let mode: TranscriptionFakeMode = "ok";
  const server = createServer(async (incoming, outgoing) => {
    const send = (status: number, body: string) => {
      outgoing.writeHead(status, { "content-type": "application/json" });
      outgoing.end(body);
    };
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    if (incoming.method !== "POST" || incoming.url !== "/audio/transcriptions") return send(404, openAiError("Not found", null));
    if (incoming.headers.authorization !== `Bearer ${options.apiKey}`) {
      return send(
        401,
        openAiError("Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.", "invalid_api_key"),
      );
    }
    if (mode === "hang") return;
    if (mode === "fail")
      return send(
        500,
        JSON.stringify({ error: { message: "The server had an error while processing your request.", type: "server_error", param: null, code: null } }),
      );
    let form: FormData;
    try {
      form = await new Request("http://fake/", {
        method: "POST",
        headers: { "content-type": incoming.headers["content-type"] ?? "" },
        body: Buffer.concat(chunks),
      }).formData();
    } catch {
      return send(400, openAiError("Could not parse multipart form", null));
    }
    const model = form.get("model");
    const file = form.get("file");
    if (typeof model !== "string" || model === "") return send(400, openAiError("you must provide a model parameter", null));
    if (!(file instanceof File))
      return send(400, openAiError("1 validation error for Request\nbody -> file\n  field required (type=value_error.missing)", null));
    const bytes = new Uint8Array(await file.arrayBuffer());
    const request: TranscriptionFakeRequest = {
      authorization: incoming.headers.authorization,
      model,
      language: typeof form.get("language") === "string" ? (form.get("language") as string) : null,
      responseFormat: typeof form.get("response_format") === "string" ? (form.get("response_format") as string) : null,
      fileName: file.name,
      fileType: file.type,
      bytes: bytes.length,
      container: containerOf(bytes),
    };
    requests.push(request);
    if (!models.includes(model)) return send(404, openAiError(`The model \`${model}\` does not exist or you do not have access to it.`, "model_not_found"));
    if (!request.container) {
      return send(400, openAiError("Invalid file format. Supported formats: ['flac', 'm4a', 'mp3', 'mp4', 'mpeg', 'mpga', 'oga', 'ogg', 'wav', 'webm']", null));
    }
    await options.beforeAnswer?.(request);
    send(200, JSON.stringify({ text: options.transcript ? options.transcript(request) : "Hello from the microphone" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setMode: (next) => {
      mode = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
