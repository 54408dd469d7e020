import http from "node:http";
import type { AddressInfo } from "node:net";
import { createClient } from "@parley/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { i18n } from "../i18n";
import { call, type client } from "./api/request";
import { type UpgradeDetail, upgradePrompt, upgradeTextKeys } from "./upgrade";

// A local server answering envelopes exactly as the API does; the console's real SDK client reads them.
const answers: Record<string, { status: number; body: unknown }> = {
  "/api/v1/plans": {
    status: 402,
    body: {
      success: false,
      code: 701,
      message: "The Free plan allows up to 5 apps; upgrade your plan to add more",
      data: { quota: "apps", limit: 5, plan: "free" },
    },
  },
  "/api/v1/plans/current": {
    status: 402,
    body: {
      success: false,
      code: 701,
      message: "Manual transfer in the web embed is not included in the Pro plan",
      data: { feature: "manualTransfer", plan: "pro" },
    },
  },
  "/api/v1/me": { status: 404, body: { success: false, code: 404, message: "Not found", data: null } },
};
let server: http.Server;
let sdk: typeof client;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const answer = answers[request.url ?? ""]!;
    response.writeHead(answer.status, { "content-type": "application/json" });
    response.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  sdk = createClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function shown(send: () => Promise<unknown>): Promise<UpgradeDetail[]> {
  const seen: UpgradeDetail[] = [];
  const stop = upgradePrompt.subscribe((detail) => seen.push(detail));
  return send().then(() => {
    stop();
    return seen;
  });
}

function dialogText(detail: UpgradeDetail, language: string) {
  const t = i18n.getFixedT(language);
  const keys = upgradeTextKeys(detail);
  const params = Object.fromEntries(Object.entries(keys.whatParams).map(([name, value]) => [name, typeof value === "string" ? t(value) : value]));
  return { what: t(keys.what, params), plan: keys.plan ? t("upgrade.currentPlan", { plan: t(keys.plan) }) : undefined };
}

describe("a 701 answer", () => {
  it("opens the upgrade dialog with the quota, its limit and the plan, even for a silent call", async () => {
    const seen = await shown(() => call({ public: true, silent: true }, (init) => sdk.GET("/api/v1/plans", init)));
    expect(seen).toEqual([{ message: "The Free plan allows up to 5 apps; upgrade your plan to add more", quota: "apps", limit: 5, plan: "free" }]);
    expect(dialogText(seen[0]!, "en")).toEqual({ what: "You have reached the limit of 5 for Apps.", plan: "Current plan: Free" });
    expect(dialogText(seen[0]!, "zh-CN")).toEqual({ what: "应用数已达上限 5。", plan: "当前套餐：免费版" });
  });

  it("names a gated feature", async () => {
    const seen = await shown(() => call({ public: true }, (init) => sdk.GET("/api/v1/plans/current", init)));
    expect(seen).toHaveLength(1);
    expect(dialogText(seen[0]!, "en")).toEqual({ what: "Manual transfer in the web embed is not included in your plan.", plan: "Current plan: Pro" });
    expect(dialogText(seen[0]!, "zh-CN").what).toBe("当前套餐不包含网页嵌入的转人工。");
  });

  it("is the only code that opens it", async () => {
    const seen = await shown(() => call({ public: true, silent: true }, (init) => sdk.GET("/api/v1/me", init)));
    expect(seen).toEqual([]);
  });
});
