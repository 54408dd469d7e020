import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { evaluateExpression, formatNumber } from "./service/builtins/calculator";
import { checkTimeZone, timeIn } from "./service/builtins/current-time";
import { htmlToText } from "./service/builtins/html-text";
import { findBuiltin, runBuiltin } from "./service/builtins/index";
import { type FakeServer, startFakeServer } from "./testing";

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");

describe("calculator", () => {
  const cases: Array<[string, string]> = [
    ["1 + 2 * 3", "7"],
    ["(1 + 2) * 3", "9"],
    ["2 ^ 3 ^ 2", "512"],
    ["-2 ^ 2", "-4"],
    ["(-2) ^ 2", "4"],
    ["10 % 4 + 7 / 2", "5.5"],
    ["0.1 + 0.2", "0.3"],
    ["sqrt(16) + abs(-3)", "7"],
    ["round(3.14159, 2)", "3.14"],
    ["round(2.5)", "3"],
    ["min(4, 2, 8) + max(1, 9)", "11"],
    ["log(e)", "1"],
    ["log(8, 2)", "3"],
    ["sin(pi / 2) + cos(0)", "2"],
    ["2 * pi", "6.28318530717959"],
    ["1.5e3 + .5", "1500.5"],
    ["--3", "3"],
    ["  12 × 3 ÷ 4 ", "9"],
    ["PI", "3.14159265358979"],
  ];
  for (const [expression, expected] of cases) {
    it(`${expression} = ${expected}`, () => {
      expect(formatNumber(evaluateExpression(expression))).toBe(expected);
    });
  }

  const refused: Array<[string, RegExp]> = [
    ["", /empty/],
    ["1 / 0", /division by zero/],
    ["5 % 0", /division by zero/],
    ["sqrt(-1)", /not a finite number/],
    ["10 ^ 400", /not a finite number/],
    ["1 +", /ends too early/],
    ["(1 + 2", /expected "\)"/],
    ["1 + 2)", /unexpected "\)"/],
    ["2 3", /unexpected "3"/],
    ["foo(1)", /unknown name "foo"/],
    ["max()", /unexpected "\)"/],
    ["sqrt(1, 2)", /sqrt\(\) takes 1 argument/],
    ["round(1.5, 99)", /0 to 15 digits/],
    // Code is text to the parser, never something to run.
    ["process.exit(1)", /unexpected character "\."/],
    ["constructor.constructor('return process')()", /unexpected character/],
    ["__proto__", /unknown name "__proto__"/],
    ["constructor(1)", /unknown name "constructor"/],
    ["hasOwnProperty", /unknown name "hasownproperty"/],
    ["toString(1)", /unknown name "tostring"/],
    ["1; require('fs')", /unexpected character ";"/],
    ["`whoami`", /unexpected character "`"/],
    [`${"(".repeat(200)}1${")".repeat(200)}`, /nested too deeply/],
    [`${"-".repeat(500)}1`, /nested too deeply/],
    [`${"1+".repeat(600)}1`, /longer than 1000 characters/],
  ];
  for (const [expression, message] of refused) {
    it(`refuses ${expression.slice(0, 40)}`, () => {
      expect(() => evaluateExpression(expression)).toThrow(message);
    });
  }

  it("answers the model with text, never throwing", async () => {
    const calculator = findBuiltin("calculator")!;
    const context = { config: loadConfig({}).plugins, now: () => new Date() };
    expect(await runBuiltin(calculator, context, { expression: "6 * 7" })).toEqual({ ok: true, content: "6 * 7 = 42" });
    expect(await runBuiltin(calculator, context, { expression: "1/0" })).toEqual({
      ok: false,
      content: "The expression could not be computed: division by zero",
    });
  });
});

describe("current time", () => {
  const at = new Date("2026-07-01T12:34:56.789Z");
  it("tells the time in IANA time zones, with daylight saving", () => {
    expect(timeIn(at, "Asia/Shanghai")).toEqual({
      timezone: "Asia/Shanghai",
      iso: "2026-07-01T20:34:56+08:00",
      date: "2026-07-01",
      time: "20:34:56",
      weekday: "Wednesday",
      utcOffset: "+08:00",
      unixSeconds: Math.floor(at.getTime() / 1000),
    });
    expect(timeIn(at, "America/New_York")).toMatchObject({ iso: "2026-07-01T08:34:56-04:00", utcOffset: "-04:00" });
    expect(timeIn(new Date("2026-01-15T12:00:00Z"), "America/New_York").utcOffset).toBe("-05:00");
    expect(timeIn(at, "Asia/Kolkata").utcOffset).toBe("+05:30");
    expect(timeIn(at, "UTC")).toMatchObject({ iso: "2026-07-01T12:34:56+00:00" });
    expect(timeIn(new Date("2026-07-01T23:30:00Z"), "Pacific/Auckland")).toMatchObject({ date: "2026-07-02", weekday: "Thursday" });
    expect(checkTimeZone("europe/paris")).toBe("Europe/Paris");
  });

  it("refuses names that are not IANA time zones", () => {
    for (const bad of ["Mars/Olympus_Mons", "Beijing", "+08:00", "GMT+8", "", "../../etc/passwd"]) {
      expect(() => checkTimeZone(bad), bad).toThrow(/IANA/);
    }
  });

  it("runs as a built-in with the clock it is given, UTC by default", async () => {
    const plugin = findBuiltin("current_time")!;
    const context = { config: loadConfig({}).plugins, now: () => at };
    const defaulted = await runBuiltin(plugin, context, {});
    expect(defaulted.ok).toBe(true);
    expect(JSON.parse(defaulted.content)).toMatchObject({ timezone: "UTC", time: "12:34:56" });
    expect(await runBuiltin(plugin, context, { timezone: "Nowhere/City" })).toMatchObject({
      ok: false,
      content: expect.stringMatching(/unknown time zone "Nowhere\/City"/),
    });
  });
});

describe("HTML to text", () => {
  it("keeps the readable text and drops scripts, styles, comments and tags", () => {
    const html = `<!DOCTYPE html><html><head><title>Fish &amp; Chips</title><style>body{color:red}</style>
      <script>window.secret = "<p>not text</p>";</script></head>
      <body><nav>Home | About</nav><!-- a <b>hidden</b> comment -->
      <h1>Best&nbsp;fish</h1><p>Crispy <b>batter</b>, &quot;fresh&quot; cod &#8212; &#x4e2d;文.</p>
      <ul><li>Salt</li><li>Vinegar</li></ul>
      <table><tr><th>Size</th><th>Price</th></tr><tr><td>Large</td><td>£9</td></tr></table>
      <noscript>Enable JS</noscript><svg><text>icon</text></svg>
      <p>a &lt; b &gt; c</p><SCRIPT type="module">alert(1)</SCRIPT></body></html>`;
    const { title, text } = htmlToText(html);
    expect(title).toBe("Fish & Chips");
    expect(text).toBe(
      ["Home | About", "Best fish", 'Crispy batter, "fresh" cod — 中文.', "- Salt", "- Vinegar", "Size | Price", "Large | £9", "a < b > c"].join("\n"),
    );
    expect(text).not.toMatch(/secret|not text|color|hidden|Enable JS|icon|alert/);
  });

  it("stays linear on hostile markup", () => {
    const started = performance.now();
    htmlToText("<a ".repeat(100_000));
    htmlToText("<script>".repeat(50_000));
    htmlToText("<!--".repeat(50_000));
    htmlToText('<a title="'.repeat(50_000));
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe("fetch_webpage and web_search against local servers", () => {
  let site: FakeServer;
  let searxng: FakeServer;
  beforeAll(async () => {
    site = await startFakeServer((request, response) => {
      if (request.url === "/article") {
        response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        response.end(
          `<html><head><title>Release notes</title><script>track()</script></head><body><article><h2>Version 3.4</h2><p>${"Faster answers. ".repeat(40)}</p></article></body></html>`,
        );
      } else if (request.url === "/gbk") {
        response.writeHead(200, { "content-type": "text/html; charset=gbk" });
        response.end(Buffer.from([0x3c, 0x70, 0x3e, 0xc4, 0xe3, 0xba, 0xc3, 0x3c, 0x2f, 0x70, 0x3e]));
      } else if (request.url === "/image") {
        response.writeHead(200, { "content-type": "image/png" });
        response.end(Buffer.alloc(10));
      } else {
        response.writeHead(404, { "content-type": "text/plain" });
        response.end("missing");
      }
    });
    searxng = await startFakeServer((request, response) => {
      const url = new URL(request.url, "http://x");
      if (url.pathname !== "/search" || url.searchParams.get("format") !== "json") {
        response.writeHead(403);
        response.end();
        return;
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.end(fs.readFileSync(path.join(fixtures, "searxng-search.json")));
    });
  });
  afterAll(async () => {
    await site.close();
    await searxng.close();
  });

  const context = (env: Record<string, string> = {}) => ({
    config: loadConfig({ PARLEY_PLUGINS_ALLOW_PRIVATE_NETWORK: "true", PARLEY_PLUGINS_ALLOWED_HOSTS: "127.0.0.1", ...env }).plugins,
    now: () => new Date(),
  });

  it("fetch_webpage returns the title and text, cut at max_characters", async () => {
    const plugin = findBuiltin("fetch_webpage")!;
    const full = await runBuiltin(plugin, context(), { url: `${site.url}/article` });
    expect(full.ok).toBe(true);
    expect(full.content).toMatch(/^Title: Release notes\nURL: http:\/\/127\.0\.0\.1:\d+\/article\n\nVersion 3\.4\nFaster answers\./);
    expect(full.content).not.toMatch(/track/);
    const cut = await runBuiltin(plugin, context(), { url: `${site.url}/article`, max_characters: 100 });
    expect(cut.content).toMatch(/\n\n\[truncated: the page is longer than 100 characters/);
    expect(cut.content.split("\n\n")[1]).toHaveLength(100);
  });

  it("fetch_webpage decodes other charsets and refuses binaries, errors and bad addresses", async () => {
    const plugin = findBuiltin("fetch_webpage")!;
    expect((await runBuiltin(plugin, context(), { url: `${site.url}/gbk` })).content).toMatch(/你好$/);
    expect(await runBuiltin(plugin, context(), { url: `${site.url}/image` })).toMatchObject({
      ok: false,
      content: expect.stringMatching(/not a text page \(content type image\/png\)/),
    });
    expect(await runBuiltin(plugin, context(), { url: `${site.url}/gone` })).toMatchObject({ ok: false, content: expect.stringMatching(/answered HTTP 404/) });
    expect(await runBuiltin(plugin, context(), { url: "not a url" })).toMatchObject({ ok: false, content: expect.stringMatching(/not a valid URL/) });
  });

  it("web_search reads a SearXNG JSON answer", async () => {
    const plugin = findBuiltin("web_search")!;
    const result = await runBuiltin(plugin, context({ PARLEY_WEB_SEARCH_URL: `${searxng.url}/`, PARLEY_WEB_SEARCH_API_KEY: "search-key" }), {
      query: "parley agent platform",
      count: 2,
    });
    expect(result.ok).toBe(true);
    expect(result.content).toBe(
      [
        'Search results for "parley agent platform":',
        "",
        "1. Parley — open AI agent platform",
        "   https://example.org/parley",
        "   Build chat apps, workflows and knowledge bases, and connect them to channels.",
        "",
        "2. Agents in 2026",
        "   https://news.example.com/2026/agents",
        "   Published: 2026-02-01T00:00:00",
        "   A survey of agent platforms.",
      ].join("\n"),
    );
    const sent = searxng.requests.at(-1)!;
    expect(sent.url).toBe("/search?q=parley+agent+platform&format=json");
    expect(sent.headers.authorization).toBe("Bearer search-key");
  });

  it("web_search reaches the owner's own SearXNG even when plugins may not reach private addresses", async () => {
    const plugin = findBuiltin("web_search")!;
    const result = await runBuiltin(plugin, { config: loadConfig({ PARLEY_WEB_SEARCH_URL: searxng.url }).plugins, now: () => new Date() }, { query: "x" });
    expect(result.ok).toBe(true);
  });

  it("web_search says plainly when it is not configured, or when the provider fails", async () => {
    const plugin = findBuiltin("web_search")!;
    expect(await runBuiltin(plugin, context(), { query: "anything" })).toEqual({
      ok: false,
      content: "Web search is not configured on this Parley server, so no search was made. (The owner can set PARLEY_WEB_SEARCH_URL to a SearXNG instance.)",
    });
    const wrong = await runBuiltin(plugin, context({ PARLEY_WEB_SEARCH_URL: `${site.url}/nothing-here` }), { query: "anything" });
    expect(wrong).toMatchObject({ ok: false, content: expect.stringMatching(/answered HTTP 404/) });
  });
});
