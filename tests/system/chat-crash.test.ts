import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LlmFake, startOpenAiFake } from "../../packages/api/src/testing/fakes/llm-openai";
import { apiCall, type ParleyProcess, startParley } from "./parley-process";

const ownerKey = "pk_chat_crash_owner_key_0123456789ab";
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-chat-crash-"));
let fake: LlmFake;
let parley: ParleyProcess | undefined;
let env: Record<string, string>;

beforeAll(async () => {
  fake = await startOpenAiFake();
  env = { PARLEY_BOOTSTRAP_API_KEY: ownerKey, OPENAI_API_KEY: "sk-system", OPENAI_BASE_URL: fake.url };
});
afterAll(async () => {
  await parley?.stop();
  await fake?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const call = <T>(method: string, pathname: string, body?: unknown) => apiCall<T>(parley!.url, ownerKey, method, pathname, body);

/** A chat stream read as it arrives: what the visitor has seen so far, and its conversation. */
function openStream(appCode: string, message: string) {
  const seen = { conversationId: "", text: "", deltas: 0, first: "" };
  const reading = (async () => {
    const response = await fetch(`${parley!.url}/api/v1/chat/stream`, {
      method: "POST",
      headers: { authorization: `Bearer ${ownerKey}`, "content-type": "application/json" },
      body: JSON.stringify({ appCode, message }),
    });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const data = /^data: (.+)$/m.exec(buffer.slice(0, end))?.[1];
        buffer = buffer.slice(end + 2);
        if (!data) continue;
        const event = JSON.parse(data) as { type: string; conversationId?: string; text?: string };
        if (event.type === "message-start") seen.conversationId = event.conversationId!;
        if (event.type === "text-delta") {
          if (!seen.first) seen.first = event.text!;
          seen.text += event.text!;
          seen.deltas += 1;
        }
      }
    }
  })();
  return { seen, reading };
}

describe("a streamed answer survives kill -9", () => {
  it("history after a restart shows what each visitor had read, marked interrupted", async () => {
    parley = await startParley(env, { dataDir });
    const app = await call<{ code: string }>("POST", "/api/v1/apps", {
      name: "Slow talker",
      description: "Answers slowly",
      openingIntroduction: "Hello! Ask me for a story.",
      avatarUrl: "https://cdn.example.com/a.png",
      category: "productivity",
      settingsPrompt: "Answer at length.",
    });
    const words = Array.from({ length: 60 }, (_, index) => `word${index} `).join("");
    // Three answers of 60 pieces, 100 ms apart: each is mid-stream when the server dies.
    for (let index = 0; index < 3; index++) fake.reply({ text: words, chunks: 60, delayMs: 100 });
    const streams = [openStream(app.code, "Tell me a story"), openStream(app.code, "Tell me another"), openStream(app.code, "And one more")];
    const deadline = Date.now() + 20_000;
    while (streams.some((stream) => stream.seen.deltas < 15) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(streams.every((stream) => stream.seen.deltas >= 15)).toBe(true);
    await parley.kill();
    await Promise.all(streams.map((stream) => stream.reading));

    parley = await startParley(env, { dataDir });
    for (const { seen } of streams) {
      const history = await call<Array<{ role: string; content: string; status: string }>>("GET", `/api/v1/chat/conversations/${seen.conversationId}/messages`);
      expect(history.map((message) => message.role)).toEqual(["user", "assistant"]);
      const answer = history[1]!;
      expect(answer.status).toBe("interrupted");
      // What was stored is what the visitor read, up to the last half second before the kill.
      expect(seen.text.startsWith(answer.content)).toBe(true);
      expect(answer.content.length).toBeGreaterThan(seen.first.length);
      expect(seen.text.length - answer.content.length).toBeLessThan(words.length / 2);
    }
  }, 90_000);
});
