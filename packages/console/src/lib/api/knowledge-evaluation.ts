import type { components } from "@parley/sdk";
import { call, client, type CallOptions } from "./request";
import { KNOWLEDGE_BASES } from "./knowledge";

type Schemas = components["schemas"];
type Extra = Pick<CallOptions, "silent" | "signal" | "dedupeKey">;

/** A question of a knowledge base's evaluation set with its expected passages. */
export type EvaluationQuestion = Schemas["EvaluationQuestion"];
/** An evaluation run with its settings and figures. */
export type EvaluationRun = Schemas["EvaluationRun"];
/** A run with each question's result. */
export type EvaluationRunDetail = Schemas["EvaluationRunDetail"];
/** Body of a run. */
export type RunEvaluation = Schemas["RunEvaluation"];
/** How a CSV import of questions went. */
export type EvaluationImportReport = Schemas["EvaluationImportReport"];

/** Cache key of a knowledge base's evaluation (questions and runs are below it). */
export const evaluationKey = (knowledgeBaseId: string) => [...KNOWLEDGE_BASES, knowledgeBaseId, "evaluation"];

const kb = (knowledgeBaseId: string) => ({ params: { path: { knowledgeBaseId } } });
const question = (knowledgeBaseId: string, questionId: string) => ({ params: { path: { knowledgeBaseId, questionId } } });
const run = (knowledgeBaseId: string, runId: string) => ({ params: { path: { knowledgeBaseId, runId } } });

/** The retrieval evaluation calls of a knowledge base, through the SDK (issue 20). */
export const evaluationEndpoints = {
  questions: (id: string, extra: Extra = {}) =>
    call(extra, (init) => client.GET("/api/v1/knowledge-bases/{knowledgeBaseId}/evaluation/questions", { ...init, ...kb(id) })),
  createQuestion: (id: string, body: Schemas["CreateEvaluationQuestion"], extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.POST("/api/v1/knowledge-bases/{knowledgeBaseId}/evaluation/questions", { ...init, ...kb(id), body })),
  updateQuestion: (id: string, questionId: string, body: Schemas["UpdateEvaluationQuestion"], extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) =>
      client.PATCH("/api/v1/knowledge-bases/{knowledgeBaseId}/evaluation/questions/{questionId}", { ...init, ...question(id, questionId), body }),
    ),
  removeQuestion: (id: string, questionId: string, extra: Extra = {}) =>
    call(extra, (init) =>
      client.DELETE("/api/v1/knowledge-bases/{knowledgeBaseId}/evaluation/questions/{questionId}", { ...init, ...question(id, questionId) }),
    ),
  importQuestions: (id: string, csv: string, extra: Extra = {}) =>
    call(extra, (init) => client.POST("/api/v1/knowledge-bases/{knowledgeBaseId}/evaluation/questions/import", { ...init, ...kb(id), body: { csv } })),
  runs: (id: string, extra: Extra = {}) =>
    call(extra, (init) => client.GET("/api/v1/knowledge-bases/{knowledgeBaseId}/evaluation/runs", { ...init, ...kb(id) })),
  run: (id: string, body: RunEvaluation, extra: Extra = {}) =>
    call(extra, (init) => client.POST("/api/v1/knowledge-bases/{knowledgeBaseId}/evaluation/runs", { ...init, ...kb(id), body })),
  runDetail: (id: string, runId: string, extra: Extra = {}) =>
    call(extra, (init) => client.GET("/api/v1/knowledge-bases/{knowledgeBaseId}/evaluation/runs/{runId}", { ...init, ...run(id, runId) })),
  removeRun: (id: string, runId: string, extra: Extra = {}) =>
    call(extra, (init) => client.DELETE("/api/v1/knowledge-bases/{knowledgeBaseId}/evaluation/runs/{runId}", { ...init, ...run(id, runId) })),
};
