import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAppVia } from "../apps/testing";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { upgradeSpaceForTest } from "../plans/testing";

let ctx: TestContext;
let owner: TestUser;
let appId: string;
const heard: { event: string; data: any }[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await registerUser(ctx, "owner-widget-handover@example.com");
  // What this test creates needs a plan above Free (issue 15).
  await upgradeSpaceForTest(ctx, owner.user.spaceId);
  appId = (await createAppVia(ctx, owner, { name: "Shop bot" })).id;
  ctx.deps.realtime.subscribe((_target, event, data) => heard.push({ event, data }));
});
afterAll(async () => ctx.close());

async function json(response: Response) {
  return (await response.json()) as { success: boolean; code: number; data: any };
}

async function visitorSession(manualTransfer: boolean) {
  const client = (await json(await ctx.request("/api/v1/web-clients", { method: "POST", token: owner.token, json: { appId, name: "Widget", manualTransfer } })))
    .data;
  const session = (await json(await ctx.request(`/api/v1/widget/${client.id}/sessions`, { method: "POST", json: { language: "en" } }))).data;
  return { client, session, auth: { authorization: `Bearer ${session.visitorToken}` } };
}

describe("visitor asks for a person", () => {
  it("is refused when the client does not offer manual transfer, changing nothing", async () => {
    const { client, session, auth } = await visitorSession(false);
    const refused = await ctx.request(`/api/v1/widget/${client.id}/sessions/${session.sessionId}/handover`, { method: "POST", headers: auth });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("X-Parley-Error")).toBe("manual_transfer_off");
    const history = await json(await ctx.request(`/api/v1/widget/${client.id}/sessions/${session.sessionId}/messages`, { headers: auth }));
    expect(history.data.items).toEqual([]);
  });

  it("hands the session to a person, says the default reply once, and shows in the inbox as manual", async () => {
    const { client, session, auth } = await visitorSession(true);
    await (
      await ctx.request(`/api/v1/widget/${client.id}/sessions/${session.sessionId}/messages`, {
        method: "POST",
        headers: auth,
        json: { content: "My parcel is lost" },
      })
    ).text();
    const asked = await json(await ctx.request(`/api/v1/widget/${client.id}/sessions/${session.sessionId}/handover`, { method: "POST", headers: auth }));
    expect(asked.data).toEqual({ serviceMode: "MANUAL_MODE", reply: "A member of our team will be with you shortly." });
    const again = await json(await ctx.request(`/api/v1/widget/${client.id}/sessions/${session.sessionId}/handover`, { method: "POST", headers: auth }));
    expect(again.data).toEqual({ serviceMode: "MANUAL_MODE", reply: null });
    const history = (await json(await ctx.request(`/api/v1/widget/${client.id}/sessions/${session.sessionId}/messages`, { headers: auth }))).data.items;
    expect(history.filter((message: { content: string }) => message.content === "A member of our team will be with you shortly.")).toHaveLength(1);
    const inbox = (await json(await ctx.request(`/api/v1/inbox/sessions?clientId=${client.id}`, { token: owner.token }))).data.items;
    expect(inbox[0]).toMatchObject({ serviceMode: "MANUAL_MODE", readStatus: "UNREAD" });
    expect(inbox[0].handoverRequestedAt).toBeTruthy();
    expect(heard.some((entry) => entry.event === "session.mode" && entry.data.serviceMode === "MANUAL_MODE")).toBe(true);
    // Without the visitor's token nothing happens.
    expect((await ctx.request(`/api/v1/widget/${client.id}/sessions/${session.sessionId}/handover`, { method: "POST" })).status).toBe(401);
  });
});
