import { eq } from "drizzle-orm";
import { createApp } from "../apps/service/apps";
import { users, webClients } from "../db/schema/index";
import type { Auth, Deps } from "../kernel";
import { confirmFile, uploadDocument } from "../knowledge/service/files";
import { importQa } from "../knowledge/service/imports";
import { createKnowledgeBase } from "../knowledge/service/knowledge-bases";
import { qaCsvOf } from "../knowledge/service/sources/qa";
import { DEMO_OPENING, DEMO_WELCOME, demoGuide, demoQaPairs } from "./demo-content";
import { insertClient } from "./service";

/** The id of the web client seeded on a first start. */
export const DEMO_CLIENT_ID = "demo";

/**
 * The knowledge base "Parley guide": the demo's Q&A pairs (its guiding questions in English and
 * Chinese with their answers) and a short guide, imported and confirmed like any upload, so the
 * background worker indexes them (a few segments: ready moments after the start).
 */
async function seedDemoKnowledge(deps: Pick<Deps, "config" | "db" | "files" | "knowledge" | "now">, auth: Auth): Promise<string> {
  const base = await createKnowledgeBase(deps, auth, {
    name: "Parley guide",
    description: "What the demo assistant knows about Parley (seeded on the first start)",
  });
  const url = deps.config.publicUrl.replace(/\/+$/, "");
  const csv = new TextEncoder().encode(qaCsvOf(demoQaPairs(url), "en"));
  const { file: faq } = await importQa(deps, auth, base.id, { fileName: "parley-faq.csv", bytes: csv, mimeType: "text/csv" });
  const guide = await uploadDocument(deps, auth, base.id, {
    fileName: "parley-guide.md",
    bytes: new TextEncoder().encode(demoGuide(url)),
    mimeType: "text/markdown",
  });
  await confirmFile(deps, auth, faq.id);
  await confirmFile(deps, auth, guide.id);
  return base.id;
}

/**
 * On a first start, gives the owner the demo: the knowledge base "Parley guide", a knowledge app
 * ("Parley demo", the configured default model — the offline responder when no provider is set)
 * that answers its guiding questions from it, and the web client `demo` bound to the app with
 * manual transfer on, so `<script src=".../widget.js" data-client-id="demo">` works at once and
 * "Talk to a person" reaches Chat management. Never seeds twice; an existing demo is left as it is.
 */
export async function seedDemoClient(deps: Pick<Deps, "config" | "db" | "files" | "knowledge" | "now" | "secrets">, ownerId: string): Promise<boolean> {
  const existing = await deps.db.select({ id: webClients.id }).from(webClients).where(eq(webClients.id, DEMO_CLIENT_ID)).get();
  if (existing) return false;
  const owner = await deps.db.select().from(users).where(eq(users.id, ownerId)).get();
  if (!owner) return false;
  const auth = { userId: owner.id, spaceId: owner.personalSpaceId, role: "owner" as const, via: "session" as const };
  const knowledgeBaseId = await seedDemoKnowledge(deps, auth);
  const app = await createApp(deps, auth, {
    type: "KNOWLEDGE",
    name: "Parley demo",
    description: "The demo app behind the web client `demo`: answers from the knowledge base Parley guide",
    openingIntroduction: DEMO_OPENING,
    category: "customer_service",
    settingsPrompt: "You are the friendly Parley demo assistant. Answer briefly, from the references, in the visitor's language.",
    defaultModel: deps.config.llm.defaultModel,
    knowledgeBaseIds: [knowledgeBaseId],
    // Full text finds a Q&A pair by the words of its question whatever the embedder, and it is the
    // better mode with the offline lexical embedder (see LEXICAL_SEMANTIC_WEIGHT); three segments
    // give a real model some context beyond the best match.
    retrievalMode: "fulltext",
    fullTextCount: 3,
    citationEnabled: true,
  });
  await insertClient(deps, {
    id: DEMO_CLIENT_ID,
    spaceId: owner.personalSpaceId,
    appId: app.id,
    name: "Parley demo",
    welcome: DEMO_WELCOME,
    slogan: "Powered by Parley",
    allowedOrigins: [],
    manualTransfer: true,
    enabled: true,
    createdBy: owner.id,
  });
  return true;
}
