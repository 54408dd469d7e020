import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { ChannelConfig, ChannelKind } from "../types";

/** A person's message, as a test asks a platform fake to deliver it. */
export interface FakeDelivery {
  text: string;
  /** The platform's user id of the sender (a default person when absent). */
  senderId?: string;
  senderName?: string;
  /** The chat/channel/group id; a direct chat with the sender when absent. */
  conversationId?: string;
  isGroup?: boolean;
  /** The platform's message or event id; a fresh one when absent. Reuse it to simulate a retry. */
  id?: string;
  /** Images and files sent with the message (fakes that serve media keep them for their download API). */
  media?: FakeMedia[];
}

/** An image or file a fake person sends; the fake serves its bytes as the platform's media API does. */
export interface FakeMedia {
  kind: "image" | "file";
  bytes: Uint8Array;
  mime?: string;
  name?: string;
  /** Served without a declared size (no Content-Length, no size in the metadata): only reading finds how big it is. */
  hideSize?: boolean;
}

/** Serves `bytes` as a download; `hideSize` streams them with no Content-Length. */
export function mediaResponse(media: FakeMedia, headers: Record<string, string> = {}): Response {
  const type = { "content-type": media.mime ?? "application/octet-stream", ...headers };
  if (!media.hideSize)
    return new Response(new Uint8Array(media.bytes), { status: 200, headers: { ...type, "content-length": String(media.bytes.byteLength) } });
  const chunk = 1024 * 1024;
  let offset = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= media.bytes.byteLength) return controller.close();
      controller.enqueue(media.bytes.slice(offset, offset + chunk));
      offset += chunk;
    },
  });
  return new Response(stream, { status: 200, headers: type });
}

/** What the platform received on its send API. */
export interface FakeSentMessage {
  /** The conversation, chat or user the message went to, as the platform names it. */
  to: string;
  text: string;
  /** The request carried the right credentials (a valid access token, bot token, signature…). */
  authorized: boolean;
  at: number;
  /** An image sent (its text is then empty, or the image's caption). */
  image?: { bytes: Uint8Array; mime: string; name: string };
}

/** Failures a fake can answer its next send calls with, the platform's own way. */
export type FakeFailure = "rate-limited" | "server-error" | "token-expired" | "rejected";

/**
 * A local stand-in for one messaging platform: it signs deliveries the way the platform does and
 * serves the platform's token and send APIs, recording what it was sent.
 */
export interface PlatformFake {
  kind: ChannelKind;
  /** Base URL of the fake's API (what an adapter gets as `io.apiBase`). */
  apiBase: string;
  /** The account configuration an operator would enter in Parley for this fake's bot/app. */
  config: ChannelConfig;
  /** A correctly signed (and, where the platform does so, encrypted) webhook delivery. */
  delivery(webhookUrl: string, message: FakeDelivery): Promise<Request>;
  /** The same delivery with its signature broken (or its secret token wrong). */
  forged(webhookUrl: string, message: FakeDelivery): Promise<Request>;
  /** A delivery signed correctly but with a timestamp outside the accepted window (platforms that sign timestamps). */
  stale?(webhookUrl: string, message: FakeDelivery): Promise<Request>;
  /** The platform's URL verification request and the body Parley must answer it with. */
  handshake?(webhookUrl: string): Promise<{ request: Request; expectedBody: string }>;
  readonly sent: FakeSentMessage[];
  /** How many times an access token was issued. */
  readonly tokensIssued: number;
  /** Makes the next `count` send calls fail. */
  failNext(failure: FakeFailure, count?: number): void;
  close(): Promise<void>;
}

/** A running local HTTP server that answers with a Fetch handler. */
export interface FetchServer {
  url: string;
  close(): Promise<void>;
}

/** Serves `handler` on 127.0.0.1 at a random port. */
export async function serveFetch(handler: (request: Request) => Response | Promise<Response>): Promise<FetchServer> {
  const server = createServer(async (req, res) => {
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (Array.isArray(value)) for (const item of value) headers.append(name, item);
        else if (value !== undefined) headers.set(name, value);
      }
      const request = new Request(`http://${req.headers.host}${req.url}`, {
        method: req.method,
        headers,
        ...(body.length && req.method !== "GET" && req.method !== "HEAD" ? { body } : {}),
      });
      const response = await handler(request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (error) {
      res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A JSON response. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

let counter = 0;
/** A unique id for fake messages and events. */
export function fakeId(prefix: string): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter}`;
}
