import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";
import { spaces } from "./spaces";

/** App kinds (spec §3 App `type`). */
export const appTypes = ["LIGHT", "KNOWLEDGE", "AGENT", "WORKFLOW"] as const;

/** A chat app (light app, knowledge app, agent) with every field of spec §3 App. */
export const apps = sqliteTable(
  "apps",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    /** The spec's appCode: public, used in /app/{code} and as the OpenAI `model`. */
    code: text("code").notNull(),
    name: text("name").notNull(),
    type: text("type", { enum: appTypes }).notNull().default("LIGHT"),
    description: text("description").notNull(),
    openingIntroduction: text("opening_introduction").notNull(),
    avatarUrl: text("avatar_url").notNull(),
    isPublic: integer("is_public", { mode: "boolean" }).notNull().default(false),
    category: text("category").notNull(),
    settingsPrompt: text("settings_prompt").notNull(),
    defaultModel: text("default_model").notNull().default("gpt-4.1-mini"),
    /** JSON array of model ids the chat may switch to. */
    optionalModels: text("optional_models").notNull().default("[]"),
    memoryTurns: integer("memory_turns").notNull().default(10),
    memoryRetentionMinutes: integer("memory_retention_minutes").notNull().default(1440),
    temperature: real("temperature").notNull().default(0.7),
    /** Max tokens of retrieved context handed to the model; never 0. */
    retrievalLength: integer("retrieval_length").notNull().default(4000),
    knowledgeBaseIds: text("knowledge_base_ids").notNull().default("[]"),
    databaseIds: text("database_ids").notNull().default("[]"),
    retrievalMode: text("retrieval_mode", { enum: ["semantic", "fulltext", "hybrid"] })
      .notNull()
      .default("semantic"),
    similarityThreshold: real("similarity_threshold").notNull().default(0.75),
    semanticCount: integer("semantic_count").notNull().default(3),
    fullTextCount: integer("full_text_count").notNull().default(1),
    /** A rerank model of the catalogue that reorders the fused hits; null: no reranking. */
    rerankModel: text("rerank_model"),
    /** Hits the rerank model scores below this (0–1) are dropped. */
    rerankThreshold: real("rerank_threshold").notNull().default(0),
    noHitStrategy: text("no_hit_strategy", { enum: ["default", "fixed", "manual"] })
      .notNull()
      .default("default"),
    noHitText: text("no_hit_text"),
    citationEnabled: integer("citation_enabled", { mode: "boolean" }).notNull().default(false),
    citationThreshold: real("citation_threshold").notNull().default(0.8),
    /** JSON array of plugin codes (custom `plg_…` codes or built-in names). */
    plugins: text("plugins").notNull().default("[]"),
    multiRoundThinking: integer("multi_round_thinking", { mode: "boolean" }).notNull().default(false),
    maxRounds: integer("max_rounds").notNull().default(3),
    pluginStrategy: text("plugin_strategy", { enum: ["knowledge_first", "plugin_first", "both"] })
      .notNull()
      .default("both"),
    /** The tone (voice) answers are read aloud with, of {@link voiceModel}. */
    voice: text("voice"),
    bottomSlogan: text("bottom_slogan"),
    /** JSON: humanization, manual-handover and database settings (spec §3, advanced configuration). */
    advancedConfig: text("advanced_config").notNull().default("{}"),
    thumbCount: integer("thumb_count").notNull().default(0),
    collectCount: integer("collect_count").notNull().default(0),
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
    /** The speech model (of a model provider's `speechModels`) answers are read aloud with; null: no voice (issue 21). */
    voiceModel: text("voice_model"),
  },
  (table) => [uniqueIndex("apps_code_unique").on(table.code), index("apps_space_idx").on(table.spaceId, table.createdAt)],
);

/** Thumb and collect marks: one per user, app and kind. */
export const appReactions = sqliteTable(
  "app_reactions",
  {
    appId: text("app_id")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull(),
    kind: text("kind", { enum: ["thumb", "collect"] }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.appId, table.userId, table.kind] })],
);

/** Rate-limit rules of an app (spec §3 Rate limit rule). */
export const rateLimitRules = sqliteTable(
  "rate_limit_rules",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    appId: text("app_id")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    targetChannel: text("target_channel", { enum: ["all", "personal", "official_account", "wecom_internal"] }).notNull(),
    periodUnit: text("period_unit", { enum: ["second", "minute", "hour", "day"] }).notNull(),
    count: integer("count").notNull(),
    /** Null: no reply when exceeded (the default). */
    replyWhenExceeded: text("reply_when_exceeded"),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [index("rate_limit_rules_app_idx").on(table.appId)],
);

/** Threshold configuration per scene (spec §3: "Threshold config exists per scene"). */
export const thresholdConfigs = sqliteTable(
  "threshold_configs",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    scene: text("scene").notNull(),
    /** JSON of the scene's thresholds. */
    config: text("config").notNull(),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [uniqueIndex("threshold_configs_scene_unique").on(table.spaceId, table.scene)],
);
