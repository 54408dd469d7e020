import type { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";
import { ok } from "../http/envelope";
import { defineRoute, idParam, jsonBody } from "../http/openapi";
import { translate } from "../http/translate";
import {
  createEvaluationQuestionBody,
  evaluationImportSchema,
  evaluationQuestionSchema,
  evaluationRunDetailSchema,
  evaluationRunSchema,
  importEvaluationQuestionsBody,
  runEvaluationBody,
  updateEvaluationQuestionBody,
} from "./evaluation-schemas";
import { kbParam } from "./routes";
import { deletedSchema } from "./schemas";
import {
  createEvaluationQuestion,
  deleteEvaluationQuestion,
  deleteEvaluationRun,
  getEvaluationRun,
  importEvaluationQuestions,
  listEvaluationQuestions,
  listEvaluationRuns,
  runEvaluation,
  updateEvaluationQuestion,
} from "./service/evaluation";

const questionParam = kbParam.merge(idParam("questionId", "keq_01jd7w3k5q9x2m4n6p8r"));
const runParam = kbParam.merge(idParam("runId", "ker_01jd7w3k5q9x2m4n6p8r"));

/**
 * Retrieval evaluation of a knowledge base (issue 20): its question set with the passages that
 * should answer each question, and runs measuring hit rate, recall@k and nDCG@10 through the
 * production retrieval. Reading needs the knowledge base's view grant, changing it the edit grant.
 */
export function registerKnowledgeEvaluationRoutes(app: OpenAPIHono<AppEnv>) {
  const tags = ["Knowledge evaluation"];
  const base = "/api/v1/knowledge-bases/{knowledgeBaseId}/evaluation";

  app.openapi(
    defineRoute({
      method: "get",
      path: `${base}/questions`,
      tags,
      summary: "The knowledge base's evaluation questions with their expected passages, oldest first",
      request: { params: kbParam },
      data: z.array(evaluationQuestionSchema),
    }),
    async (c) => ok(c, await listEvaluationQuestions(c.var.deps, c.var.auth, c.req.valid("param").knowledgeBaseId)),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: `${base}/questions`,
      tags,
      status: 201,
      summary: "Add an evaluation question with the segments that should answer it (at most 500 questions, 20 passages each)",
      request: { params: kbParam, body: jsonBody(createEvaluationQuestionBody) },
      data: evaluationQuestionSchema,
    }),
    async (c) => ok(c, await createEvaluationQuestion(c.var.deps, c.var.auth, c.req.valid("param").knowledgeBaseId, c.req.valid("json")), 201),
  );
  app.openapi(
    defineRoute({
      method: "patch",
      path: `${base}/questions/{questionId}`,
      tags,
      summary: "Change an evaluation question's text or passages",
      request: { params: questionParam, body: jsonBody(updateEvaluationQuestionBody) },
      data: evaluationQuestionSchema,
    }),
    async (c) => {
      const { knowledgeBaseId, questionId } = c.req.valid("param");
      return ok(c, await updateEvaluationQuestion(c.var.deps, c.var.auth, knowledgeBaseId, questionId, c.req.valid("json")));
    },
  );
  app.openapi(
    defineRoute({
      method: "delete",
      path: `${base}/questions/{questionId}`,
      tags,
      summary: "Delete an evaluation question (runs keep their copy)",
      request: { params: questionParam },
      data: deletedSchema,
    }),
    async (c) => {
      const { knowledgeBaseId, questionId } = c.req.valid("param");
      return ok(c, await deleteEvaluationQuestion(c.var.deps, c.var.auth, knowledgeBaseId, questionId));
    },
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: `${base}/questions/import`,
      tags,
      summary: "Import evaluation questions from CSV (question, passage); lines whose passage matches no segment or several are reported and skipped",
      request: { params: kbParam, body: jsonBody(importEvaluationQuestionsBody) },
      data: evaluationImportSchema,
    }),
    async (c) => {
      const report = await importEvaluationQuestions(c.var.deps, c.var.auth, c.req.valid("param").knowledgeBaseId, c.req.valid("json").csv);
      const language = c.var.language;
      return ok(c, {
        ...report,
        failures: report.failures.map((failure) => ({ line: failure.line, reason: translate(language, failure.reason, failure.params ?? {}) })),
      });
    },
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: `${base}/runs`,
      tags,
      status: 201,
      summary: "Run the evaluation with the given settings through the production retrieval; answers the run with its figures and per-question results",
      request: { params: kbParam, body: jsonBody(runEvaluationBody) },
      data: evaluationRunDetailSchema,
      extraErrors: { 409: "The knowledge base's embedding model is not configured", 502: "Retrieval failed during the run (the run is kept as failed)" },
    }),
    async (c) => ok(c, await runEvaluation(c.var.deps, c.var.auth, c.req.valid("param").knowledgeBaseId, c.req.valid("json")), 201),
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: `${base}/runs`,
      tags,
      summary: "Evaluation runs with their settings and figures, newest first (the latest 100)",
      request: { params: kbParam },
      data: z.array(evaluationRunSchema),
    }),
    async (c) => ok(c, await listEvaluationRuns(c.var.deps, c.var.auth, c.req.valid("param").knowledgeBaseId)),
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: `${base}/runs/{runId}`,
      tags,
      summary: "An evaluation run with each question's result: ranks of the expected passages and what was retrieved",
      request: { params: runParam },
      data: evaluationRunDetailSchema,
    }),
    async (c) => {
      const { knowledgeBaseId, runId } = c.req.valid("param");
      return ok(c, await getEvaluationRun(c.var.deps, c.var.auth, knowledgeBaseId, runId));
    },
  );
  app.openapi(
    defineRoute({
      method: "delete",
      path: `${base}/runs/{runId}`,
      tags,
      summary: "Delete an evaluation run",
      request: { params: runParam },
      data: deletedSchema,
    }),
    async (c) => {
      const { knowledgeBaseId, runId } = c.req.valid("param");
      return ok(c, await deleteEvaluationRun(c.var.deps, c.var.auth, knowledgeBaseId, runId));
    },
  );
}
