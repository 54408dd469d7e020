/**
 * The data dashboard, the customers list and a records export at scale: one space with
 * 1,000,000 usage records (spread over the last 180 days, 5 apps, 4 channels, 100,000 end
 * users) and 100,000 customers, generated into a fresh SQLite file made by the real migrations
 * (batched inserts in transactions, not through the API; the hourly rollup, question-word counts
 * and transfer records the writers keep are generated alongside). Then, through the real HTTP server in this
 * process:
 *
 *   npm run bench:dashboard [-- --records 1000000 --customers 100000 --samples 60]
 *
 * prints dashboard_p95_ms (GET /api/v1/analysis/dashboard over the last 30 days),
 * customers_filter_p95_ms (GET /api/v1/customers over a mix of filters: none, tags, channel,
 * client, time range, English and Chinese keywords, combinations, a later page), then
 * export_100k_s, export_peak_rss_mb and export_rss_growth_mb (POST
 * /api/v1/analysis/records/export of the newest 100,000 records as XLSX, read to the end).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { serve } from "@hono/node-server";
import type Database from "better-sqlite3";
import { wordCounts } from "../packages/api/src/analysis/service/words";
import { createApp } from "../packages/api/src/app";
import { loadConfig } from "../packages/api/src/config";
import { openDatabase } from "../packages/api/src/db/client";
import type { Deps } from "../packages/api/src/http/context";
import { createMemoryThrottle } from "../packages/api/src/http/throttle";
import { createUser } from "../packages/api/src/identity/service/accounts";
import { createApiKey } from "../packages/api/src/keys/service/keys";
import { createLogger } from "../packages/api/src/logger";
import { createProviders } from "../packages/api/src/platform/providers";

const { values } = parseArgs({
  options: {
    records: { type: "string", default: "1000000" },
    customers: { type: "string", default: "100000" },
    samples: { type: "string", default: "60" },
    keep: { type: "boolean", default: false },
  },
});
const RECORDS = Number(values.records);
const CUSTOMERS = Number(values.customers);
const SAMPLES = Number(values.samples);
const DAYS = 180;
const DAY_MS = 86_400_000;
const CHANNELS = ["web", "telegram", "wechat", "feishu"];

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-bench-dashboard-"));
const config = loadConfig({ PARLEY_DATA_DIR: dataDir, PARLEY_DATABASE_DRIVER: "better-sqlite3", PARLEY_LOG_LEVEL: "silent" });
const database = await openDatabase(config.database);
const { db } = database;
const logger = createLogger("silent");
const deps: Deps = { config, db, logger, ...createProviders(config, db, logger), throttle: createMemoryThrottle(), now: () => new Date() };
const sqlite = (db as unknown as { $client: Database.Database }).$client;

const owner = await createUser(deps, { name: "bench", email: "bench-dashboard@example.com" });
const spaceId = owner.personalSpaceId;
const key = "pk_bench_dashboard_owner_key_0123456789abcdef";
await createApiKey(deps, owner.id, { name: "bench", value: key });

const app = createApp(deps);
const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
  const instance = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(instance));
});
const address = server.address();
const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
const call = async (url: string, init: RequestInit = {}): Promise<Response> => {
  const send = () =>
    fetch(`${base}${url}`, { ...init, headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...(init.headers ?? {}) } });
  // A kept-alive socket the server closed while the data was being generated: once more.
  return send().catch(() => send());
};

const appIds: string[] = [];
for (let index = 0; index < 5; index++) {
  const response = await call("/api/v1/apps", {
    method: "POST",
    body: JSON.stringify({
      name: `Bench app ${index}`,
      description: "Benchmark",
      openingIntroduction: "Hello! Ask me anything.",
      avatarUrl: "https://cdn.example.com/a.png",
      category: "customer_service",
      settingsPrompt: "You help.",
    }),
  });
  if (response.status !== 201) throw new Error(`app: ${response.status} ${await response.text()}`);
  appIds.push(((await response.json()) as { data: { id: string } }).data.id);
}

// A deterministic generator (mulberry32), so runs are comparable.
let seed = 42;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let value = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
  return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
};
const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;

const QUESTIONS = [
  "Where is my order? It has not arrived yet",
  "How do I get a refund for a damaged parcel",
  "What are your opening hours on Sunday",
  "Can I change the delivery address of my order",
  "My invoice shows the wrong company name",
  "How long does shipping to Germany take",
  "我想查询订单的物流信息",
  "退货流程是什么，需要多久退款",
  "发票抬头开错了怎么修改",
  "会员积分可以兑换什么礼品",
  "客服电话是多少，周末上班吗",
  "快递一直没有更新物流状态",
];
const NAMES = ["Alice", "Bob", "Chen Wei", "李雷", "韩梅梅", "Dmitri", "Fatima", "Kenji", "María", "王芳"];
const COMPANIES = ["Acme", "Globex", "Initech", "腾飞科技", "Umbrella", ""];

let started = performance.now();
const REMARKS = ["VIP since 2023", "老客户，喜欢电话联系", "asked for an invoice", "", "", "", "", ""];
const insertCustomer = sqlite.prepare(
  "INSERT INTO customers (id, space_id, channel, client_id, external_id, nickname, company, remark, wechat, created_at, last_conversation_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
);
// Tags: a common one (about 30% of the customers), a middling one (5%) and a rare one (0.5%).
const TAGS = [
  { id: "tag_bench_common", share: 0.3 },
  { id: "tag_bench_middle", share: 0.05 },
  { id: "tag_bench_rare", share: 0.005 },
];
const insertTagged = sqlite.prepare("INSERT INTO customer_tags (customer_id, tag_id, space_id, source) VALUES (?, ?, ?, 'manual')");
const now = Date.now();
sqlite.transaction(() => {
  sqlite.prepare("INSERT INTO tag_groups (id, space_id, name, updated_at) VALUES (?, ?, ?, ?)").run("tgp_bench", spaceId, "Bench", new Date(now).toISOString());
  for (const tag of TAGS)
    sqlite
      .prepare("INSERT INTO tags (id, space_id, group_id, name, updated_at) VALUES (?, ?, ?, ?, ?)")
      .run(tag.id, spaceId, "tgp_bench", tag.id, new Date(now).toISOString());
  for (let index = 0; index < CUSTOMERS; index++) {
    const channel = CHANNELS[index % CHANNELS.length]!;
    const at = new Date(now - Math.floor(random() * DAYS * DAY_MS)).toISOString();
    const wechat = random() < 0.3 ? `wx_${index}` : "";
    // The customers' keyword index is written by the table's triggers (migration 0022), as in production.
    insertCustomer.run(
      `cus_${index}`,
      spaceId,
      channel,
      `cli_${channel}`,
      `u${index}`,
      `${pick(NAMES)} ${index}`,
      pick(COMPANIES),
      pick(REMARKS),
      wechat,
      at,
      at,
    );
    for (const tag of TAGS) if (random() < tag.share) insertTagged.run(`cus_${index}`, tag.id, spaceId);
  }
})();
console.error(`customers: ${CUSTOMERS} in ${Math.round(performance.now() - started)} ms`);

started = performance.now();
const insertRecord = sqlite.prepare(
  "INSERT INTO usage_records (id, space_id, app_id, conversation_id, end_user_id, channel, prompt, answer, model, prompt_tokens, completion_tokens, credits, knowledge_hit_count, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
);
const wordsPerQuestion = QUESTIONS.map((question) => wordCounts(question));
const words = new Map<string, number>();
// What the usage-record writer keeps for the dashboard: the rollup per UTC hour, app and channel.
const hourly = new Map<string, { records: number; credits: number; notHit: number; users: Set<number> }>();
const BATCH = 50_000;
for (let done = 0; done < RECORDS; done += BATCH) {
  sqlite.transaction(() => {
    for (let index = done; index < Math.min(RECORDS, done + BATCH); index++) {
      const appIndex = Math.floor(random() * appIds.length);
      const channel = pick(CHANNELS);
      const user = Math.floor(random() * CUSTOMERS);
      const question = Math.floor(random() * QUESTIONS.length);
      const at = new Date(now - Math.floor(random() * DAYS * DAY_MS)).toISOString();
      const hits = random() < 0.2 ? null : Math.floor(random() * 4);
      const credits = 1 + Math.floor(random() * 20);
      insertRecord.run(
        `use_${String(index).padStart(8, "0")}`,
        spaceId,
        appIds[appIndex]!,
        `cnv_${user}`,
        `u${user}`,
        channel,
        QUESTIONS[question]!,
        "A helpful answer that is about as long as a typical answer of a support bot, give or take.",
        index % 10 === 0 ? "plugin:weather" : "gpt-4o-mini",
        120,
        60,
        credits,
        hits,
        at,
      );
      const rollKey = `${at.slice(0, 13)}\u0000${appIds[appIndex]}\u0000${channel}`;
      const roll = hourly.get(rollKey) ?? hourly.set(rollKey, { records: 0, credits: 0, notHit: 0, users: new Set() }).get(rollKey)!;
      roll.records++;
      roll.credits += credits;
      if (hits === 0) roll.notHit++;
      roll.users.add(user + 1);
      for (const [word, count] of wordsPerQuestion[question]!) {
        const key = `${at.slice(0, 10)}\u0000${appIds[appIndex]}\u0000${channel}\u0000${word}`;
        words.set(key, (words.get(key) ?? 0) + count);
      }
    }
  })();
}
const insertWord = sqlite.prepare("INSERT INTO usage_words (space_id, day, app_id, channel, word, count) VALUES (?, ?, ?, ?, ?, ?)");
sqlite.transaction(() => {
  for (const [key, count] of words) {
    const [day, appId, channel, word] = key.split("\u0000");
    insertWord.run(spaceId, day, appId, channel, word, count);
  }
})();
const insertEndUser = sqlite.prepare("INSERT INTO usage_end_users (space_id, end_user_id, seq) VALUES (?, ?, ?)");
const insertHourly = sqlite.prepare(
  "INSERT INTO usage_hourly (space_id, hour, app_id, channel, records, credits, not_hit, users) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
);
sqlite.transaction(() => {
  for (let index = 0; index < CUSTOMERS; index++) insertEndUser.run(spaceId, `u${index}`, index + 1);
  for (const [key, roll] of hourly) {
    const [hour, appId, channel] = key.split("\u0000");
    insertHourly.run(spaceId, hour, appId, channel, roll.records, roll.credits, roll.notHit, [...roll.users].map((seq) => seq.toString(16)).join(","));
  }
})();
const insertTransfer = sqlite.prepare(
  "INSERT INTO conversation_transfers (id, space_id, app_id, conversation_id, channel, end_user_id, reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
);
sqlite.transaction(() => {
  for (let index = 0; index < RECORDS / 50; index++) {
    const user = Math.floor(random() * CUSTOMERS);
    insertTransfer.run(
      `trf_${index}`,
      spaceId,
      pick(appIds),
      `cnv_${user}`,
      pick(CHANNELS),
      `u${user}`,
      "no-hit",
      new Date(now - Math.floor(random() * DAYS * DAY_MS)).toISOString(),
    );
  }
})();
sqlite.exec("ANALYZE");
console.error(`records: ${RECORDS}, word rows: ${words.size}, in ${Math.round(performance.now() - started)} ms; data in ${dataDir}`);

function p95(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]!;
}

async function timed(url: string, count: number, check: (body: unknown) => void): Promise<number[]> {
  const samples: number[] = [];
  for (let index = 0; index < count + 5; index++) {
    const start = performance.now();
    const response = await call(url);
    const body = await response.json();
    const elapsed = performance.now() - start;
    if (response.status !== 200) throw new Error(`${url}: ${response.status} ${JSON.stringify(body)}`);
    check(body);
    if (index >= 5) samples.push(elapsed);
  }
  return samples;
}

const from = new Date(now - 30 * DAY_MS).toISOString();
const to = new Date(now + 60_000).toISOString();
let records = 0;
// Days counted in a zone 8 hours off UTC, as a console in China asks.
const dashboard = await timed(`/api/v1/analysis/dashboard?from=${from}&to=${to}&timeZone=Asia/Shanghai`, SAMPLES, (body) => {
  records = (body as { data: { totals: { records: number } } }).data.totals.records;
});
console.error(`dashboard over 30 days: ${records} records`);
console.log(`dashboard_p95_ms=${p95(dashboard).toFixed(1)}`);
console.log(`dashboard_p50_ms=${[...dashboard].sort((a, b) => a - b)[Math.floor(dashboard.length / 2)]!.toFixed(1)}`);

// The customers list under a mix of filters an operator uses, 50 a page; the p95 is over all of them.
const day = (days: number) => new Date(now - days * DAY_MS).toISOString();
const q = (params: Record<string, string>) => `/api/v1/customers?${new URLSearchParams({ limit: "50", ...params })}`;
let deepCursor = "";
for (let page = 0, cursor = ""; page < 20; page++) {
  const body = (await (await call(q(cursor ? { cursor } : {}))).json()) as { data: { nextCursor: string } };
  cursor = deepCursor = body.data.nextCursor;
}
const FILTERS: Record<string, Record<string, string>> = {
  none: {},
  tag_common: { tagIds: "tag_bench_common" },
  tag_rare: { tagIds: "tag_bench_rare" },
  channel: { channel: "telegram" },
  client: { clientId: "cli_wechat" },
  time_range: { from: day(40), to: day(30) },
  keyword_en_nickname: { keyword: "Chen" },
  keyword_en_rare: { keyword: "Dmitri 4242" },
  keyword_zh_nickname: { keyword: "韩梅梅" },
  keyword_zh_1char: { keyword: "李" },
  keyword_zh_company: { keyword: "腾飞" },
  keyword_en_company: { keyword: "Globex" },
  keyword_zh_remark: { keyword: "电话" },
  keyword_wechat: { keyword: "wx_77777" },
  keyword_digits_2char: { keyword: "42" },
  combined: { keyword: "Chen", channel: "telegram", from: day(90), to: day(0) },
  combined_tag: { tagIds: "tag_bench_middle,tag_bench_rare", keyword: "王芳", clientId: "cli_web" },
  page_21_cursor: { cursor: deepCursor },
};
const customers: number[] = [];
for (const [name, params] of Object.entries(FILTERS)) {
  let found = 0;
  const samples = await timed(q(params), Math.ceil(SAMPLES / 2), (body) => {
    found = (body as { data: { items: unknown[] } }).data.items.length;
  });
  console.error(`customers ${name}: ${found} on the page, p95 ${p95(samples).toFixed(1)} ms`);
  customers.push(...samples);
}
console.log(`customers_filter_p95_ms=${p95(customers).toFixed(1)}`);
console.log(`customers_filter_p50_ms=${[...customers].sort((a, b) => a - b)[Math.floor(customers.length / 2)]!.toFixed(1)}`);

// The newest 100,000 records: `from` is the 100,000th newest record's time.
const cut = sqlite.prepare("SELECT created_at FROM usage_records WHERE space_id = ? ORDER BY created_at DESC LIMIT 1 OFFSET 99999").get(spaceId) as {
  created_at: string;
};
global.gc?.();
const rssBefore = process.memoryUsage().rss;
let peak = rssBefore;
const probe = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 20);
const exportStart = performance.now();
const response = await call("/api/v1/analysis/records/export", {
  method: "POST",
  body: JSON.stringify({ filters: { from: cut.created_at, to }, format: "xlsx" }),
});
if (response.status !== 200) throw new Error(`export: ${response.status} ${await response.text()}`);
let bytes = 0;
for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
  bytes += chunk.length;
  peak = Math.max(peak, process.memoryUsage().rss);
}
const exportSeconds = (performance.now() - exportStart) / 1000;
clearInterval(probe);
console.error(`export: ${(bytes / 1024 / 1024).toFixed(1)} MiB of XLSX`);
console.log(`export_100k_s=${exportSeconds.toFixed(2)}`);
console.log(`export_peak_rss_mb=${(peak / 1024 / 1024).toFixed(0)}`);
console.log(`export_rss_growth_mb=${((peak - rssBefore) / 1024 / 1024).toFixed(0)}`);

server.close();
await deps.knowledge.close();
await database.close();
if (!values.keep) fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
