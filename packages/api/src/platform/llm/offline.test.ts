import { describe, expect, it } from "vitest";
import { composeOfflineAnswer, createOfflineProvider, MODELS_PAGE_PATH, OFFLINE_MODEL_ID, offlineNoModelText, wordDeltas } from "./offline";
import { estimateTokens } from "./tokens";
import { ModelError, type ModelRequest, type ModelStreamPart } from "./types";

async function collect(request: ModelRequest) {
  const parts: ModelStreamPart[] = [];
  for await (const part of createOfflineProvider().stream(request)) parts.push(part);
  const text = parts.flatMap((part) => (part.type === "text-delta" ? [part.text] : [])).join("");
  const finish = parts.at(-1);
  if (finish?.type !== "finish") throw new Error("no finish part");
  return { parts, text, finish };
}

const question = (content: string): ModelRequest => ({ model: OFFLINE_MODEL_ID, messages: [{ role: "user", content }] });

describe("offline responder", () => {
  it("is listed as the offline model, without tools", () => {
    const [info] = createOfflineProvider().models();
    expect(info).toMatchObject({ id: "parley-offline", providerKind: "offline", offline: true, supportsTools: false });
    expect(info!.label).toMatch(/offline/i);
  });

  it("says in English that no model is set up, linking the console's API access → Models page", async () => {
    const { text, finish, parts } = await collect(question("What are your opening hours?"));
    expect(text).toBe(
      "No language model is set up for this app yet, so I cannot answer this question. The owner can add one in the Parley console under [API access → Models](/console/Integrations?tab=models).",
    );
    expect(parts.length).toBeGreaterThan(10);
    expect(finish).toMatchObject({ reason: "stop", usage: { completionTokens: estimateTokens(text) } });
    expect(finish.usage.promptTokens).toBe(4 + estimateTokens("What are your opening hours?"));
  });

  it("says it in Chinese for zh-CN", async () => {
    const { text, parts } = await collect({ ...question("营业时间？"), language: "zh-CN" });
    expect(text).toBe(
      "这个应用还没有可用的语言模型，暂时无法回答这个问题。所有者可以在 Parley 控制台的“[API 接入 → 模型](/console/Integrations?tab=models)”中添加。",
    );
    // Chinese streams about one character per delta.
    expect(parts.length).toBeGreaterThan(40);
  });

  it("answers from the best knowledge hit first, quoting it and naming its source", async () => {
    const { text } = await collect({
      ...question("When are you open?"),
      knowledge: [
        { content: "Parking is free on weekends.", source: "parking.md", score: 0.41 },
        { content: "We are open 9:00-18:00, Monday to Friday.", source: "hours.md", score: 0.92 },
        { content: "Returns within 30 days.", source: "returns.md", score: 0.2 },
      ],
    });
    expect(text.startsWith('Here is what I found in "hours.md":')).toBe(true);
    expect(text).toContain("> We are open 9:00-18:00, Monday to Friday.");
    expect(text).toContain('Related sources: "parking.md", "returns.md".');
    expect(text).not.toMatch(/No language model/);
  });

  it("answers from knowledge in Chinese, the first hit winning without scores", async () => {
    const { text } = await collect({
      ...question("怎么退货？"),
      language: "zh-CN",
      knowledge: [{ content: "收到商品 7 天内可无理由退货。", source: "售后政策" }, { content: "运费由买家承担。" }],
    });
    expect(text.startsWith("在《售后政策》中找到以下内容：")).toBe(true);
    expect(text).toContain("> 收到商品 7 天内可无理由退货。");
    expect(text).toContain("未使用语言模型");
  });

  it("answers a Q&A hit with its answer as it stands, and cites a document hit by its number", () => {
    const qa = { content: "Q: Opening hours?\nA: 9:00-18:00 on weekdays.", source: "faq", score: 2, index: 1, answer: "9:00-18:00 on weekdays." };
    const document = { content: "Parking is free on weekends.", source: "parking", score: 1, index: 2 };
    expect(composeOfflineAnswer({ knowledge: [document, qa] })).toBe("9:00-18:00 on weekdays.");
    expect(composeOfflineAnswer({ knowledge: [{ ...document, score: 3 }, qa] }).startsWith('Here is what I found in "parking" [2]:')).toBe(true);
  });

  it("splits into word-sized deltas that add up to the whole text", () => {
    const text = "Hello, world!  Two spaces.\n\n> quoted 中文，字 OK";
    const deltas = wordDeltas(text);
    expect(deltas.join("")).toBe(text);
    expect(deltas.slice(0, 3)).toEqual(["Hello, ", "world!  ", "Two "]);
    expect(deltas).toContain("中");
    expect(deltas).toContain("文，");
  });

  it("stops with an aborted error when the caller cancels", async () => {
    const controller = new AbortController();
    const stream = createOfflineProvider().stream({ ...question("hi"), signal: controller.signal });
    const seen: ModelStreamPart[] = [];
    await expect(
      (async () => {
        for await (const part of stream) {
          seen.push(part);
          if (seen.length === 2) controller.abort();
        }
      })(),
    ).rejects.toSatisfy((error) => error instanceof ModelError && error.kind === "aborted");
    expect(seen).toHaveLength(2);
  });

  it("composes without streaming, for callers that need the whole text", () => {
    expect(composeOfflineAnswer({ language: "en" })).toMatch(/No language model/);
    expect(composeOfflineAnswer({ knowledge: [{ content: "   " }] })).toMatch(/No language model/);
  });
});

describe("offline answers for customers", () => {
  it("gives customers the same message, in their language, without the console link", () => {
    expect(composeOfflineAnswer({ language: "en", audience: "customer" })).toBe(
      "No language model is set up for this app yet, so I cannot answer this question. The owner can add one in the Parley console under API access → Models.",
    );
    expect(composeOfflineAnswer({ language: "zh-CN", audience: "customer" })).toBe(
      "这个应用还没有可用的语言模型，暂时无法回答这个问题。所有者可以在 Parley 控制台的“API 接入 → 模型”中添加。",
    );
    expect(offlineNoModelText("en", "operator")).toContain(`(${MODELS_PAGE_PATH})`);
  });
});
