import { and, asc, desc, eq } from "drizzle-orm";
import type { ChatApp } from "../apps/service/index";
import { conversations, customerTags, tagGroups, tags } from "../db/schema/index";
import { pushTagMapping, recordSync } from "./sync";
import type { Deps } from "../kernel";
import type { Language } from "../i18n/language";
import { askModel, transcript } from "../inbox/transcript";

type ConversationRow = typeof conversations.$inferSelect;

/** Tags the model gives one conversation at most. */
export const AI_TAGS_MAX = 3;

/** A tag as the model is shown it. */
interface Choice {
  id: string;
  name: string;
  group: string;
  description: string;
}

async function spaceChoices(deps: Pick<Deps, "db">, spaceId: string): Promise<Choice[]> {
  return deps.db
    .select({ id: tags.id, name: tags.name, group: tagGroups.name, description: tags.description })
    .from(tags)
    .innerJoin(tagGroups, eq(tagGroups.id, tags.groupId))
    .where(eq(tags.spaceId, spaceId))
    .orderBy(asc(tagGroups.name), asc(tags.name));
}

/**
 * Reads the model's answer against the space's tags: only names of existing tags count (as
 * `group / name` or the bare name), anything else the model made up is dropped.
 */
export function pickTags(answer: string, choices: readonly Choice[]): Choice[] {
  const picked = new Map<string, Choice>();
  const norm = (value: string) => value.trim().toLowerCase().replace(/\s+/g, " ");
  for (const raw of answer.split(/[,，;；\n]/)) {
    const item = norm(raw.replace(/^[-*#\d.)\s"'`]+|["'`.]+$/g, ""));
    if (!item || item === "none") continue;
    const match =
      choices.find((choice) => norm(`${choice.group} / ${choice.name}`) === item || norm(`${choice.group}/${choice.name}`) === item) ??
      choices.find((choice) => norm(choice.name) === item);
    if (match) picked.set(match.id, match);
    if (picked.size >= AI_TAGS_MAX) break;
  }
  return [...picked.values()];
}

/** What AI tagging did: the tags the model chose, or why it could not choose. */
export type AiTagOutcome = { kind: "tagged"; tagIds: string[] } | { kind: "no-tags" } | { kind: "offline" };

/**
 * Lets the conversation's app model choose from the space's tags and gives the conversation's
 * customer those tags with source `ai` (a tag a member gave stays `manual`). New mirrored tags are
 * then marked on the platform; a refusal there is recorded on the tags, not thrown (the model's
 * choice stands).
 */
export async function tagCustomerByAi(
  deps: Pick<Deps, "config" | "db" | "logger" | "models" | "now" | "secrets">,
  app: ChatApp,
  conversation: ConversationRow,
  language: Language,
): Promise<AiTagOutcome> {
  const choices = await spaceChoices(deps, conversation.spaceId);
  if (choices.length === 0 || !conversation.customerId) return { kind: "no-tags" };
  const prompt = [
    `Choose at most ${AI_TAGS_MAX} tags from the list below that fit this customer conversation.`,
    "Answer only with the chosen tags exactly as listed (`group / name`), comma separated; answer `none` when no tag fits.",
    "",
    "Tags:",
    ...choices.map((choice) => `- ${choice.group} / ${choice.name}${choice.description ? ` (${choice.description})` : ""}`),
    "",
    "Conversation:",
    await transcript(deps, conversation),
  ].join("\n");
  const answer = await askModel(deps, app, prompt, language);
  if (answer === undefined) return { kind: "offline" };
  const chosen = pickTags(answer, choices);
  if (chosen.length) {
    const added = await deps.db
      .insert(customerTags)
      .values(chosen.map((choice) => ({ customerId: conversation.customerId!, tagId: choice.id, spaceId: conversation.spaceId, source: "ai" as const })))
      .onConflictDoNothing()
      .returning({ tagId: customerTags.tagId });
    const push = { spaceId: conversation.spaceId, customerIds: [conversation.customerId], addTagIds: added.map((row) => row.tagId), removeTagIds: [] };
    await pushTagMapping(deps, push).then(
      (pushed) => recordSync(deps, pushed),
      (error: unknown) => deps.logger.warn("marking AI tags on the platform failed", { conversationId: conversation.id, error: String(error) }),
    );
  }
  return { kind: "tagged", tagIds: chosen.map((choice) => choice.id) };
}

/** The customer's latest conversation (the one on-demand AI tagging reads). */
export async function latestConversationOf(deps: Pick<Deps, "db">, spaceId: string, customerId: string): Promise<ConversationRow | undefined> {
  return deps.db
    .select()
    .from(conversations)
    .where(and(eq(conversations.spaceId, spaceId), eq(conversations.customerId, customerId)))
    .orderBy(desc(conversations.lastMessageAt), desc(conversations.id))
    .limit(1)
    .get();
}
