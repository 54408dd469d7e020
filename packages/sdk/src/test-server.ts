import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A request the test server received, with its body and when it arrived. */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
  at: number;
}

/** A real HTTP server on 127.0.0.1 for the SDK's tests. */
export interface TestServer {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

/** Starts a server that records each request, then hands it to `handler`. */
export async function startServer(handler: (request: ReceivedRequest, response: ServerResponse, raw: IncomingMessage) => void, port = 0): Promise<TestServer> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((raw, response) => {
    const chunks: Buffer[] = [];
    raw.on("data", (chunk: Buffer) => chunks.push(chunk));
    raw.on("end", () => {
      const request = {
        method: raw.method ?? "",
        url: raw.url ?? "",
        headers: raw.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: performance.now(),
      };
      requests.push(request);
      handler(request, response, raw);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    port: address.port,
    requests,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Answers with the API's envelope and a matching status (or `httpStatus` when they differ, as for 701/870). */
export function sendEnvelope(
  response: ServerResponse,
  code: number,
  data: unknown,
  options: { message?: string; httpStatus?: number; headers?: Record<string, string> } = {},
): void {
  const success = code === 200 || code === 201;
  response.writeHead(options.httpStatus ?? code, { "content-type": "application/json", ...options.headers });
  response.end(JSON.stringify({ success, code, message: options.message ?? (success ? "ok" : "failed"), data }));
}
