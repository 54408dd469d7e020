import { z } from "@hono/zod-openapi";

const id = (example: string) => z.string().openapi({ example });
const timestamp = z.string().openapi({ example: "2026-03-01T10:00:00.000Z" });
const share = (description: string) => z.number().nullable().openapi({ description, example: 0.8 });

/** A passage an evaluation question expects. */
const passageSchema = z
  .object({
    chunkId: id("kc_01jd7w3k5q9x2m4n6p8r"),
    fileName: z.string().openapi({ example: "returns-policy" }),
    excerpt: z.string().openapi({ description: "The segment's first 300 characters (as saved, when the segment is gone)", example: "Returns are accepted…" }),
    missing: z.boolean().openapi({ description: "True when the segment was deleted or re-chunked since: it can no longer be retrieved", example: false }),
  })
  .openapi("EvaluationPassage");

/** A question of a knowledge base's evaluation set. */
export const evaluationQuestionSchema = z
  .object({
    id: id("keq_01jd7w3k5q9x2m4n6p8r"),
    knowledgeBaseId: id("kb_01jd7w3k5q9x2m4n6p8r"),
    question: z.string().openapi({ example: "How long do returns take?" }),
    passages: z.array(passageSchema).openapi({ description: "The segments that should answer it" }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .openapi("EvaluationQuestion");

const chunkIds = z
  .array(z.string().max(100))
  .max(100)
  .openapi({ description: "Segments of this knowledge base that answer the question (1–20)", example: ["kc_01jd7w3k5q9x2m4n6p8r"] });

/** Body of question create. */
export const createEvaluationQuestionBody = z
  .object({
    question: z.string().max(10_000).openapi({ description: "At most 2000 characters", example: "How long do returns take?" }),
    chunkIds,
  })
  .openapi("CreateEvaluationQuestion");

/** Body of question update: either field. */
export const updateEvaluationQuestionBody = z
  .object({
    question: z.string().max(10_000).optional().openapi({ example: "How long do returns take?" }),
    chunkIds: chunkIds.optional(),
  })
  .openapi("UpdateEvaluationQuestion");

/** Body of a question import. */
export const importEvaluationQuestionsBody = z
  .object({
    csv: z.string().max(900_000).openapi({
      description:
        "UTF-8 CSV text with the columns `question` and `passage`; a passage is a segment's text (or a part found in exactly one segment) or a segment id. Lines with the same question give it several passages",
      example: "question,passage\nHow long do returns take?,Returns are accepted within thirty days",
    }),
  })
  .openapi("ImportEvaluationQuestions");

/** Answer of a question import. */
export const evaluationImportSchema = z
  .object({
    totalLines: z.number().int().openapi({ description: "Non-empty lines below the header", example: 12 }),
    importedLines: z.number().int().openapi({ example: 11 }),
    importedQuestions: z.number().int().openapi({ description: "Questions made (lines with one question make one)", example: 9 }),
    failures: z
      .array(
        z.object({
          line: z.number().int().openapi({ description: "1-based line of the CSV, the header being line 1", example: 4 }),
          reason: z.string().openapi({ description: "Why, in the request's language", example: "No segment of this knowledge base contains the passage" }),
        }),
      )
      .openapi({ description: "Lines not imported" }),
  })
  .openapi("EvaluationImportReport");

const modes = z.enum(["semantic", "fulltext", "hybrid"]);

/** Settings of an evaluation run as stored: open to new fields. */
export const evaluationSettingsSchema = z
  .object({
    path: z
      .enum(["search", "app"])
      .openapi({ description: "search: the ranked list of the mode; app: what an app's chat retrieves with these counts and threshold" }),
    mode: modes,
    k: z.number().int().openapi({ description: "Cut-off of hit rate and recall", example: 10 }),
    similarityThreshold: z.number().openapi({ description: "Minimum calibrated similarity of semantic hits", example: 0 }),
    semanticCount: z.number().int().optional().openapi({ description: "app path only", example: 3 }),
    fullTextCount: z.number().int().optional().openapi({ description: "app path only", example: 1 }),
    rerankModel: z.string().nullable().optional().openapi({ description: "app path: the rerank model applied after fusion", example: "rerank-v3.5" }),
    rerankThreshold: z.number().optional().openapi({ description: "app path: reranked hits under it dropped", example: 0 }),
    embeddingModel: z.string().optional().openapi({ description: "Label of the embedding model the run searched with" }),
  })
  .passthrough()
  .openapi("EvaluationSettings");

/** Body of an evaluation run. */
export const runEvaluationBody = z
  .object({
    path: z.enum(["search", "app"]).optional().openapi({ description: "Default search", example: "search" }),
    mode: modes.optional().openapi({ description: "Default hybrid (search) or a new app's mode (app)", example: "hybrid" }),
    k: z.number().int().min(1).max(20).optional().openapi({ description: "1–20; default 10", example: 10 }),
    similarityThreshold: z.number().min(0).max(1).optional().openapi({ description: "0–1; default 0 (search) or a new app's (app)", example: 0 }),
    semanticCount: z.number().int().min(0).max(10).optional().openapi({ description: "app path; default a new app's (6)", example: 6 }),
    fullTextCount: z.number().int().min(0).max(10).optional().openapi({ description: "app path; default a new app's (4)", example: 4 }),
    rerankModel: z.string().min(1).max(200).nullable().optional().openapi({
      description: "app path: a rerank model of the catalogue (GET /rerank-models) applied after fusion; credits per call",
      example: "rerank-v3.5",
    }),
    rerankThreshold: z.number().min(0).max(1).optional().openapi({ description: "app path: 0–1; default 0", example: 0 }),
  })
  .openapi("RunEvaluation");

/** An evaluation run with its figures. */
export const evaluationRunSchema = z
  .object({
    id: id("ker_01jd7w3k5q9x2m4n6p8r"),
    knowledgeBaseId: id("kb_01jd7w3k5q9x2m4n6p8r"),
    status: z.enum(["succeeded", "failed"]),
    settings: evaluationSettingsSchema,
    questionCount: z.number().int().openapi({ example: 40 }),
    hitRate: share("Share of questions with an expected passage in the top k (null when failed)"),
    recall: share("Mean share of expected passages in the top k"),
    ndcg10: share("Mean nDCG@10, binary relevance"),
    mrr: share("Mean reciprocal rank of the first expected passage"),
    failureReason: z.string().nullable().openapi({ example: null }),
    elapsedMs: z.number().int().openapi({ example: 420 }),
    createdBy: id("usr_01jd7w3k5q9x2m4n6p8r"),
    createdAt: timestamp,
  })
  .openapi("EvaluationRun");

/** A run with each question's result. */
export const evaluationRunDetailSchema = evaluationRunSchema
  .extend({
    results: z.array(
      z.object({
        questionId: z.string(),
        question: z.string().openapi({ description: "The question as it was when run" }),
        expected: z.array(
          z.object({
            chunkId: z.string(),
            fileName: z.string(),
            excerpt: z.string(),
            rank: z.number().int().nullable().openapi({ description: "1-based rank among the retrieved, null when not retrieved" }),
          }),
        ),
        retrieved: z
          .array(z.object({ chunkId: z.string(), fileName: z.string(), score: z.number() }))
          .openapi({ description: "The top max(k, 10), best first" }),
        hit: z.boolean(),
        recall: z.number(),
        ndcg10: z.number(),
      }),
    ),
  })
  .openapi("EvaluationRunDetail");
