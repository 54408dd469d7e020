import { eq } from "drizzle-orm";
import { createApp } from "../apps/service/apps";
import { users, webClients } from "../db/schema/index";
import type { Deps } from "../http/context";
import { insertClient } from "./service";

/** The id of the web client seeded on a first start. */
export const DEMO_CLIENT_ID = "demo";

/**
 * On a first start, gives the owner a demo app ("Parley demo", LIGHT, the configured default
 * model — the offline responder when no provider is set) and the web client `demo` bound to it,
 * so `<script src=".../widget.js" data-client-id="demo">` works at once. Never seeds twice.
 */
export async function seedDemoClient(deps: Deps, ownerId: string): Promise<boolean> {
  const existing = await deps.db.select({ id: webClients.id }).from(webClients).where(eq(webClients.id, DEMO_CLIENT_ID)).get();
  if (existing) return false;
  const owner = await deps.db.select().from(users).where(eq(users.id, ownerId)).get();
  if (!owner) return false;
  const auth = { userId: owner.id, spaceId: owner.personalSpaceId, role: "owner" as const, via: "session" as const };
  const app = await createApp(deps, auth, {
    type: "LIGHT",
    name: "Parley demo",
    description: "The demo app behind the web client `demo`",
    openingIntroduction: "Hello! I am the Parley demo assistant. [What can Parley do?] [How do I embed this chat on my site?]",
    category: "customer_service",
    settingsPrompt: "You are the friendly Parley demo assistant. Answer briefly.",
    defaultModel: deps.config.llm.defaultModel,
  });
  await insertClient(deps, {
    id: DEMO_CLIENT_ID,
    spaceId: owner.personalSpaceId,
    appId: app.id,
    name: "Parley demo",
    welcome: "Hi! Ask me anything about Parley.",
    slogan: "Powered by Parley",
    allowedOrigins: [],
    enabled: true,
  });
  return true;
}
