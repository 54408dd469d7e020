import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bootstrap } from "../bootstrap";
import { apps, knowledgeBases, knowledgeFiles, webClientSessions, webClients } from "../db/schema/index";
import { createKnowledgeWorker } from "../knowledge/worker";
import { createTestContext, type TestContext } from "../testing/harness";
import { DEMO_QUESTIONS } from "./demo-content";

// The seeded demo on a fresh data directory, with no model provider configured: the offline
// responder must answer each guiding question (English and Chinese) from the seeded knowledge.
const ownerKey = "pk_seed_demo_owner_0123456789abcdef";
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ PARLEY_BOOTSTRAP_API_KEY: ownerKey });
});
afterAll(async () => ctx.close());

async function json(response: Response) {
  return (await response.json()) as { success: boolean; code: number; data: any };
}

/** Starts a visitor session of the demo client. */
async function visitor(language: "en" | "zh-CN") {
  const session = (await json(await ctx.request("/api/v1/widget/demo/sessions", { method: "POST", json: { language } }))).data as {
    sessionId: string;
    visitorToken: string;
  };
  return {
    session,
    /** Asks one question and answers the streamed text and the cited sources. */
    async ask(content: string) {
      const response = await ctx.request(`/api/v1/widget/demo/sessions/${session.sessionId}/messages`, {
        method: "POST",
        token: session.visitorToken,
        json: { content },
        headers: { "accept-language": language },
      });
      expect(response.status).toBe(200);
      const events = (await response.text())
        .split("\n\n")
        .map((block) => /^data: (.+)$/m.exec(block)?.[1])
        .filter((data): data is string => !!data)
        .map((data) => JSON.parse(data) as { type: string; text?: string; source?: string; offline?: boolean });
      return {
        text: events.flatMap((event) => (event.type === "text-delta" ? [event.text!] : [])).join(""),
        sources: events.flatMap((event) => (event.type === "citation" ? [event.source!] : [])),
        offline: events.find((event) => event.type === "message-start")?.offline,
      };
    },
  };
}

/** What each answer must say, by guiding question (index into DEMO_QUESTIONS). */
const expected = {
  en: [
    ["open AI agent platform", "knowledge bases", "Chat management", "WeChat"],
    ['<script src="http://127.0.0.1:3000/widget.js" data-client-id="demo" async></script>', "Clients", "Web embed"],
    ["API access → Models", "OPENAI_API_KEY", "offline responder"],
    ['"Talk to a person"', "Chat management (/console/chatManage)", "manual transfer"],
  ],
  "zh-CN": [
    ["开放的 AI 智能体平台", "知识库", "会话管理", "微信"],
    ['<script src="http://127.0.0.1:3000/widget.js" data-client-id="demo" async></script>', "客户端", "网页嵌入"],
    ["API 接入 → 模型", "OPENAI_API_KEY", "离线应答器"],
    ["转人工客服", "“会话管理”（/console/chatManage）", "其他标签页"],
  ],
} as const;

describe("demo seeding", () => {
  it("seeds the demo knowledge base, a knowledge app bound to it and the client `demo` (manual transfer on), once", async () => {
    await bootstrap(ctx.deps);
    await bootstrap(ctx.deps);
    const clients = await ctx.deps.db.select().from(webClients);
    expect(clients.map((client) => client.id)).toEqual(["demo"]);
    expect(clients[0]).toMatchObject({ enabled: true, allowedOrigins: "[]", manualTransfer: true });
    const demoApps = await ctx.deps.db.select().from(apps).where(eq(apps.name, "Parley demo"));
    expect(demoApps).toHaveLength(1);
    const bases = await ctx.deps.db.select().from(knowledgeBases);
    expect(bases.map((base) => base.name)).toEqual(["Parley guide"]);
    expect(demoApps[0]).toMatchObject({
      type: "KNOWLEDGE",
      defaultModel: ctx.config.llm.defaultModel,
      id: clients[0]!.appId,
      knowledgeBaseIds: JSON.stringify([bases[0]!.id]),
    });
    // Imported like any upload: confirmed, waiting for the background worker.
    const files = await ctx.deps.db.select().from(knowledgeFiles).where(eq(knowledgeFiles.knowledgeBaseId, bases[0]!.id));
    expect(files.map((file) => [file.name, file.type, file.status]).sort()).toEqual([
      ["parley-faq", "qa", "processing"],
      ["parley-guide", "document", "processing"],
    ]);

    const config = await ctx.request("/api/v1/widget/demo/config", { headers: { origin: "https://anywhere.example.org" } });
    expect(config.status).toBe(200);
    const { data } = await json(config);
    expect(data).toMatchObject({ appName: "Parley demo", manualTransfer: true, guidingQuestions: [...DEMO_QUESTIONS.en] });
  });

  it("answers each guiding question offline, in English and Chinese, once the worker has indexed the seed", async () => {
    await createKnowledgeWorker(ctx.deps).drain();
    const files = await ctx.deps.db.select().from(knowledgeFiles);
    expect(files.map((file) => file.status)).toEqual(["effective", "effective"]);

    for (const language of ["en", "zh-CN"] as const) {
      // One conversation per language, questions in a row: later ones must not be answered from earlier ones.
      const { ask } = await visitor(language);
      for (const [index, question] of DEMO_QUESTIONS[language].entries()) {
        const answer = await ask(question);
        expect(answer.offline, question).toBe(true);
        for (const phrase of expected[language][index]!) expect(answer.text, question).toContain(phrase);
        // The other questions' answers are not what came back.
        for (const [other, phrases] of expected[language].entries()) if (other !== index) expect(answer.text, question).not.toContain(phrases[0]);
        expect(answer.sources[0], question).toBe("parley-faq");
      }
    }
    // A question typed another way still finds its pair.
    const { ask } = await visitor("en");
    expect((await ask("how to embed the widget on my website")).text).toContain('data-client-id="demo"');
  });

  it("hands a visitor over to a person: the session waits in the inbox as manual", async () => {
    const { session } = await visitor("en");
    const handover = await json(
      await ctx.request(`/api/v1/widget/demo/sessions/${session.sessionId}/handover`, { method: "POST", token: session.visitorToken }),
    );
    expect(handover.data).toMatchObject({ serviceMode: "MANUAL_MODE" });
    const row = await ctx.deps.db.select().from(webClientSessions).where(eq(webClientSessions.id, session.sessionId)).get();
    const inbox = (await json(await ctx.request("/api/v1/inbox/sessions?clientId=demo", { token: ownerKey }))).data.items as Array<{
      sessionId: string;
      serviceMode: string;
    }>;
    expect(inbox.find((item) => item.sessionId === row!.conversationId)).toMatchObject({ serviceMode: "MANUAL_MODE" });
  });

  it("seeds nothing when PARLEY_SEED_DEMO is false", async () => {
    const quiet = await createTestContext({ PARLEY_SEED_DEMO: "false" });
    try {
      await bootstrap(quiet.deps);
      expect(await quiet.deps.db.select().from(webClients)).toEqual([]);
      expect(await quiet.deps.db.select().from(apps)).toEqual([]);
      expect(await quiet.deps.db.select().from(knowledgeBases)).toEqual([]);
    } finally {
      await quiet.close();
    }
  });
});
