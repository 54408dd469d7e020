/** The BEIR layout the retrieval benchmarks read: `corpus.jsonl`, `queries.jsonl` and a qrels TSV. */
import fs from "node:fs";
import path from "node:path";

/** One JSON value per non-empty line. */
export function readJsonl<T>(file: string): T[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as T);
}

/** A BEIR data set: its documents, its questions by id, and the graded relevant documents of each question. */
export interface BeirSet {
  corpus: { _id: string; title?: string; text: string }[];
  queries: Map<string, string>;
  qrels: Map<string, Map<string, number>>;
}

/** Reads a BEIR folder and a qrels file (header line, then `query-id  corpus-id  score`). */
export function readBeir(folder: string, qrelsFile: string): BeirSet {
  const corpus = readJsonl<{ _id: string; title?: string; text: string }>(path.join(folder, "corpus.jsonl"));
  const queries = new Map(readJsonl<{ _id: string; text: string }>(path.join(folder, "queries.jsonl")).map((query) => [query._id, query.text]));
  const qrels = new Map<string, Map<string, number>>();
  for (const line of fs.readFileSync(qrelsFile, "utf8").split("\n").slice(1)) {
    const [queryId, docId, grade] = line.trim().split("\t");
    if (!queryId || !docId || grade === undefined) continue;
    if (!qrels.has(queryId)) qrels.set(queryId, new Map());
    qrels.get(queryId)!.set(docId, Number(grade));
  }
  return { corpus, queries, qrels };
}
