import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MidjourneyFake, startMidjourneyFake } from "../../packages/api/src/testing/fakes/images";
import { launchBrowser } from "./browser";
import { type ParleyProcess, startParley } from "./parley-process";

// /paint in Chromium against a real server whose image model is a local midjourney-proxy: the
// offline notice, then generate → the gallery shows progress, then the picture → U1 → the upscale.
const ownerKey = "pk_paint_e2e_owner_key_0123456789";
const MJ_SECRET = "mj-paint-secret-0123456789";

let parley: ParleyProcess;
let browser: Browser;
let page: Page;
let mj: MidjourneyFake;

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${parley.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${ownerKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const envelope = (await response.json()) as { success: boolean; data: T; message: string };
  if (!envelope.success) throw new Error(`${method} ${path}: ${envelope.message}`);
  return envelope.data;
}

beforeAll(async () => {
  mj = await startMidjourneyFake({ secret: MJ_SECRET });
  [parley, browser] = await Promise.all([
    startParley({ PARLEY_BOOTSTRAP_API_KEY: ownerKey, PARLEY_SEED_DEMO: "false", PARLEY_PLUGINS_ALLOWED_HOSTS: new URL(mj.url).host }),
    launchBrowser(),
  ]);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  page = await context.newPage();
  page.setDefaultTimeout(20_000);
});
afterAll(async () => {
  await browser?.close();
  await parley?.stop();
  await mj?.close();
});

const byTestId = (id: string) => page.locator(`[data-testid="${id}"]`);

describe("/paint in Chromium: generate → progress → pictures → upscale", () => {
  it("shows a guest the page with a sign-in prompt and nothing to press", async () => {
    await page.goto(`${parley.url}/paint`);
    await expect.poll(() => byTestId("paint-sign-in").innerText()).toContain("Sign in to draw");
    expect(await byTestId("paint-generate").isDisabled()).toBe(true);
  });

  it("says which provider to configure, and where, while no image model exists", async () => {
    await page.goto(parley.signInUrl!);
    await page.waitForURL(/\/console\/agents$/);
    await page.goto(`${parley.url}/paint`);
    await expect.poll(() => byTestId("paint-offline").innerText()).toContain("API access → Models");
    expect(await byTestId("paint-generate").isDisabled()).toBe(true);
  });

  it("generates: the gallery shows the task drawing with progress, then its picture and buttons", async () => {
    await api("POST", "/api/v1/model-providers", {
      kind: "openai-compatible",
      name: "Midjourney proxy",
      baseUrl: mj.url,
      apiKey: MJ_SECRET,
      models: [],
      imageModels: ["midjourney"],
      imageFormat: "midjourney",
    });
    mj.setPollsToFinish(4);
    await page.reload();
    await expect.poll(() => byTestId("paint-generate").isDisabled()).toBe(false);
    expect(await byTestId("paint-offline").count()).toBe(0);
    await byTestId("paint-prompt").fill("a castle in the fog at dawn");
    await byTestId("paint-generate").click();
    const task = byTestId("paint-task").first();
    await expect.poll(() => task.getAttribute("data-status"), { timeout: 20_000 }).toBe("running");
    await expect.poll(() => task.locator('[data-testid="paint-task-progress"]').count()).toBe(1);
    await expect.poll(() => task.getAttribute("data-status"), { timeout: 30_000 }).toBe("succeeded");
    await expect.poll(() => task.locator("img").evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth), { timeout: 20_000 }).toBe(16);
    expect(await task.locator('[data-testid^="paint-action-"]').allInnerTexts()).toEqual(["U1", "U2", "U3", "U4", "V1", "V2", "V3", "V4"]);
    expect(mj.requests.find((request) => request.path === "/mj/submit/imagine")?.body).toEqual({ prompt: "a castle in the fog at dawn" });
  });

  it("upscales one quarter: a new task appears and its picture follows", async () => {
    mj.setPollsToFinish(2);
    await byTestId("paint-task").first().locator('[data-testid="paint-action-U1"]').click();
    await expect.poll(() => byTestId("paint-task").count()).toBe(2);
    const upscale = byTestId("paint-task").first();
    await expect.poll(() => upscale.innerText()).toContain("Upscale of 1");
    await expect.poll(() => upscale.getAttribute("data-status"), { timeout: 30_000 }).toBe("succeeded");
    await expect.poll(() => upscale.locator("img").evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth), { timeout: 20_000 }).toBe(8);
    expect(mj.requests.find((request) => request.path === "/mj/submit/action")?.body).toMatchObject({
      customId: expect.stringMatching(/^MJ::JOB::upsample::1::/),
    });
  });

  it("shows the §8 warning when a second task is asked for while one runs (511)", async () => {
    mj.setPollsToFinish(50);
    await byTestId("paint-prompt").fill("a slow one");
    await byTestId("paint-generate").click();
    await expect.poll(() => byTestId("paint-task").first().getAttribute("data-status")).toMatch(/queued|running/);
    await byTestId("paint-prompt").fill("one more");
    await byTestId("paint-generate").click();
    await expect.poll(() => page.locator(".ant-message").innerText()).toContain("Please wait for the current task to complete");
  });
});
