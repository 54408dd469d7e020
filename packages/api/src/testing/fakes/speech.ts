import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * `frames` silent MPEG-1 Layer III frames (mono, 44.1 kHz, 128 kbit/s, 417 bytes, 26 ms each):
 * a real MP3 stream that browsers decode and content sniffing recognises, made without an encoder.
 */
export function silentMp3(frames: number): Uint8Array {
  const frame = new Uint8Array(417);
  // Sync word, MPEG-1, Layer III, no CRC | 128 kbit/s, 44.1 kHz, no padding | mono.
  frame.set([0xff, 0xfb, 0x90, 0xc0]);
  // All-zero side information: no main data, every granule decodes to silence.
  const out = new Uint8Array(frame.length * frames);
  for (let index = 0; index < frames; index += 1) out.set(frame, index * frame.length);
  return out;
}

/** One synthesis request as the fake received it. */
export interface SpeechFakeRequest {
  /** The text read (the SSML's voice text for Azure). */
  text: string;
  voice: string;
  /** Bytes of audio the fake sent for it. */
  bytesSent: number;
  /** Whether the whole answer was written. */
  finished: boolean;
}

/** What the fake answers next: `fail` 500s, `json` answers 200 with JSON (not audio), `hang` never answers. */
export type SpeechFakeMode = "ok" | "fail" | "json" | "hang";

/** A local text-to-speech server speaking OpenAI's `/audio/speech` or Azure Speech REST. */
export interface SpeechFake {
  /** Base URL to configure: `{url}/audio/speech` (OpenAI) or `{url}/cognitiveservices/...` (Azure). */
  url: string;
  requests: SpeechFakeRequest[];
  /** Voice-list calls received (Azure). */
  voiceListCalls: number;
  setMode(mode: SpeechFakeMode): void;
  close(): Promise<void>;
}

/** Options of {@link startSpeechFake}. */
export interface SpeechFakeOptions {
  format: "openai" | "azure";
  /** The key every request must carry (bearer for OpenAI, `Ocp-Apim-Subscription-Key` for Azure). */
  apiKey: string;
  /** Voices it accepts; Azure also lists them. Default: OpenAI's alloy and nova, Azure's Jenny and Xiaoxiao. */
  voices?: string[];
  /** Pause between the audio chunks it writes, in milliseconds (default 20): the audio arrives as it is "produced". */
  chunkDelayMs?: number;
}

const AZURE_VOICES = [
  {
    Name: "Microsoft Server Speech Text to Speech Voice (en-US, JennyNeural)",
    DisplayName: "Jenny",
    LocalName: "Jenny",
    ShortName: "en-US-JennyNeural",
    Gender: "Female",
    Locale: "en-US",
    VoiceType: "Neural",
  },
  {
    Name: "Microsoft Server Speech Text to Speech Voice (zh-CN, XiaoxiaoNeural)",
    DisplayName: "Xiaoxiao",
    LocalName: "晓晓",
    ShortName: "zh-CN-XiaoxiaoNeural",
    Gender: "Female",
    Locale: "zh-CN",
    VoiceType: "Neural",
  },
];

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const unescapeXml = (text: string) =>
  text.replace(/&(lt|gt|amp|apos|quot);/g, (_, name: string) => ({ lt: "<", gt: ">", amp: "&", apos: "'", quot: '"' })[name]!);

/** The voice and text of an SSML document, or undefined when it is not the well-formed `<speak><voice>` Azure reads. */
function readSsml(body: string): { voice: string; text: string } | undefined {
  const match = /^<speak\s[^>]*version="1\.0"[^>]*xml:lang="[^"]+"[^>]*>\s*<voice\s+name="([^"<>&]+)"\s*>([^<]*)<\/voice>\s*<\/speak>\s*$/s.exec(body.trim());
  if (!match) return undefined;
  // A bare `&` not starting an entity is not XML.
  if (/&(?!(lt|gt|amp|apos|quot);)/.test(match[2]!)) return undefined;
  return { voice: match[1]!, text: unescapeXml(match[2]!) };
}

function openAiError(response: ServerResponse, status: number, message: string, type: string, code: string | null) {
  response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ error: { message, type, param: null, code } }));
}

/**
 * Starts a speech server on 127.0.0.1 checking what the real service checks: the key, the body
 * (OpenAI's JSON fields; Azure's SSML, content type and output format), the voice; it answers real
 * MP3 bytes (about one 26 ms frame per character), written in chunks with a pause between them.
 */
export async function startSpeechFake(options: SpeechFakeOptions): Promise<SpeechFake> {
  const requests: SpeechFakeRequest[] = [];
  let mode: SpeechFakeMode = "ok";
  let voiceListCalls = 0;
  const voices = options.voices ?? (options.format === "openai" ? ["alloy", "nova"] : AZURE_VOICES.map((voice) => voice.ShortName));
  const delay = options.chunkDelayMs ?? 20;

  const stream = async (response: ServerResponse, record: SpeechFakeRequest) => {
    const audio = silentMp3(Math.min(400, Math.max(8, record.text.length)));
    response.writeHead(200, { "content-type": "audio/mpeg", "transfer-encoding": "chunked" });
    const chunk = 417 * 4;
    for (let offset = 0; offset < audio.length; offset += chunk) {
      if (response.destroyed) return;
      const part = audio.subarray(offset, offset + chunk);
      response.write(part);
      record.bytesSent += part.length;
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    }
    record.finished = true;
    response.end();
  };

  const server = createServer(async (request, response) => {
    const path = (request.url ?? "").split("?")[0];
    if (mode === "hang") return;
    if (options.format === "openai") {
      if (request.method !== "POST" || path !== "/audio/speech") return openAiError(response, 404, "Not found", "invalid_request_error", null);
      if (request.headers.authorization !== `Bearer ${options.apiKey}`) {
        return openAiError(response, 401, "Incorrect API key provided.", "invalid_request_error", "invalid_api_key");
      }
      let body: { model?: unknown; input?: unknown; voice?: unknown; response_format?: unknown; speed?: unknown };
      try {
        body = JSON.parse(await readBody(request)) as typeof body;
      } catch {
        return openAiError(response, 400, "We could not parse the JSON body of your request.", "invalid_request_error", null);
      }
      if (typeof body.model !== "string" || !body.model) return openAiError(response, 400, "you must provide a model parameter", "invalid_request_error", null);
      if (typeof body.input !== "string" || !body.input || body.input.length > 4096) {
        return openAiError(response, 400, "input must be a string of 1 to 4096 characters", "invalid_request_error", null);
      }
      if (typeof body.voice !== "string" || !voices.includes(body.voice)) {
        return openAiError(
          response,
          400,
          `Invalid value: '${String(body.voice)}'. Supported values are: ${voices.map((voice) => `'${voice}'`).join(", ")}.`,
          "invalid_request_error",
          "invalid_value",
        );
      }
      if (body.response_format !== undefined && !["mp3", "opus", "aac", "flac", "wav", "pcm"].includes(String(body.response_format))) {
        return openAiError(response, 400, "Invalid response_format", "invalid_request_error", "invalid_value");
      }
      if (mode === "fail") return openAiError(response, 500, "The server had an error while processing your request.", "server_error", null);
      if (mode === "json") return response.writeHead(200, { "content-type": "application/json" }).end("{}");
      const record: SpeechFakeRequest = { text: body.input, voice: body.voice, bytesSent: 0, finished: false };
      requests.push(record);
      return stream(response, record);
    }
    // Azure Speech REST.
    if (request.headers["ocp-apim-subscription-key"] !== options.apiKey) return response.writeHead(401).end();
    if (request.method === "GET" && path === "/cognitiveservices/voices/list") {
      voiceListCalls += 1;
      return response
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify(AZURE_VOICES.filter((voice) => voices.includes(voice.ShortName))));
    }
    if (request.method !== "POST" || path !== "/cognitiveservices/v1") return response.writeHead(404).end();
    if (!String(request.headers["content-type"]).startsWith("application/ssml+xml")) return response.writeHead(415).end();
    if (request.headers["x-microsoft-outputformat"] !== "audio-24khz-48kbitrate-mono-mp3") return response.writeHead(400).end("Unsupported output format");
    const ssml = readSsml(await readBody(request));
    if (!ssml) return response.writeHead(400).end("SSML is not valid");
    if (!voices.includes(ssml.voice)) return response.writeHead(400).end(`Unsupported voice ${ssml.voice}.`);
    if (mode === "fail") return response.writeHead(500).end();
    if (mode === "json") return response.writeHead(200, { "content-type": "application/json" }).end("{}");
    const record: SpeechFakeRequest = { text: ssml.text, voice: ssml.voice, bytesSent: 0, finished: false };
    requests.push(record);
    return stream(response, record);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get voiceListCalls() {
      return voiceListCalls;
    },
    setMode(next) {
      mode = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
