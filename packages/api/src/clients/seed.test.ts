import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bootstrap } from "../bootstrap";
import { apps, webClients } from "../db/schema/index";
import { createTestContext, type TestContext } from "../testing/harness";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.close());

describe("demo client seeding", () => {
  it("seeds the demo app and the client `demo` on the first start only, and the widget can use it", async () => {
    await bootstrap(ctx.deps);
    await bootstrap(ctx.deps);
    const clients = await ctx.deps.db.select().from(webClients);
    expect(clients.map((client) => client.id)).toEqual(["demo"]);
    expect(clients[0]).toMatchObject({ enabled: true, allowedOrigins: "[]" });
    const demoApps = await ctx.deps.db.select().from(apps).where(eq(apps.name, "Parley demo"));
    expect(demoApps).toHaveLength(1);
    expect(demoApps[0]).toMatchObject({ type: "LIGHT", defaultModel: ctx.config.llm.defaultModel, id: clients[0]!.appId });

    const config = await ctx.request("/api/v1/widget/demo/config", { headers: { origin: "https://anywhere.example.org" } });
    expect(config.status).toBe(200);
    const { data } = (await config.json()) as { data: { guidingQuestions: string[]; appName: string } };
    expect(data.appName).toBe("Parley demo");
    expect(data.guidingQuestions).toHaveLength(2);

    const session = await ctx.request("/api/v1/widget/demo/sessions", { method: "POST", json: {} });
    const { sessionId, visitorToken } = ((await session.json()) as { data: { sessionId: string; visitorToken: string } }).data;
    const answer = await ctx.request(`/api/v1/widget/demo/sessions/${sessionId}/messages`, { method: "POST", token: visitorToken, json: { content: "What can Parley do?" } });
    expect(answer.status).toBe(200);
    const text = await answer.text();
    expect(text).toContain("event: message-start");
    expect(text).toContain("event: message-end");
  });

  it("seeds nothing when PARLEY_SEED_DEMO is false", async () => {
    const quiet = await createTestContext({ PARLEY_SEED_DEMO: "false" });
    try {
      await bootstrap(quiet.deps);
      expect(await quiet.deps.db.select().from(webClients)).toEqual([]);
      expect(await quiet.deps.db.select().from(apps)).toEqual([]);
    } finally {
      await quiet.close();
    }
  });
});
