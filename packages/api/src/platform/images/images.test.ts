import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MidjourneyFake, type OpenAiImagesFake, startMidjourneyFake, startOpenAiImagesFake } from "../../testing/fakes/images";
import { createMidjourneyGenerator } from "./midjourney";
import { createOpenAiImageGenerator } from "./openai";
import { ImageError, type ImageStep } from "./types";

// Both image clients against local servers speaking OpenAI's images API and midjourney-proxy's REST API.
const KEY = "sk-img-0123456789";
const SECRET = "mj-secret-42";
let openai: OpenAiImagesFake;
let mj: MidjourneyFake;

beforeAll(async () => {
  openai = await startOpenAiImagesFake({ apiKey: KEY });
  mj = await startMidjourneyFake({ secret: SECRET });
});
afterAll(async () => {
  await openai.close();
  await mj.close();
});

const isPng = (bytes: Uint8Array) => Buffer.from(bytes.subarray(1, 4)).toString() === "PNG";

async function untilDone(generator: ReturnType<typeof createMidjourneyGenerator>, first: ImageStep) {
  const progress: number[] = [];
  let step = first;
  while (step.state === "running") {
    progress.push(step.progress);
    step = await generator.poll(step.providerTaskId);
  }
  return { step, progress };
}

describe("OpenAI images", () => {
  it("generates with the documented body and decodes b64_json PNGs", async () => {
    const generator = createOpenAiImageGenerator({ baseUrl: `${openai.url}/`, model: "dall-e-2", apiKey: KEY });
    const step = await generator.generate({ prompt: "a red kite", size: "512x512", count: 2 });
    expect(step.state).toBe("succeeded");
    if (step.state !== "succeeded") return;
    expect(step.images).toHaveLength(2);
    expect(step.images.every((image) => image.contentType === "image/png" && isPng(image.bytes))).toBe(true);
    expect(step.images[0]!.revisedPrompt).toBe("A detailed picture of a red kite");
    const sent = openai.requests.at(-1)!;
    expect(sent.credential).toBe(`Bearer ${KEY}`);
    expect(sent.body).toEqual({ model: "dall-e-2", prompt: "a red kite", n: 2, size: "512x512", response_format: "b64_json" });
  });

  it("asks DALL·E 3 one image per request", async () => {
    const before = openai.requests.length;
    const generator = createOpenAiImageGenerator({ baseUrl: openai.url, model: "dall-e-3", apiKey: KEY });
    const step = await generator.generate({ prompt: "a lighthouse", size: "1792x1024", count: 3 });
    expect(step.state === "succeeded" && step.images.length).toBe(3);
    const sent = openai.requests.slice(before);
    expect(sent.map((request) => request.body.n)).toEqual([1, 1, 1]);
    expect(generator.operations).toEqual([]);
  });

  it("uploads the PNG as multipart for a DALL·E 2 variation", async () => {
    const generator = createOpenAiImageGenerator({ baseUrl: openai.url, model: "dall-e-2", apiKey: KEY });
    const first = await generator.generate({ prompt: "a cat", size: "256x256", count: 1 });
    if (first.state !== "succeeded") throw new Error("not finished");
    const step = await generator.operate({ operation: "variation", index: 1, parent: { image: first.images[0]!.bytes }, size: "256x256" });
    expect(step.state === "succeeded" && isPng(step.images[0]!.bytes)).toBe(true);
    const sent = openai.requests.at(-1)!;
    expect(sent.path).toBe("/images/variations");
    expect(sent.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent.body).toMatchObject({ n: "1", size: "256x256", image: { png: true } });
  });

  it("reports a content policy refusal as rejected (410), a bad key as unavailable (503)", async () => {
    const generator = createOpenAiImageGenerator({ baseUrl: openai.url, model: "dall-e-3", apiKey: KEY });
    await expect(generator.generate({ prompt: "something forbidden", size: "1024x1024", count: 1 })).rejects.toMatchObject({ kind: "rejected", status: 400 });
    const wrongKey = createOpenAiImageGenerator({ baseUrl: openai.url, model: "dall-e-3", apiKey: "nope" });
    await expect(wrongKey.generate({ prompt: "ok", size: "1024x1024", count: 1 })).rejects.toMatchObject({ kind: "unavailable", status: 401 });
    const unreachable = createOpenAiImageGenerator({ baseUrl: "http://127.0.0.1:9", model: "dall-e-3" });
    await expect(unreachable.generate({ prompt: "ok", size: "1024x1024", count: 1 })).rejects.toMatchObject({ kind: "unavailable" });
    await expect(generator.operate({ operation: "upscale", index: 1, parent: {}, size: "1024x1024" })).rejects.toBeInstanceOf(ImageError);
  });
});

describe("midjourney-proxy", () => {
  it("submits imagine with the secret header, polls progress up to SUCCESS, downloads the PNG and reads the buttons", async () => {
    mj.setPollsToFinish(3);
    const generator = createMidjourneyGenerator({ baseUrl: mj.url, model: "midjourney", apiKey: SECRET });
    const submitted = await generator.generate({ prompt: "a castle in fog", size: "1792x1024", count: 1 });
    expect(submitted).toMatchObject({ state: "running", progress: 0 });
    expect(mj.requests.at(-1)).toMatchObject({ path: "/mj/submit/imagine", credential: SECRET, body: { prompt: "a castle in fog --ar 7:4" } });
    const { step, progress } = await untilDone(generator, submitted);
    expect(progress).toEqual([0, 25, 50, 75]);
    if (step.state !== "succeeded") throw new Error("not finished");
    expect(isPng(step.images[0]!.bytes)).toBe(true);
    expect(step.buttons!.map((button) => button.label)).toEqual(["U1", "U2", "U3", "U4", "", "V1", "V2", "V3", "V4"]);

    const upscale = await generator.operate({
      operation: "upscale",
      index: 2,
      parent: { providerTaskId: step.providerTaskId!, buttons: step.buttons! },
      size: "1024x1024",
    });
    expect(mj.requests.at(-1)).toMatchObject({
      path: "/mj/submit/action",
      body: { customId: `MJ::JOB::upsample::2::${step.providerTaskId}`, taskId: step.providerTaskId },
    });
    const upscaled = await untilDone(generator, upscale);
    expect(upscaled.step.state === "succeeded" && upscaled.step.buttons).toEqual([]);
  });

  it("maps refusals and failures to the §8 kinds", async () => {
    mj.setPollsToFinish(1);
    const generator = createMidjourneyGenerator({ baseUrl: mj.url, model: "midjourney", apiKey: SECRET });
    await expect(generator.generate({ prompt: "a banned word", size: "1024x1024", count: 1 })).rejects.toMatchObject({ kind: "rejected" });
    const exploding = await generator.generate({ prompt: "explode", size: "1024x1024", count: 1 });
    await expect(untilDone(generator, exploding)).rejects.toMatchObject({ kind: "failed" });
    const wrongSecret = createMidjourneyGenerator({ baseUrl: mj.url, model: "midjourney", apiKey: "nope" });
    await expect(wrongSecret.generate({ prompt: "x", size: "1024x1024", count: 1 })).rejects.toMatchObject({ kind: "unavailable", status: 401 });
    await expect(generator.operate({ operation: "upscale", index: 5, parent: { providerTaskId: "1", buttons: [] }, size: "1024x1024" })).rejects.toMatchObject({
      kind: "failed",
    });
  });
});
