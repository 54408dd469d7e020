import type { z } from "@hono/zod-openapi";
import { spaceMembers } from "../db/schema/index";
import type { TestContext, TestUser } from "../testing/harness";
import { expectOk } from "../testing/flows";
import { appSeniorSchema } from "./schemas";

/** A create-app body that passes every rule; tests change one field at a time. */
export function validAppBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: "Support bot",
    description: "Answers questions about orders",
    openingIntroduction: "Hello! Ask me anything. [Where is my parcel?]",
    avatarUrl: "https://cdn.example.com/avatars/support.png",
    category: "customer_service",
    settingsPrompt: "You are a friendly support agent.",
    ...overrides,
  };
}

/** Creates an app through the API and answers its senior detail. */
export async function createAppVia(
  ctx: TestContext,
  user: TestUser,
  overrides: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<z.infer<typeof appSeniorSchema>> {
  const response = await ctx.request("/api/v1/apps", { method: "POST", token: user.token, json: validAppBody(overrides), headers });
  return expectOk(response, 201, appSeniorSchema);
}

/** Adds a user to a space as a plain member, with a system role (developer unless given) or a custom role's id. */
export async function addMember(ctx: TestContext, spaceId: string, user: TestUser, roleId = "developer"): Promise<void> {
  await ctx.deps.db.insert(spaceMembers).values({ spaceId, userId: user.user.id, role: roleId === "admin" ? "admin" : "member", roleId });
}
