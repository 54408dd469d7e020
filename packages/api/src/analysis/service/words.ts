import { Jieba } from "@node-rs/jieba";
import { dict } from "@node-rs/jieba/dict.js";
import { sql } from "drizzle-orm";
import type { Deps } from "../../kernel";

let jieba: Jieba | undefined;

function segmenter(): Jieba {
  jieba ??= Jieba.withDict(dict);
  return jieba;
}

/** Chinese words that say nothing about what was asked: particles, pronouns, question words, auxiliaries. */
const CHINESE_STOP_WORDS = new Set(
  (
    "的 地 得 了 着 过 是 在 和 与 及 或 也 都 而 被 把 对 于 以 之 其 为 由 从 向 将 就 又 还 并 吗 呢 吧 啊 么 呀 嘛 哦 " +
    "我 你 他 她 它 我们 你们 他们 她们 它们 这 那 这个 那个 这些 那些 这里 那里 自己 什么 哪 哪里 哪些 哪个 谁 多少 几 " +
    "怎么 怎样 如何 为什么 何时 可以 能 能否 会 要 想 请 请问 一下 一个 有 没有 没 不 很 太 更 最 吗 如果 因为 所以 但是 " +
    "然后 还是 或者 以及 就是 现在 已经 需要 应该 您 您好 你好 谢谢 好的"
  ).split(" "),
);

/** English stop words (lower case). */
const ENGLISH_STOP_WORDS = new Set(
  (
    "a an the and or but if then else of to in on at by for with about from into over under as is are was were be been being " +
    "am do does did done have has had having i me my mine we us our you your he him his she her it its they them their this that " +
    "these those there here what which who whom whose when where why how can could will would shall should may might must " +
    "not no yes so than too very just also only any some all each every more most much many such own same other again " +
    "please hi hello thanks thank ok okay get got let s t don doesn didn isn aren wasn weren won can't i'm it's"
  ).split(" "),
);

const HAN = /\p{Script=Han}/u;
const RUNS = /(\p{Script=Han}+)|([A-Za-z][A-Za-z']*)/gu;

/**
 * The words of a question worth counting: Chinese runs segmented by jieba, English words
 * lower-cased; stop words, single Chinese characters, one-letter words and numbers dropped.
 */
export function wordsOf(text: string): string[] {
  const words: string[] = [];
  for (const match of text.normalize("NFKC").matchAll(RUNS)) {
    if (match[1]) {
      for (const word of segmenter().cut(match[1], true)) {
        if (word.length >= 2 && HAN.test(word) && !CHINESE_STOP_WORDS.has(word)) words.push(word);
      }
    } else if (match[2]) {
      const word = match[2].toLowerCase().replace(/'+$/, "");
      if (word.length >= 2 && !ENGLISH_STOP_WORDS.has(word)) words.push(word);
    }
  }
  return words;
}

/** How often each word occurs in a text (see {@link wordsOf}). */
export function wordCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of wordsOf(text)) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

/** The longest word kept; longer runs are noise (pasted ids, URLs without separators). */
const MAX_WORD_LENGTH = 40;

/**
 * Adds a question's words to the day's counts of its app and channel (the usage-record writer
 * calls it for each answered turn), in one statement.
 */
export async function countQuestionWords(
  deps: Pick<Deps, "db">,
  input: { spaceId: string; appId: string; channel: string; text: string; at: string },
): Promise<void> {
  const counts = [...wordCounts(input.text)].filter(([word]) => word.length <= MAX_WORD_LENGTH).slice(0, 100);
  if (counts.length === 0) return;
  const day = input.at.slice(0, 10);
  const rows = counts.map(([word, count]) => sql`(${input.spaceId}, ${day}, ${input.appId}, ${input.channel}, ${word}, ${count})`);
  await deps.db.run(sql`INSERT INTO usage_words (space_id, day, app_id, channel, word, count) VALUES ${sql.join(rows, sql`, `)}
    ON CONFLICT (space_id, day, app_id, channel, word) DO UPDATE SET count = count + excluded.count`);
}
