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

/**
 * Splits text into search terms: Chinese through jieba's search mode (words plus their
 * sub-words, so "北京大学" also yields "北京" and "大学"), other words lowercased and, when they
 * are Latin letters, Porter-stemmed. Digits are kept as words. Order follows the text.
 */
export function searchTerms(text: string): string[] {
  const terms: string[] = [];
  for (const match of text.matchAll(RUNS)) {
    if (match[1] !== undefined) {
      for (const word of segmenter().cutForSearch(match[1], true)) {
        if (word.trim().length > 0) terms.push(word);
      }
    } else if (match[2] !== undefined) {
      const word = match[2].toLowerCase();
      terms.push(/^[a-z]+$/.test(word) ? stemmer(word) : word);
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
 * Builds an FTS5 MATCH expression for a user query: its distinct search terms, each quoted
 * (embedded quotes doubled, so no FTS5 operator or column filter can be injected), joined by
 * OR so that BM25 ranks documents by how many and how rare the matched terms are. Returns an
 * empty string when the query holds no searchable word; callers then skip full-text search.
 */
export function buildFtsQuery(query: string): string {
  const distinct = [...new Set(searchTerms(query))];
  return distinct.map((term) => `"${term.replaceAll('"', '""')}"`).join(" OR ");
}
