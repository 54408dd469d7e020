import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";
import { spaces } from "./spaces";

/** A knowledge base (spec §3): files, their chunks, and the settings they were indexed with. */
export const knowledgeBases = sqliteTable(
  "knowledge_bases",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    code: text("code").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    /** Embedding model the vectors were made with; changing it re-embeds. */
    embeddingModel: text("embedding_model").notNull(),
    chunkTokens: integer("chunk_tokens").notNull().default(500),
    chunkOverlap: integer("chunk_overlap").notNull().default(50),
    /** The app whose own knowledge base this is (made by the create-app upload); null for shared ones. */
    appId: text("app_id"),
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [uniqueIndex("knowledge_bases_code_unique").on(table.code), index("knowledge_bases_space_idx").on(table.spaceId)],
);

/** File kinds (spec §3: document, Q&A, table, website; Feishu documents import as documents). */
export const knowledgeFileTypes = ["document", "qa", "table", "website"] as const;

/** One imported source of a knowledge base and its indexing state (spec §4). */
export const knowledgeFiles = sqliteTable(
  "knowledge_files",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id").notNull(),
    knowledgeBaseId: text("knowledge_base_id")
      .notNull()
      .references(() => knowledgeBases.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    type: text("type", { enum: knowledgeFileTypes }).notNull(),
    /** Where it came from: the uploaded file's name, a URL, or a Feishu document token. */
    source: text("source").notNull(),
    mimeType: text("mime_type"),
    sizeBytes: integer("size_bytes").notNull().default(0),
    status: text("status", { enum: ["pending", "processing", "effective", "failed"] })
      .notNull()
      .default("pending"),
    failureReason: text("failure_reason"),
    chunkCount: integer("chunk_count").notNull().default(0),
    tokenCount: integer("token_count").notNull().default(0),
    /** Progress while processing, 0-100. */
    progress: integer("progress").notNull().default(0),
    /** Path of the stored original under the data directory. */
    storagePath: text("storage_path"),
    /** JSON: per-type options (Q&A search method, table fields and index column). */
    options: text("options").notNull().default("{}"),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [index("knowledge_files_kb_idx").on(table.knowledgeBaseId, table.createdAt)],
);

/**
 * Chunks (segments) of a file. `(file_id, ordinal)` is unique so that indexing resumed after a
 * crash can never store a chunk twice. `search_text` holds the segmented words FTS5 indexes.
 */
export const knowledgeChunks = sqliteTable(
  "knowledge_chunks",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id").notNull(),
    knowledgeBaseId: text("knowledge_base_id")
      .notNull()
      .references(() => knowledgeBases.id, { onDelete: "cascade" }),
    fileId: text("file_id")
      .notNull()
      .references(() => knowledgeFiles.id, { onDelete: "cascade" }),
    ordinal: integer("ordinal").notNull(),
    content: text("content").notNull(),
    searchText: text("search_text").notNull(),
    tokens: integer("tokens").notNull(),
    /** JSON: heading breadcrumb, Q&A question/answer and search method, table row. */
    metadata: text("metadata").notNull().default("{}"),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [uniqueIndex("knowledge_chunks_file_ordinal_unique").on(table.fileId, table.ordinal), index("knowledge_chunks_kb_idx").on(table.knowledgeBaseId)],
);

/** Media materials of a knowledge base (spec §3: name, changeable). */
export const mediaMaterials = sqliteTable(
  "media_materials",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    knowledgeBaseId: text("knowledge_base_id").references(() => knowledgeBases.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    mimeType: text("mime_type").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    storagePath: text("storage_path").notNull(),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [index("media_materials_space_idx").on(table.spaceId)],
);

/**
 * A space's Feishu (Lark) app credentials for importing Feishu documents. The secret is never
 * answered back by the API.
 */
export const knowledgeFeishuAuth = sqliteTable("knowledge_feishu_auth", {
  spaceId: text("space_id")
    .primaryKey()
    .references(() => spaces.id, { onDelete: "cascade" }),
  appId: text("app_id").notNull(),
  appSecret: text("app_secret").notNull(),
  updatedAt: text("updated_at").notNull(),
});

/**
 * The durable job queue: indexing, channel deliveries and replies, workflow runs. A job is
 * claimed by setting `locked_until`; a crashed worker's lock expires and the job runs again.
 * `space_id` is the space the job works for: the claim takes turns between spaces on it.
 */
export const jobs = sqliteTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    /** The space the job works for, null for work of no space (kept without a foreign key, like the payload it comes with). */
    spaceId: text("space_id"),
    /** JSON payload. */
    payload: text("payload").notNull(),
    status: text("status", { enum: ["queued", "running", "done", "failed"] })
      .notNull()
      .default("queued"),
    attempts: integer("attempts").notNull().default(0),
    runAfter: text("run_after").notNull(),
    lockedUntil: text("locked_until"),
    lastError: text("last_error"),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [index("jobs_ready_idx").on(table.status, table.runAfter), index("jobs_claim_idx").on(table.kind, table.status, table.runAfter)],
);
