import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bootstrap } from "../bootstrap";
import { createTestContext, type TestContext } from "../testing/harness";
import { widgetDistDir } from "./routes";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
  await bootstrap(ctx.deps);
});
afterAll(async () => ctx.close());

describe("widget files and the /web pages", () => {
  it("serves /widget.js from packages/widget/dist when built, else a 404 text; always cross-origin", async () => {
    const response = await ctx.request("/widget.js");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    if (fs.existsSync(path.join(widgetDistDir(), "widget.js"))) {
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/javascript; charset=utf-8");
      expect(response.headers.get("cache-control")).toBe("public, max-age=300");
    } else {
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toContain("text/plain");
    }
  });

  it("answers 404 for missing files and never leaves the dist folder", async () => {
    for (const url of ["/widget/missing-chunk.js", "/widget/..%2F..%2Fapi%2Fpackage.json", "/widget/%2e%2e/package.json"]) {
      const response = await ctx.request(url);
      expect(response.status, url).toBe(404);
      expect(await response.text(), url).not.toContain('"name"');
    }
  });

  it("serves the full-page and iframe chat pages under a strict CSP, and 404 for an unknown client", async () => {
    for (const [url, mode] of [
      ["/web/agent/demo", "page"],
      ["/web/iframe/demo", "iframe"],
    ] as const) {
      const response = await ctx.request(url);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-security-policy")).toBe("default-src 'self'; connect-src 'self'; img-src 'self' data: https:; style-src 'self'");
      const html = await response.text();
      expect(html).toContain(`<script src="/widget.js" data-client-id="demo" data-mode="${mode}"></script>`);
      expect(html.match(/<script/g)).toHaveLength(1);
    }
    const unknown = await ctx.request("/web/agent/nobody");
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-type")).toContain("text/html");
  });
});
