import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";
import { apps } from "./apps";
import { spaces } from "./spaces";

/** One conversation of an end user with an app, on one channel. */
export const conversations = sqliteTable(
  "conversations",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    appId: text("app_id")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    /** Who talks: a Parley user id, an API caller's `user`, or a channel's sender id. */
    endUserId: text("end_user_id").notNull(),
    channel: text("channel").notNull(),
    title: text("title"),
    /** Messages before this time are no longer context (spec: delete context). */
    contextClearedAt: text("context_cleared_at"),
    /**
     * When the app asked for a person to take over (no-hit strategy "manual"); null while the AI
     * answers. The inbox of chat management picks these conversations up.
     */
    handoverRequestedAt: text("handover_requested_at"),
    /**
     * Inbox fields (spec §3 Customer session), set for conversations that came through a web or
     * channel client: the client, the platform's conversation, who wrote, read state and reply mode.
     */
    clientId: text("client_id"),
    externalConversationId: text("external_conversation_id"),
    customerId: text("customer_id"),
    isGroup: integer("is_group", { mode: "boolean" }).notNull().default(false),
    groupName: text("group_name"),
    senderName: text("sender_name"),
    headImageUrl: text("head_image_url"),
    readStatus: text("read_status", { enum: ["UNREAD", "HAVE_READ"] })
      .notNull()
      .default("HAVE_READ"),
    serviceMode: text("service_mode", { enum: ["FULL_AUTO_MODE", "MANUAL_MODE", "GROUP_MODE"] })
      .notNull()
      .default("FULL_AUTO_MODE"),
    /** When the session went to MANUAL_MODE (the delayed-reply mode counts from here). */
    manualSince: text("manual_since"),
    lastMessage: text("last_message"),
    lastMessageAt: text("last_message_at"),
    /** JSON: the platform's reply handle of the latest incoming message. */
    replyHandle: text("reply_handle"),
    /** JSON: tags given to the conversation (AI tagging on handover). */
    tags: text("tags").notNull().default("[]"),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [
    index("conversations_lookup_idx").on(table.appId, table.endUserId, table.channel, table.updatedAt),
    index("conversations_inbox_idx").on(table.spaceId, table.lastMessageAt),
    index("conversations_client_idx").on(table.clientId, table.externalConversationId),
    index("conversations_customer_idx").on(table.customerId, table.lastMessageAt),
  ],
);

/** A message of a conversation. */
export const messages = sqliteTable(
  "messages",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id").notNull(),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    /** `operator`: a space member answering by hand in the inbox. */
    role: text("role", { enum: ["user", "assistant", "tool", "operator"] }).notNull(),
    content: text("content").notNull(),
    /** JSON: tool calls the assistant made, or the call a tool message answers. */
    toolCalls: text("tool_calls"),
    /** JSON: the sources an answer cites (index, source, content excerpt, score), shown under it. */
    citations: text("citations"),
    /** JSON: the files the message carries (ids of `chat_files`), in the order they were attached. */
    attachments: text("attachments"),
    status: text("status", { enum: ["complete", "stopped", "error", "streaming", "interrupted"] })
      .notNull()
      .default("complete"),
    model: text("model"),
    /** Who wrote it, when the conversation has several people (a group) or it is an operator. */
    senderName: text("sender_name"),
    /** For messages sent out through a channel: pending until the platform accepted it. */
    delivery: text("delivery", { enum: ["pending", "sent", "failed"] }),
    deliveryError: text("delivery_error"),
    createdAt: createdAt(),
  },
  (table) => [index("messages_conversation_idx").on(table.conversationId, table.createdAt)],
);

/** One record per answer (spec §3 usage record). */
export const usageRecords = sqliteTable(
  "usage_records",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    appId: text("app_id"),
    conversationId: text("conversation_id"),
    messageId: text("message_id"),
    endUserId: text("end_user_id"),
    channel: text("channel"),
    prompt: text("prompt").notNull(),
    answer: text("answer").notNull(),
    /** A model id, or `plugin:<code>` for a plugin call. */
    model: text("model").notNull(),
    promptTokens: integer("prompt_tokens").notNull().default(0),
    completionTokens: integer("completion_tokens").notNull().default(0),
    credits: integer("credits").notNull().default(0),
    /** JSON: the context messages sent. */
    context: text("context"),
    /** JSON: knowledge hits used. */
    knowledgeHits: text("knowledge_hits"),
    /** How many knowledge chunks the turn's retrieval found; null when the turn retrieved nothing (no knowledge). 0 = not hit. */
    knowledgeHitCount: integer("knowledge_hit_count"),
    /** JSON: the database statements of the turn — the SQL that ran, was refused, failed or waits for confirmation. */
    databaseStatements: text("database_statements"),
    createdAt: createdAt(),
  },
  (table) => [index("usage_records_space_idx").on(table.spaceId, table.createdAt)],
);

/** Append-only credit ledger; a space's balance is the newest row's `balanceAfter`. */
export const creditLedger = sqliteTable(
  "credit_ledger",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    delta: integer("delta").notNull(),
    balanceAfter: integer("balance_after").notNull(),
    reason: text("reason", { enum: ["grant", "usage", "purchase", "plan", "check-in", "invite", "refund", "adjustment"] }).notNull(),
    reference: text("reference"),
    /**
     * The credit hold this charge settles. A trigger (migration 0015) deletes that hold in the
     * same statement as the charge, so no other writer ever sees both the charge and the hold.
     */
    holdKey: text("hold_key"),
    /** The member of a team space whose turn or run this charge paid for (null: the space's own spending). */
    userId: text("user_id"),
    /**
     * The part of the charge paid from the member's allocation. A trigger (migration 0017) moves
     * it from `space_members.credit_allocation` to `credits_spent` in the same statement.
     */
    fromAllocation: integer("from_allocation").notNull().default(0),
    createdAt: createdAt(),
  },
  (table) => [index("credit_ledger_space_idx").on(table.spaceId, table.seq)],
);

/** Model providers the owner configured in the console (instance-wide). */
export const modelProviders = sqliteTable("model_providers", {
  id: text("id").primaryKey(),
  kind: text("kind", { enum: ["openai", "openai-compatible", "anthropic", "gemini"] }).notNull(),
  name: text("name").notNull(),
  baseUrl: text("base_url"),
  /** Secret: stored for calls, never returned by the API. */
  apiKey: text("api_key"),
  /** JSON array of model ids this provider serves. */
  models: text("models").notNull().default("[]"),
  /** JSON array of rerank model ids this provider serves at `POST {baseUrl}/rerank`. */
  rerankModels: text("rerank_models").notNull().default("[]"),
  /** The request body its `/rerank` takes: `cohere` (also Jina) sends `documents`, `tei` sends `texts`. */
  rerankFormat: text("rerank_format", { enum: ["cohere", "tei"] })
    .notNull()
    .default("cohere"),
  /** JSON array of image model ids this provider draws with (issue 21: images). */
  imageModels: text("image_models").notNull().default("[]"),
  /** The wire format of its image API: `openai` (`/images/generations`) or `midjourney` (a midjourney-proxy's `/mj/...`). */
  imageFormat: text("image_format", { enum: ["openai", "midjourney"] })
    .notNull()
    .default("openai"),
  enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
  createdAt: createdAt(),
  updatedAt: text("updated_at").notNull(),
  /** JSON array of speech-to-text model ids served at `POST {baseUrl}/audio/transcriptions` (OpenAI's wire format). */
  transcriptionModels: text("transcription_models").notNull().default("[]"),
  /** JSON array of text-to-speech model ids this provider serves (issue 21). */
  speechModels: text("speech_models").notNull().default("[]"),
  /** The wire format of its speech models: `openai` (`POST {baseUrl}/audio/speech`) or `azure` (Speech REST with SSML). */
  speechFormat: text("speech_format", { enum: ["openai", "azure"] })
    .notNull()
    .default("openai"),
  /** JSON array of the voices its OpenAI-format speech models offer; empty: OpenAI's documented voices. */
  speechVoices: text("speech_voices").notNull().default("[]"),
});

/**
 * A file a person attached to a chat message (spec §5: images JPEG/PNG under 5 MB, documents
 * txt/md/pdf/docx under 15 MB), or an image an operator sent back. Owned by the space and, once
 * sent, by the conversation: it goes with the conversation. The bytes are in the file store
 * under `storageKey`; a document's text is read once, on upload.
 */
export const chatFiles = sqliteTable(
  "chat_files",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    appId: text("app_id")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    /** Null until the message that carries the file is sent (or for the upload of a conversation to come). */
    conversationId: text("conversation_id").references(() => conversations.id, { onDelete: "cascade" }),
    /** The message that carries it, once sent. */
    messageId: text("message_id"),
    /** Who uploaded it: the conversation's end user, or `operator:<userId>`. */
    endUserId: text("end_user_id").notNull(),
    channel: text("channel").notNull(),
    kind: text("kind", { enum: ["image", "document"] }).notNull(),
    mimeType: text("mime_type").notNull(),
    name: text("name").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    storageKey: text("storage_key").notNull(),
    /** A document's text as the knowledge parsers read it; null for images. */
    textContent: text("text_content"),
    createdAt: createdAt(),
  },
  (table) => [index("chat_files_conversation_idx").on(table.conversationId), index("chat_files_space_idx").on(table.spaceId, table.createdAt)],
);

/** An image the console shows publicly (an avatar, a store listing's picture), served at `/api/v1/assets/{id}`. */
export const publicAssets = sqliteTable(
  "public_assets",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    mimeType: text("mime_type").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    storageKey: text("storage_key").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
  },
  (table) => [index("public_assets_space_idx").on(table.spaceId)],
);
