import { index, integer, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";
import { knowledgeBases } from "./knowledge";

/**
 * A question of a knowledge base's evaluation set with the passages (chunks) that should answer
 * it. `passages` is JSON: `[{ chunkId, fileName, excerpt }]`; the file name and excerpt are a
 * snapshot so that a passage deleted or re-chunked later is shown as missing, not lost.
 */
export const knowledgeEvalQuestions = sqliteTable(
  "knowledge_eval_questions",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id").notNull(),
    knowledgeBaseId: text("knowledge_base_id")
      .notNull()
      .references(() => knowledgeBases.id, { onDelete: "cascade" }),
    question: text("question").notNull(),
    passages: text("passages").notNull().default("[]"),
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [index("knowledge_eval_questions_kb_idx").on(table.knowledgeBaseId, table.createdAt)],
);

/**
 * One evaluation run of a knowledge base's question set: the settings it ran with (JSON, open to
 * new fields such as a rerank model), its figures, and per-question results (JSON).
 */
export const knowledgeEvalRuns = sqliteTable(
  "knowledge_eval_runs",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id").notNull(),
    knowledgeBaseId: text("knowledge_base_id")
      .notNull()
      .references(() => knowledgeBases.id, { onDelete: "cascade" }),
    settings: text("settings").notNull().default("{}"),
    status: text("status", { enum: ["succeeded", "failed"] }).notNull(),
    questionCount: integer("question_count").notNull(),
    hitRate: real("hit_rate"),
    recall: real("recall"),
    ndcg10: real("ndcg10"),
    mrr: real("mrr"),
    /** JSON: per question, the expected chunk ids, their ranks and the retrieved ids. */
    results: text("results").notNull().default("[]"),
    elapsedMs: integer("elapsed_ms").notNull().default(0),
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
  },
  (table) => [index("knowledge_eval_runs_kb_idx").on(table.knowledgeBaseId, table.createdAt)],
);
