import http from "node:http";

/** A request a fake server received. */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A local HTTP server standing in for a plugin's API, recording what it was sent. */
export interface FakeServer {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

/** Starts a fake API on 127.0.0.1; the handler answers each request after its body was read. */
export async function startFakeServer(handler: (request: ReceivedRequest, response: http.ServerResponse) => void | Promise<void>): Promise<FakeServer> {
  const requests: ReceivedRequest[] = [];
  const server = http.createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const request = { method: incoming.method ?? "", url: incoming.url ?? "", headers: incoming.headers, body: Buffer.concat(chunks).toString("utf8") };
      requests.push(request);
      void Promise.resolve(handler(request, response)).catch(() => response.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Answers JSON. */
export function sendJson(response: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text) });
  response.end(text);
}
