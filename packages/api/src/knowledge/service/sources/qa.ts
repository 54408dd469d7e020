import { fail } from "../../../errors";
import { type MessageId, messageText } from "../../../i18n/catalogue";
import type { Language } from "../../../i18n/language";
import type { PreparedRecord } from "../prepared";
import { csvOf, readCsv, splitHeader } from "./tabular";

/** How a Q&A pair is found: by its question only, or by question and answer (spec §3). */
export const qaSearchMethods = ["question", "question_answer"] as const;

/** One of {@link qaSearchMethods}. */
export type QaSearchMethod = (typeof qaSearchMethods)[number];

/** A material attached to a pair: a media material of the knowledge base, or a link. */
export type QaMaterial = { type: "media"; id: string } | { type: "url"; url: string };

/** A Q&A pair as stored in a chunk's metadata. */
export interface QaPair {
  question: string;
  answer: string;
  searchMethod: QaSearchMethod;
  material?: QaMaterial;
}

/** A row that could not be imported: its line in the CSV and a message id saying why. */
export interface RecordFailure {
  row: number;
  reason: MessageId;
  params?: Record<string, string | number>;
}

/** What a Q&A CSV yields. */
export interface QaImport {
  pairs: QaPair[];
  /** The CSV line each pair came from, in the same order. */
  lines: number[];
  failures: RecordFailure[];
  totalRows: number;
}

type Column = "question" | "answer" | "searchMethod" | "material";

const columnTitles: Record<Column, MessageId> = {
  question: "qa.column.question",
  answer: "qa.column.answer",
  searchMethod: "qa.column.search_method",
  material: "qa.column.material",
};

// Header cells are compared lower-cased with spaces, underscores and hyphens removed.
const columnAliases: Record<Column, string[]> = {
  question: ["question", "问题"],
  answer: ["answer", "答案"],
  searchMethod: ["searchmethod", "检索方式", "搜索方式"],
  material: ["attachedmaterial", "material", "media", "附带素材", "素材", "媒体素材", "附件"],
};

const required: Column[] = ["question", "answer", "searchMethod"];

const methodAliases: Record<string, QaSearchMethod> = {
  question: "question",
  questiononly: "question",
  仅问题: "question",
  questionanswer: "question_answer",
  questionandanswer: "question_answer",
  问题和答案: "question_answer",
  问题与答案: "question_answer",
  问题加答案: "question_answer",
};

function squash(value: string): string {
  return value.toLowerCase().replace(/[\s_-]+/g, "");
}

function columnOf(title: string): Column | undefined {
  const key = squash(title);
  return (Object.keys(columnAliases) as Column[]).find((column) => columnAliases[column].includes(key));
}

/** Reads a search method cell; empty means question only. */
export function parseSearchMethod(value: string): QaSearchMethod | undefined {
  if (value.trim() === "") return "question";
  return methodAliases[squash(value)];
}

/** Reads an attached material cell: a media material id (`mm_…`) or an http(s) URL. */
export function parseMaterial(value: string): QaMaterial | undefined {
  const trimmed = value.trim();
  if (/^mm_[A-Za-z0-9]+$/.test(trimmed)) return { type: "media", id: trimmed };
  if (/^https?:\/\/\S+$/i.test(trimmed)) {
    try {
      return { type: "url", url: new URL(trimmed).toString() };
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * Reads a Q&A CSV made from the template: columns question, answer, search method and an optional
 * attached material, with English or Chinese titles in any order. Missing or unknown columns refuse
 * the whole file (400 naming them); a row with an empty question or answer, or an unknown search
 * method or material, is counted as failed and the other rows are kept.
 */
export function parseQaCsv(bytes: Uint8Array): QaImport {
  const { header, rows } = splitHeader(readCsv(bytes));
  const positions = new Map<Column, number>();
  const unknown: string[] = [];
  header.forEach((title, index) => {
    if (title === "") return;
    const column = columnOf(title);
    if (!column || positions.has(column)) unknown.push(title);
    else positions.set(column, index);
  });
  const missing = required.filter((column) => !positions.has(column)).map((column) => messageText("en", columnTitles[column]));
  if (missing.length > 0) throw fail.invalid("qa_columns_missing", "file", { columns: missing.join(", ") });
  if (unknown.length > 0) throw fail.invalid("qa_columns_unknown", "file", { columns: unknown.join(", ") });

  const cell = (row: string[], column: Column) => {
    const at = positions.get(column);
    return at === undefined ? "" : (row[at] ?? "");
  };
  const pairs: QaPair[] = [];
  const lines: number[] = [];
  const failures: RecordFailure[] = [];
  for (const { line, cells: row } of rows) {
    const question = cell(row, "question");
    const answer = cell(row, "answer");
    if (!question) {
      failures.push({ row: line, reason: "qa_question_empty" });
      continue;
    }
    if (!answer) {
      failures.push({ row: line, reason: "qa_answer_empty" });
      continue;
    }
    const methodCell = cell(row, "searchMethod");
    const searchMethod = parseSearchMethod(methodCell);
    if (!searchMethod) {
      failures.push({ row: line, reason: "qa_search_method_invalid", params: { value: methodCell } });
      continue;
    }
    const materialCell = cell(row, "material");
    const material = materialCell ? parseMaterial(materialCell) : undefined;
    if (materialCell && !material) {
      failures.push({ row: line, reason: "qa_material_invalid" });
      continue;
    }
    pairs.push({ question, answer, searchMethod, ...(material ? { material } : {}) });
    lines.push(line);
  }
  return { pairs, lines, failures, totalRows: rows.length };
}

/** How a pair reads as a segment. */
export function qaContent(pair: Pick<QaPair, "question" | "answer">): string {
  return `Q: ${pair.question}\nA: ${pair.answer}`;
}

/**
 * A pair as a record: shown as "Q: … / A: …", found by its question only or by both, with the
 * pair itself in the metadata.
 */
export function qaRecord(pair: QaPair): PreparedRecord {
  return {
    content: qaContent(pair),
    indexText: pair.searchMethod === "question" ? pair.question : `${pair.question}\n${pair.answer}`,
    metadata: { question: pair.question, answer: pair.answer, searchMethod: pair.searchMethod, ...(pair.material ? { material: pair.material } : {}) },
  };
}

/** Reads a pair back from a chunk's metadata; undefined when the metadata holds none. */
export function qaPairOf(metadata: Record<string, unknown>): QaPair | undefined {
  const { question, answer, searchMethod, material } = metadata;
  if (typeof question !== "string" || typeof answer !== "string") return undefined;
  const method = qaSearchMethods.includes(searchMethod as QaSearchMethod) ? (searchMethod as QaSearchMethod) : "question_answer";
  const attached = material && typeof material === "object" ? (material as QaMaterial) : undefined;
  return { question, answer, searchMethod: method, ...(attached ? { material: attached } : {}) };
}

function materialText(material: QaMaterial | undefined): string {
  if (!material) return "";
  return material.type === "media" ? material.id : material.url;
}

/** Q&A pairs as a CSV in the template's layout, titles in the given language. */
export function qaCsvOf(pairs: QaPair[], language: Language): string {
  const title = (column: Column) => messageText(language, columnTitles[column]);
  return csvOf([
    [title("question"), title("answer"), title("searchMethod"), title("material")],
    ...pairs.map((pair) => [pair.question, pair.answer, messageText(language, `qa.search_method.${pair.searchMethod}`), materialText(pair.material)]),
  ]);
}

/** The Q&A import template: the header and two example rows, in the request's language. */
export function qaTemplate(language: Language): string {
  const examples: Record<Language, QaPair[]> = {
    en: [
      { question: "How long do returns take?", answer: "Refunds reach your account within 5 working days.", searchMethod: "question" },
      {
        question: "Do you ship abroad?",
        answer: "Yes, to 30 countries; see the shipping page.",
        searchMethod: "question_answer",
        material: { type: "url", url: "https://example.com/shipping.png" },
      },
    ],
    "zh-CN": [
      { question: "退货需要多久？", answer: "退款会在 5 个工作日内到账。", searchMethod: "question" },
      {
        question: "支持海外配送吗？",
        answer: "支持，覆盖 30 个国家，详见配送说明。",
        searchMethod: "question_answer",
        material: { type: "url", url: "https://example.com/shipping.png" },
      },
    ],
  };
  return qaCsvOf(examples[language], language);
}
