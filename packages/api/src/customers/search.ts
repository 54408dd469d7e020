import { and, type SQL, sql } from "drizzle-orm";
import { keywordMatch } from "../db/query-helpers";
import { customers } from "../db/schema/index";
import type { Deps } from "../kernel";

/*
 * Customer keyword search: `customers_search` (FTS5, trigram tokenizer, migration 0022) holds a
 * copy of each customer's nickname, company, remark and WeChat under the customer's rowid,
 * written by triggers on every insert, change of those fields and delete of a customer, plus
 * `grams`: every character of those fields as «x» and every pair of adjacent characters as xy»,
 * each one trigram, since trigrams alone cannot find a keyword of 1 or 2 characters (李, 王芳).
 * A keyword of 3 or more characters is a trigram phrase over the four fields, a shorter one its
 * gram. The index only narrows the rows: the LIKE of the keyword is still applied to them, so
 * the search finds exactly the customers a LIKE scan finds (the index folds more case than
 * LIKE, and a gram may come from elsewhere in the text, so it finds a superset).
 */

const FIELDS = [customers.nickname, customers.company, customers.remark, customers.wechat];

const phrase = (text: string) => `"${text.replace(/"/g, '""')}"`;

/**
 * Above this many index matches a keyword is common: the list's order index with the LIKE fills
 * a page after a few hundred rows, faster than reading and sorting every match.
 */
export const SELECTIVE_MATCHES = 2_000;

/**
 * The keyword condition of the customers list: undefined for a blank keyword; the exact LIKE
 * alone for a common keyword; else the LIKE over the index's matches (read by rowid).
 */
export async function customerKeywordMatch(deps: Pick<Deps, "db">, keyword: string | undefined): Promise<SQL | undefined> {
  const like = keywordMatch(FIELDS, keyword);
  if (!like) return undefined;
  const text = keyword!.trim();
  // FTS5 cannot take a NUL in a query string (SQLite ends the string there): the exact LIKE alone answers it.
  if (text.includes("\u0000")) return like;
  const length = [...text].length;
  const match = length >= 3 ? `{nickname company remark wechat} : ${phrase(text)}` : `grams : ${phrase(length === 1 ? `«${text}»` : `${text}»`)}`;
  const [found] = await deps.db.all<{ n: number }>(
    sql`SELECT count(*) AS n FROM (SELECT 1 FROM customers_search WHERE customers_search MATCH ${match} LIMIT ${SELECTIVE_MATCHES + 1})`,
  );
  if (Number(found?.n ?? 0) > SELECTIVE_MATCHES) return like;
  return and(sql`${customers}.rowid IN (SELECT rowid FROM customers_search WHERE customers_search MATCH ${match})`, like);
}
