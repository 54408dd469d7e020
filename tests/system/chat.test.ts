import { createClient, type ChatEvent, ParleyError } from "@parley/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LlmFake, startOpenAiFake } from "../../packages/api/src/testing/fakes/llm-openai";
import { type ParleyProcess, startParley } from "./parley-process";

const ownerKey = "pk_chat_system_owner_key_0123456789";
let fake: LlmFake;
let parley: ParleyProcess;
beforeAll(async () => {
  fake = await startOpenAiFake();
  parley = await startParley({ PARLEY_BOOTSTRAP_API_KEY: ownerKey, OPENAI_API_KEY: "sk-system", OPENAI_BASE_URL: fake.url });
});
afterAll(async () => {
  await parley?.stop();
  await fake?.close();
});

describe("chat through the SDK against the started server", () => {
  it("creates an app and streams its answer with chat.stream()", async () => {
    const parleyClient = createClient({ baseUrl: parley.url, apiKey: ownerKey });
    const created = await parleyClient.POST("/api/v1/apps", {
      body: {
        name: "Docs helper",
        description: "Answers questions about the docs",
        openingIntroduction: "Hi! [How do I start?]",
        avatarUrl: "https://cdn.example.com/a.png",
        category: "productivity",
        settingsPrompt: "Answer briefly.",
      },
    });
    expect(created.error).toBeUndefined();
    fake.reply({ text: "Run npm start.", chunks: 3 });
    const events: ChatEvent[] = [];
    for await (const event of parleyClient.chat.stream({ appCode: created.data!.code, message: "How do I start?" })) events.push(event);
    expect(events.map((event) => event.type)).toEqual(["message-start", "text-delta", "text-delta", "text-delta", "message-end"]);
    expect(events.flatMap((event) => (event.type === "text-delta" ? [event.text] : [])).join("")).toBe("Run npm start.");

    const refused = parleyClient.chat.stream({ appCode: created.data!.code, message: "Hi", model: "not-offered" });
    await expect(refused.next()).rejects.toBeInstanceOf(ParleyError);
  });
});
