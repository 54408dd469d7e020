import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import * as XLSX from "@e965/xlsx";

/** An xlsx workbook of one sheet, written by the library the table import reads with. */
export function xlsxOf(rows: unknown[][]): Uint8Array {
  const workbook = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet(rows), "Sheet1");
  return new Uint8Array(XLSX.write(workbook, { type: "array", bookType: "xlsx" }) as ArrayBuffer);
}

/** A local web server for website-import tests; see {@link startWebServer}. */
export interface WebServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** What a test page answers. */
export interface WebPage {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Waits this long before answering (a slow site). */
  delayMs?: number;
}

/** Starts a real HTTP server on 127.0.0.1 (random port) answering each path from `pages`; unknown paths are 404. */
export async function startWebServer(pages: (path: string, self: { url: string }) => WebPage | undefined): Promise<WebServer> {
  const self = { url: "" };
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((request, response) => {
    const page = pages(new URL(request.url ?? "/", "http://localhost").pathname, self) ?? { status: 404, body: "not found" };
    const answer = () => {
      response.writeHead(page.status ?? 200, { "content-type": "text/html; charset=utf-8", ...page.headers });
      response.end(page.body ?? "");
    };
    if (!page.delayMs) return answer();
    const timer = setTimeout(() => {
      timers.delete(timer);
      answer();
    }, page.delayMs);
    timers.add(timer);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  self.url = `http://127.0.0.1:${port}`;
  return {
    url: self.url,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An article page with enough text for Readability, a relative link and navigation chrome around it. */
export function articleHtml(title: string, paragraphs: string[]): string {
  const body = paragraphs.map((paragraph) => `<p>${paragraph}</p>`).join("\n");
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<main><article><h1>${title}</h1>${body}<p>See the <a href="/terms">terms</a>.</p></article></main>
<footer>Copyright the shop</footer></body></html>`;
}
