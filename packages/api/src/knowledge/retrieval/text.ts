import { Jieba } from "@node-rs/jieba";
import { dict } from "@node-rs/jieba/dict.js";
import { stemmer } from "stemmer";

let jieba: Jieba | undefined;

/** The jieba segmenter with its bundled dictionary, loaded once on first use (no network). */
function segmenter(): Jieba {
  jieba ??= Jieba.withDict(dict);
  return jieba;
}

// Han runs go to jieba; any other run of letters, marks and digits is one word. The second
// alternative excludes Han so that "AI模型" splits into "AI" and "模型".
const RUNS = /(\p{Script=Han}+)|((?:(?!\p{Script=Han})[\p{L}\p{M}\p{N}])+)/gu;

// Where a word switches between digits and letters: "covid19" → "covid" | "19".
const DIGIT_BOUNDARY = /(?<=\p{N})(?=\P{N})|(?<=\P{N})(?=\p{N})/u;

/**
 * Words dropped from queries (never from stored text): Chinese particles, common prepositions
 * and conjunctions, and question words. They match nearly every passage, so in an OR query
 * they only add noise; a question's content words decide. English stop words are not listed:
 * measured on SciFact, dropping them changed nothing.
 */
const QUERY_STOP_WORDS = new Set([
  ..."的 地 得 了 着 过 是 在 和 与 及 或 也 都 而 被 把 对 于 以 之 其 为 由 从 向 将 就 又 还 并".split(" "),
  ..."吗 呢 吧 啊 么 呀".split(" "),
  ..."什么 哪 哪里 哪些 哪个 哪儿 谁 多少 几 怎么 怎样 如何 为什么 何 何时".split(" "),
]);

/** A non-Han word as a term: Latin letters Porter-stemmed, anything else as it is. */
function wordTerm(word: string): string {
  return /^[a-z]+$/.test(word) ? stemmer(word) : word;
}

/**
 * Splits text into search terms. The text is first NFKC-normalised, so full-width letters and
 * digits ("ＧＰＴ４", "２０２４") and compatibility forms match their plain spelling. Chinese goes
 * through jieba's search mode (words plus their sub-words, so "北京大学" also yields "北京" and
 * "大学") from the dictionary alone: without jieba's HMM, an unknown name falls apart into
 * the same single characters wherever it occurs, whereas the HMM glues it to its neighbours
 * differently from one sentence to the next, and queries then miss the passage's words.
 * Other words are lowercased and, when they are Latin letters, Porter-stemmed; a word mixing
 * letters and digits is kept whole and also split at each switch ("covid19" → "covid19",
 * "covid", "19"), so "COVID-19" and "covid19" still share terms. Order follows the text.
 */
export function searchTerms(text: string): string[] {
  const terms: string[] = [];
  for (const match of text.normalize("NFKC").matchAll(RUNS)) {
    if (match[1] !== undefined) {
      for (const word of segmenter().cutForSearch(match[1], false)) {
        if (word.trim().length > 0) terms.push(word);
      }
    } else if (match[2] !== undefined) {
      const word = match[2].toLowerCase();
      terms.push(wordTerm(word));
      const parts = word.split(DIGIT_BOUNDARY);
      if (parts.length > 1) terms.push(...parts.map(wordTerm));
    }
  }
  return terms;
}

/**
 * The text stored in `knowledge_chunks.search_text` and indexed by FTS5 (`unicode61`): the
 * search terms of `text` joined by single spaces. Queries must go through the same function
 * (see `buildFtsQuery`) so both sides see identical words.
 */
export function segmentForSearch(text: string): string {
  return searchTerms(text).join(" ");
}

/**
 * The terms a query is searched by: its distinct search terms without the query stop words
 * (Chinese particles and question words such as "的", "什么", "哪里"), unless nothing else is
 * left, in which case all of them.
 */
export function queryTerms(query: string): string[] {
  const distinct = [...new Set(searchTerms(query))];
  const content = distinct.filter((term) => !QUERY_STOP_WORDS.has(term));
  return content.length > 0 ? content : distinct;
}

/**
 * Builds an FTS5 MATCH expression for a user query: its `queryTerms`, each quoted (embedded
 * quotes doubled, so no FTS5 operator or column filter can be injected), joined by OR so that
 * BM25 ranks documents by how many and how rare the matched terms are. Returns an empty
 * string when the query holds no searchable word; callers then skip full-text search.
 */
export function buildFtsQuery(query: string): string {
  return ftsMatchOf(queryTerms(query));
}

/** Terms as an FTS5 MATCH expression: each a quoted string (quotes doubled), OR-ed. */
export function ftsMatchOf(terms: readonly string[]): string {
  return terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(" OR ");
}
