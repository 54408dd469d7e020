/**
 * Serves index.html on its own origin under a strict Content-Security-Policy (no
 * 'unsafe-inline', no 'unsafe-eval'), pointing the script tag at PARLEY_URL.
 *
 *   PARLEY_URL=http://localhost:3000 PORT=8080 node serve.mjs
 *
 * The system test (tests/system/widget.e2e.test.ts) imports createExampleServer, so CI
 * exercises this very page. Query options, for trying things out: ?client=<clientId>
 * (default demo) and ?lang=<language> (adds data-language, e.g. zh-CN).
 */
import fs from "node:fs";
import http from "node:http";
import { fileURLToPath } from "node:url";

const TEMPLATE_URL = "http://localhost:3000";
const template = fs.readFileSync(fileURLToPath(new URL("./index.html", import.meta.url)), "utf8");

/** The strict policy: scripts, requests and images only from this site and Parley; no inline code or styles. */
export function exampleCsp(parleyUrl) {
  return `default-src 'self'; script-src 'self' ${parleyUrl}; connect-src 'self' ${parleyUrl}; img-src 'self' data: ${parleyUrl}; style-src 'self'`;
}

const escapeAttribute = (value) => value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** index.html with the script tag pointing at parleyUrl (and, optionally, another client id or a language). */
export function examplePage(parleyUrl, { clientId = "demo", language } = {}) {
  const attributes = `data-client-id="${escapeAttribute(clientId)}"${language ? ` data-language="${escapeAttribute(language)}"` : ""}`;
  return template.replace(`${TEMPLATE_URL}/widget.js`, `${parleyUrl.replace(/\/+$/, "")}/widget.js`).replace('data-client-id="demo"', attributes);
}

/** An http.Server (not yet listening) serving the example page for parleyUrl. */
export function createExampleServer({ parleyUrl = process.env.PARLEY_URL || TEMPLATE_URL } = {}) {
  const origin = new URL(parleyUrl).origin;
  return http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://example");
    if (request.method !== "GET" || (url.pathname !== "/" && url.pathname !== "/index.html")) {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found");
      return;
    }
    const language = url.searchParams.get("lang") ?? undefined;
    response.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-security-policy": exampleCsp(origin), "cache-control": "no-store" });
    response.end(examplePage(origin, { clientId: url.searchParams.get("client") || "demo", language }));
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === fs.realpathSync(process.argv[1])) {
  const port = Number(process.env.PORT || 8080);
  const server = createExampleServer();
  server.listen(port, () => {
    console.log(`Example host page on http://localhost:${port} (Parley at ${process.env.PARLEY_URL || TEMPLATE_URL}, strict CSP)`);
  });
}
