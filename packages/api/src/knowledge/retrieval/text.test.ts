import { describe, expect, it } from "vitest";
import { buildFtsQuery, queryTerms, searchTerms, segmentForSearch } from "./text";

describe("segmentForSearch", () => {
  it("splits Chinese into words and their sub-words, so two-character words are terms", () => {
    const terms = searchTerms("我们在北京大学学习人工智能");
    expect(terms).toEqual(expect.arrayContaining(["北京", "大学", "北京大学", "学习"]));
  });

  it("segments an unknown name the same way whatever follows it", () => {
    // With jieba's HMM, "湖是" became one word here but not before "的".
    expect(searchTerms("莫拉诺湖是一座城市")).toEqual(["莫", "拉诺", "湖", "是", "一座", "城市"]);
    expect(searchTerms("莫拉诺湖的历史")).toEqual(["莫", "拉诺", "湖", "的", "历史"]);
  });

  it("lowercases and stems English, keeps digits, drops punctuation", () => {
    expect(segmentForSearch("Running STUDIES, in 2024: vaccines!")).toBe("run studi in 2024 vaccin");
  });

  it("keeps a word mixing letters and digits whole and also split at each switch", () => {
    expect(searchTerms("COVID19 cases")).toEqual(["covid19", "covid", "19", "case"]);
    expect(searchTerms("IL6 10mg")).toEqual(["il6", "il", "6", "10mg", "10", "mg"]);
  });

  it("folds full-width and compatibility forms to their plain spelling", () => {
    expect(searchTerms("ＧＰＴ４ ２０２４年 ㎏")).toEqual(["gpt4", "gpt", "4", "2024", "年", "kg"]);
    expect(segmentForSearch("ＡＢＣ")).toBe(segmentForSearch("abc"));
  });

  it("separates Latin words from adjacent Chinese", () => {
    expect(searchTerms("GPT模型")).toEqual(["gpt", "模型"]);
  });
});

describe("queryTerms", () => {
  it("drops Chinese particles and question words, and repeated terms", () => {
    expect(queryTerms("北京大学在哪里？北京大学的校长是谁？")).toEqual(["北京", "大学", "北京大学", "校长"]);
  });

  it("keeps English stop words and stored text keeps every word", () => {
    expect(queryTerms("what is the cause")).toEqual(["what", "is", "the", "caus"]);
    expect(segmentForSearch("北京大学在哪里")).toBe("北京 大学 北京大学 在 哪里");
  });

  it("keeps the stop words when nothing else is left", () => {
    expect(queryTerms("是什么？")).toEqual(["是", "什么"]);
  });
});

describe("buildFtsQuery", () => {
  it("ORs the distinct quoted terms", () => {
    expect(buildFtsQuery("vaccines and Vaccine")).toBe('"vaccin" OR "and"');
    expect(buildFtsQuery("刘备在哪个城市逝世？")).toBe('"刘备" OR "城市" OR "逝世"');
  });

  it("drops FTS5 syntax so a query cannot inject operators or column filters", () => {
    expect(buildFtsQuery('search_text: "a" NEAR(b) * ^c -d')).toBe('"search" OR "text" OR "a" OR "near" OR "b" OR "c" OR "d"');
    expect(buildFtsQuery('*** () :: "')).toBe("");
  });
});
