import { and, desc, eq, inArray, sql } from "drizzle-orm";
import Papa from "papaparse";
import { newId } from "../../crypto";
import { knowledgeChunks, knowledgeEvalQuestions, knowledgeEvalRuns, knowledgeFiles } from "../../db/schema/index";
import { defaultAppSettings } from "../../apps/service/rules";
import { fail, ServiceError } from "../../errors";
import type { MessageId, MessageParams } from "../../i18n/catalogue";
import type { Auth, Deps } from "../../kernel";
import { evaluationFigures, hitAt, ndcgAt, type QuestionOutcome, ranksOf, recallAt } from "../evaluation/metrics";
import { MAX_RETRIEVED, type RetrievalMode, type RetrievedChunk } from "../retrieval/search";
import { loadKnowledgeBase, type KnowledgeBaseRow } from "./knowledge-bases";
import type { RerankDeps } from "./rerank";
import { retrieveFromKnowledgeBases, searchKnowledgeBases } from "./retrieval";
import { embedderOf } from "./vectors";

type EvalDeps = Pick<Deps, "db" | "knowledge" | "logger" | "now"> & Partial<RerankDeps>;

/** Limits of a question set (also what a synchronous run may take: see decision 0026). */
export const EVALUATION_LIMITS = {
  questionCharacters: 2000,
  passagesPerQuestion: 20,
  questionsPerKnowledgeBase: 500,
  csvRows: 2000,
  /** Largest k of hit rate and recall. */
  maxK: 20,
  /** Runs listed, newest first. */
  listedRuns: 100,
} as const;

/** Characters of a passage kept as its snapshot. */
const EXCERPT_CHARACTERS = 300;
/** Questions searched at once: overlaps a remote embedder's latency without crowding the machine. */
const RUN_CONCURRENCY = 4;

/** A passage an evaluation question expects, as stored: the chunk and a snapshot of it. */
interface StoredPassage {
  chunkId: string;
  fileName: string;
  excerpt: string;
}

/** Settings of an evaluation run; stored as JSON so later settings (a rerank model) add fields. */
export interface EvaluationSettings {
  /** "search": the ranked list of the mode; "app": what an app's chat retrieves with the counts and threshold. */
  path: "search" | "app";
  mode: RetrievalMode;
  /** Cut-off of hit rate and recall. */
  k: number;
  similarityThreshold: number;
  semanticCount?: number;
  fullTextCount?: number;
  /** App path: the rerank model applied after fusion (decision 0025); absent or null, none. */
  rerankModel?: string | null;
  /** App path: reranked hits scored under it are dropped (0–1). */
  rerankThreshold?: number;
}

/** What a run request may send; absent fields take defaults. */
export type EvaluationSettingsInput = Partial<EvaluationSettings>;

type QuestionRow = typeof knowledgeEvalQuestions.$inferSelect;
type RunRow = typeof knowledgeEvalRuns.$inferSelect;

function parsePassages(text: string): StoredPassage[] {
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? (value as StoredPassage[]) : [];
  } catch {
    return [];
  }
}

async function chunksOf(deps: Pick<Deps, "db">, base: KnowledgeBaseRow, chunkIds: readonly string[]) {
  if (chunkIds.length === 0) return new Map<string, { content: string; fileName: string }>();
  const rows = await deps.db
    .select({ id: knowledgeChunks.id, content: knowledgeChunks.content, fileName: knowledgeFiles.name })
    .from(knowledgeChunks)
    .innerJoin(knowledgeFiles, eq(knowledgeFiles.id, knowledgeChunks.fileId))
    .where(and(eq(knowledgeChunks.knowledgeBaseId, base.id), inArray(knowledgeChunks.id, [...new Set(chunkIds)])))
    .all();
  return new Map(rows.map((row) => [row.id, { content: row.content, fileName: row.fileName }]));
}

async function questionViews(deps: Pick<Deps, "db">, base: KnowledgeBaseRow, rows: QuestionRow[]) {
  const stored = rows.map((row) => parsePassages(row.passages));
  const live = await chunksOf(
    deps,
    base,
    stored.flat().map((passage) => passage.chunkId),
  );
  return rows.map((row, index) => ({
    id: row.id,
    knowledgeBaseId: row.knowledgeBaseId,
    question: row.question,
    passages: stored[index]!.map((passage) => {
      const chunk = live.get(passage.chunkId);
      return {
        chunkId: passage.chunkId,
        fileName: chunk?.fileName ?? passage.fileName,
        excerpt: chunk ? chunk.content.slice(0, EXCERPT_CHARACTERS) : passage.excerpt,
        missing: !chunk,
      };
    }),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  }));
}

function checkQuestion(text: string | undefined): string {
  const question = (text ?? "").trim();
  if (!question) throw fail.invalid("evaluation_question_empty", "question");
  if (question.length > EVALUATION_LIMITS.questionCharacters) {
    throw fail.invalid("evaluation_question_too_long", "question", { max: EVALUATION_LIMITS.questionCharacters });
  }
  return question;
}

function snapshotOf(chunkId: string, chunk: { content: string; fileName: string }): StoredPassage {
  return { chunkId, fileName: chunk.fileName, excerpt: chunk.content.slice(0, EXCERPT_CHARACTERS) };
}

/**
 * The passages a question keeps for the chosen segment ids: those it already has keep their
 * snapshot (even when their segment is gone); new ones must be segments of the knowledge base.
 */
async function checkPassages(
  deps: Pick<Deps, "db">,
  base: KnowledgeBaseRow,
  chunkIds: readonly string[] | undefined,
  current: StoredPassage[] = [],
): Promise<StoredPassage[]> {
  const ids = [...new Set(chunkIds ?? [])];
  if (ids.length === 0) throw fail.invalid("evaluation_passages_required", "chunkIds");
  if (ids.length > EVALUATION_LIMITS.passagesPerQuestion) {
    throw fail.invalid("evaluation_passages_too_many", "chunkIds", { max: EVALUATION_LIMITS.passagesPerQuestion });
  }
  const kept = new Map(current.map((passage) => [passage.chunkId, passage]));
  const fresh = ids.filter((id) => !kept.has(id));
  const found = await chunksOf(deps, base, fresh);
  const unknown = fresh.find((id) => !found.has(id));
  if (unknown) throw fail.invalid("evaluation_passage_unknown", "chunkIds", { chunkId: unknown });
  return ids.map((id) => kept.get(id) ?? snapshotOf(id, found.get(id)!));
}

async function questionCount(deps: Pick<Deps, "db">, knowledgeBaseId: string): Promise<number> {
  const row = await deps.db
    .select({ n: sql<number>`count(*)` })
    .from(knowledgeEvalQuestions)
    .where(eq(knowledgeEvalQuestions.knowledgeBaseId, knowledgeBaseId))
    .get();
  return Number(row?.n ?? 0);
}

async function loadQuestion(deps: Pick<Deps, "db">, base: KnowledgeBaseRow, questionId: string): Promise<QuestionRow> {
  const row = await deps.db
    .select()
    .from(knowledgeEvalQuestions)
    .where(and(eq(knowledgeEvalQuestions.id, questionId), eq(knowledgeEvalQuestions.knowledgeBaseId, base.id)))
    .get();
  if (!row) throw fail.notFound("evaluation_question");
  return row;
}

/** The evaluation questions of a knowledge base, oldest first; passages no longer in it are marked missing. */
export async function listEvaluationQuestions(deps: Pick<Deps, "db">, auth: Auth, knowledgeBaseId: string) {
  const base = await loadKnowledgeBase(deps, auth, knowledgeBaseId);
  const rows = await deps.db
    .select()
    .from(knowledgeEvalQuestions)
    .where(eq(knowledgeEvalQuestions.knowledgeBaseId, base.id))
    .orderBy(knowledgeEvalQuestions.createdAt, knowledgeEvalQuestions.id)
    .all();
  return questionViews(deps, base, rows);
}

/** Adds a question with the segments that should answer it. */
export async function createEvaluationQuestion(
  deps: Pick<Deps, "db" | "now">,
  auth: Auth,
  knowledgeBaseId: string,
  input: { question: string; chunkIds: string[] },
) {
  const base = await loadKnowledgeBase(deps, auth, knowledgeBaseId);
  const question = checkQuestion(input.question);
  const passages = await checkPassages(deps, base, input.chunkIds);
  if ((await questionCount(deps, base.id)) >= EVALUATION_LIMITS.questionsPerKnowledgeBase) {
    throw fail.invalid("evaluation_questions_full", undefined, { max: EVALUATION_LIMITS.questionsPerKnowledgeBase });
  }
  const now = deps.now().toISOString();
  const id = newId("keq");
  await deps.db.insert(knowledgeEvalQuestions).values({
    id,
    spaceId: base.spaceId,
    knowledgeBaseId: base.id,
    question,
    passages: JSON.stringify(passages),
    createdBy: auth.userId,
    createdAt: now,
    updatedAt: now,
  });
  const [view] = await questionViews(deps, base, [await loadQuestion(deps, base, id)]);
  return view!;
}

/** Changes a question's text and/or its passages. */
export async function updateEvaluationQuestion(
  deps: Pick<Deps, "db" | "now">,
  auth: Auth,
  knowledgeBaseId: string,
  questionId: string,
  input: { question?: string; chunkIds?: string[] },
) {
  const base = await loadKnowledgeBase(deps, auth, knowledgeBaseId);
  const row = await loadQuestion(deps, base, questionId);
  const question = input.question === undefined ? row.question : checkQuestion(input.question);
  const current = parsePassages(row.passages);
  const passages = input.chunkIds === undefined ? current : await checkPassages(deps, base, input.chunkIds, current);
  await deps.db
    .update(knowledgeEvalQuestions)
    .set({ question, passages: JSON.stringify(passages), updatedAt: deps.now().toISOString() })
    .where(eq(knowledgeEvalQuestions.id, row.id));
  const [view] = await questionViews(deps, base, [await loadQuestion(deps, base, row.id)]);
  return view!;
}

/** Deletes a question; runs already made keep their copy of it. */
export async function deleteEvaluationQuestion(deps: Pick<Deps, "db">, auth: Auth, knowledgeBaseId: string, questionId: string) {
  const base = await loadKnowledgeBase(deps, auth, knowledgeBaseId);
  const row = await loadQuestion(deps, base, questionId);
  await deps.db.delete(knowledgeEvalQuestions).where(eq(knowledgeEvalQuestions.id, row.id));
  return { id: row.id, deleted: true as const };
}

/** One line of a question import that was not imported, with a message id the edge translates. */
export interface ImportLineFailure {
  line: number;
  reason: MessageId;
  params?: MessageParams;
}

/** Segment ids look like this; a passage cell holding one names the segment directly. */
const CHUNK_ID = /^kc_[0-9a-z]+$/i;

async function resolvePassage(deps: Pick<Deps, "db">, base: KnowledgeBaseRow, passage: string): Promise<{ chunkId: string } | ImportLineFailure> {
  if (CHUNK_ID.test(passage)) {
    const found = await chunksOf(deps, base, [passage]);
    return found.has(passage) ? { chunkId: passage } : { line: 0, reason: "evaluation_passage_unknown", params: { chunkId: passage } };
  }
  const rows = await deps.db
    .select({ id: knowledgeChunks.id })
    .from(knowledgeChunks)
    .where(and(eq(knowledgeChunks.knowledgeBaseId, base.id), sql`instr(${knowledgeChunks.content}, ${passage}) > 0`))
    .limit(EVALUATION_LIMITS.passagesPerQuestion + 1)
    .all();
  if (rows.length === 0) return { line: 0, reason: "evaluation_passage_unresolved" };
  if (rows.length > 1)
    return {
      line: 0,
      reason: "evaluation_passage_ambiguous",
      params: { count: rows.length > EVALUATION_LIMITS.passagesPerQuestion ? `${EVALUATION_LIMITS.passagesPerQuestion}+` : rows.length },
    };
  return { chunkId: rows[0]!.id };
}

/**
 * Imports questions from a CSV with the columns `question` and `passage` (a segment's text, or a
 * part of it found in exactly one segment of the knowledge base, or a segment id). Lines with the
 * same question add passages to one question; a line whose passage is not found, or found in
 * several segments, is reported and not imported.
 */
export async function importEvaluationQuestions(deps: Pick<Deps, "db" | "now">, auth: Auth, knowledgeBaseId: string, csv: string) {
  const base = await loadKnowledgeBase(deps, auth, knowledgeBaseId);
  const parsed = Papa.parse<string[]>(csv.charCodeAt(0) === 0xfeff ? csv.slice(1) : csv, { skipEmptyLines: false });
  const [header = [], ...rows] = parsed.data;
  const columns = header.map((cell) => cell.trim().toLowerCase());
  const questionColumn = columns.indexOf("question");
  const passageColumn = columns.indexOf("passage");
  if (questionColumn < 0 || passageColumn < 0) throw fail.invalid("evaluation_csv_columns", "csv");
  const lines = rows
    .map((cells, index) => ({
      line: index + 2,
      question: (cells[questionColumn] ?? "").trim(),
      passage: (cells[passageColumn] ?? "").trim(),
      blank: cells.every((cell) => cell.trim() === ""),
    }))
    .filter((row) => !row.blank);
  if (lines.length === 0) throw fail.invalid("evaluation_csv_empty", "csv");
  if (lines.length > EVALUATION_LIMITS.csvRows) throw fail.invalid("evaluation_csv_too_many_rows", "csv", { max: EVALUATION_LIMITS.csvRows });

  const failures: ImportLineFailure[] = [];
  const grouped = new Map<string, { chunkIds: string[]; lines: number[] }>();
  for (const row of lines) {
    if (!row.question) {
      failures.push({ line: row.line, reason: "evaluation_question_empty" });
      continue;
    }
    if (row.question.length > EVALUATION_LIMITS.questionCharacters) {
      failures.push({ line: row.line, reason: "evaluation_question_too_long", params: { max: EVALUATION_LIMITS.questionCharacters } });
      continue;
    }
    if (!row.passage) {
      failures.push({ line: row.line, reason: "evaluation_passage_empty" });
      continue;
    }
    const resolved = await resolvePassage(deps, base, row.passage);
    if (!("chunkId" in resolved)) {
      failures.push({ ...resolved, line: row.line });
      continue;
    }
    const group = grouped.get(row.question) ?? { chunkIds: [], lines: [] };
    if (!group.chunkIds.includes(resolved.chunkId)) {
      if (group.chunkIds.length >= EVALUATION_LIMITS.passagesPerQuestion) {
        failures.push({ line: row.line, reason: "evaluation_passages_too_many", params: { max: EVALUATION_LIMITS.passagesPerQuestion } });
        continue;
      }
      group.chunkIds.push(resolved.chunkId);
    }
    group.lines.push(row.line);
    grouped.set(row.question, group);
  }

  let room = EVALUATION_LIMITS.questionsPerKnowledgeBase - (await questionCount(deps, base.id));
  const found = await chunksOf(
    deps,
    base,
    [...grouped.values()].flatMap((group) => group.chunkIds),
  );
  const now = deps.now().toISOString();
  const values: Array<typeof knowledgeEvalQuestions.$inferInsert> = [];
  for (const [question, group] of grouped) {
    if (room <= 0) {
      for (const line of group.lines)
        failures.push({ line, reason: "evaluation_questions_full", params: { max: EVALUATION_LIMITS.questionsPerKnowledgeBase } });
      continue;
    }
    room -= 1;
    const passages = group.chunkIds.map((chunkId) => snapshotOf(chunkId, found.get(chunkId)!));
    values.push({
      id: newId("keq"),
      spaceId: base.spaceId,
      knowledgeBaseId: base.id,
      question,
      passages: JSON.stringify(passages),
      createdBy: auth.userId,
      createdAt: now,
      updatedAt: now,
    });
  }
  if (values.length > 0) await deps.db.insert(knowledgeEvalQuestions).values(values);
  failures.sort((left, right) => left.line - right.line);
  return { totalLines: lines.length, importedQuestions: values.length, importedLines: lines.length - failures.length, failures };
}

function resolveSettings(deps: EvalDeps, input: EvaluationSettingsInput): EvaluationSettings {
  const path = input.path ?? "search";
  const k = input.k ?? 10;
  if (path === "search") {
    return { path, mode: input.mode ?? "hybrid", k, similarityThreshold: input.similarityThreshold ?? 0 };
  }
  // The app path starts from what a new app gets, like the retrieval test.
  const defaults = defaultAppSettings();
  const settings = {
    path,
    mode: input.mode ?? defaults.retrievalMode,
    k,
    similarityThreshold: input.similarityThreshold ?? defaults.similarityThreshold,
    semanticCount: input.semanticCount ?? defaults.semanticCount,
    fullTextCount: input.fullTextCount ?? defaults.fullTextCount,
    ...(input.rerankModel ? { rerankModel: input.rerankModel, rerankThreshold: input.rerankThreshold ?? defaults.rerankThreshold } : {}),
  };
  if (settings.semanticCount + settings.fullTextCount > MAX_RETRIEVED) {
    throw fail.invalid("app_retrieval_counts_total", "fullTextCount", { max: MAX_RETRIEVED });
  }
  if (settings.rerankModel && !deps.models?.reranker(settings.rerankModel)) {
    throw fail.invalid("evaluation_rerank_model_unknown", "rerankModel", { id: settings.rerankModel });
  }
  return settings;
}

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** One question's result in a run, as stored and answered. */
interface QuestionResult {
  questionId: string;
  question: string;
  expected: Array<{ chunkId: string; fileName: string; excerpt: string; rank: number | null }>;
  retrieved: Array<{ chunkId: string; fileName: string; score: number }>;
  hit: boolean;
  recall: number;
  ndcg10: number;
}

function runView(row: RunRow) {
  return {
    id: row.id,
    knowledgeBaseId: row.knowledgeBaseId,
    status: row.status,
    settings: parseJson<Record<string, unknown>>(row.settings, {}) as unknown as EvaluationSettings & Record<string, unknown>,
    questionCount: row.questionCount,
    hitRate: row.hitRate,
    recall: row.recall,
    ndcg10: row.ndcg10,
    mrr: row.mrr,
    failureReason: row.status === "failed" ? (parseJson<{ failure?: string }>(row.results, {}).failure ?? null) : null,
    elapsedMs: row.elapsedMs,
    createdBy: row.createdBy,
    createdAt: row.createdAt,
  };
}

async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      out[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * Runs the knowledge base's questions through the production retrieval (the ranked search of a
 * mode, or the app path chat takes) and stores the figures: hit rate and recall at k, nDCG@10,
 * MRR. Synchronous: a set holds at most 500 questions (decision 0026).
 */
export async function runEvaluation(deps: EvalDeps, auth: Auth, knowledgeBaseId: string, input: EvaluationSettingsInput) {
  const base = await loadKnowledgeBase(deps, auth, knowledgeBaseId);
  const settings = resolveSettings(deps, input);
  const embedder = embedderOf(deps, base);
  if (!embedder) throw new ServiceError("conflict", "embedding_model_unavailable");
  const questions = await deps.db
    .select()
    .from(knowledgeEvalQuestions)
    .where(eq(knowledgeEvalQuestions.knowledgeBaseId, base.id))
    .orderBy(knowledgeEvalQuestions.createdAt)
    .all();
  if (questions.length === 0) throw fail.invalid("evaluation_no_questions");
  const stored: EvaluationSettings & { embeddingModel: string } = { ...settings, embeddingModel: embedder.label };
  const depth = Math.max(settings.k, 10);
  const started = performance.now();
  const id = newId("ker");
  const record = (values: Partial<typeof knowledgeEvalRuns.$inferInsert> & Pick<typeof knowledgeEvalRuns.$inferInsert, "status" | "results">) =>
    deps.db.insert(knowledgeEvalRuns).values({
      id,
      spaceId: base.spaceId,
      knowledgeBaseId: base.id,
      settings: JSON.stringify(stored),
      questionCount: questions.length,
      elapsedMs: Math.round(performance.now() - started),
      createdBy: auth.userId,
      createdAt: deps.now().toISOString(),
      ...values,
    });
  const retrieveFor = (query: string): Promise<RetrievedChunk[]> =>
    settings.path === "app"
      ? retrieveFromKnowledgeBases(deps, base.spaceId, [base.id], {
          query,
          mode: settings.mode,
          semanticCount: settings.semanticCount!,
          fullTextCount: settings.fullTextCount!,
          similarityThreshold: settings.similarityThreshold,
          ...(settings.rerankModel ? { rerank: { model: settings.rerankModel, threshold: settings.rerankThreshold ?? 0 } } : {}),
        })
      : searchKnowledgeBases(deps, base.spaceId, [base.id], { query, mode: settings.mode, limit: depth, similarityThreshold: settings.similarityThreshold });
  let results: QuestionResult[];
  try {
    results = await mapLimited(questions, RUN_CONCURRENCY, async (row) => {
      const passages = parsePassages(row.passages);
      const retrieved = (await retrieveFor(row.question)).slice(0, depth);
      const outcome: QuestionOutcome = { expected: passages.map((passage) => passage.chunkId), retrieved: retrieved.map((chunk) => chunk.chunkId) };
      const ranks = ranksOf(outcome);
      return {
        questionId: row.id,
        question: row.question,
        expected: passages.map((passage, index) => ({ ...passage, rank: ranks[index] ?? null })),
        retrieved: retrieved.map((chunk) => ({ chunkId: chunk.chunkId, fileName: chunk.fileName, score: chunk.score })),
        hit: hitAt(outcome, settings.k),
        recall: recallAt(outcome, settings.k),
        ndcg10: ndcgAt(outcome, 10),
      };
    });
  } catch (error) {
    deps.logger.warn("evaluation run failed", { knowledgeBaseId: base.id, error: error instanceof Error ? error.message : String(error) });
    await record({ status: "failed", results: JSON.stringify({ failure: error instanceof Error ? error.message : String(error) }) });
    throw new ServiceError("external", "evaluation_run_failed", { reason: error instanceof Error ? error.message : String(error) });
  }
  const figures = evaluationFigures(
    results.map((result) => ({ expected: result.expected.map((passage) => passage.chunkId), retrieved: result.retrieved.map((chunk) => chunk.chunkId) })),
    settings.k,
  );
  await record({ status: "succeeded", results: JSON.stringify(results), ...figures });
  return { ...runView(await loadRunRow(deps, base, id)), results };
}

async function loadRunRow(deps: Pick<Deps, "db">, base: KnowledgeBaseRow, runId: string): Promise<RunRow> {
  const row = await deps.db
    .select()
    .from(knowledgeEvalRuns)
    .where(and(eq(knowledgeEvalRuns.id, runId), eq(knowledgeEvalRuns.knowledgeBaseId, base.id)))
    .get();
  if (!row) throw fail.notFound("evaluation_run");
  return row;
}

/** The evaluation runs of a knowledge base with their settings and figures, newest first (the latest 100). */
export async function listEvaluationRuns(deps: Pick<Deps, "db">, auth: Auth, knowledgeBaseId: string) {
  const base = await loadKnowledgeBase(deps, auth, knowledgeBaseId);
  const rows = await deps.db
    .select()
    .from(knowledgeEvalRuns)
    .where(eq(knowledgeEvalRuns.knowledgeBaseId, base.id))
    .orderBy(desc(knowledgeEvalRuns.createdAt), desc(knowledgeEvalRuns.id))
    .limit(EVALUATION_LIMITS.listedRuns)
    .all();
  return rows.map(runView);
}

/** One run with its per-question results. */
export async function getEvaluationRun(deps: Pick<Deps, "db">, auth: Auth, knowledgeBaseId: string, runId: string) {
  const base = await loadKnowledgeBase(deps, auth, knowledgeBaseId);
  const row = await loadRunRow(deps, base, runId);
  const results = row.status === "succeeded" ? parseJson<QuestionResult[]>(row.results, []) : [];
  return { ...runView(row), results };
}

/** Deletes a run. */
export async function deleteEvaluationRun(deps: Pick<Deps, "db">, auth: Auth, knowledgeBaseId: string, runId: string) {
  const base = await loadKnowledgeBase(deps, auth, knowledgeBaseId);
  const row = await loadRunRow(deps, base, runId);
  await deps.db.delete(knowledgeEvalRuns).where(eq(knowledgeEvalRuns.id, row.id));
  return { id: row.id, deleted: true as const };
}
