import { describe, expect, it } from "vitest";
import { buildFtsQuery, searchTerms, segmentForSearch } from "./text";

describe("segmentForSearch", () => {
  it("splits Chinese into words and their sub-words, so two-character words are terms", () => {
    const terms = searchTerms("我们在北京大学学习人工智能");
    expect(terms).toEqual(expect.arrayContaining(["北京", "大学", "北京大学", "学习"]));
  });

  it("lowercases and stems English, keeps digits, drops punctuation", () => {
    expect(segmentForSearch("Running STUDIES, in 2024: vaccines!")).toBe("run studi in 2024 vaccin");
  });

  it("separates Latin words from adjacent Chinese", () => {
    expect(searchTerms("GPT模型")).toEqual(["gpt", "模型"]);
  });
});

describe("buildFtsQuery", () => {
  it("ORs the distinct quoted terms", () => {
    expect(buildFtsQuery("vaccines and Vaccine")).toBe('"vaccin" OR "and"');
  });

  it("drops FTS5 syntax so a query cannot inject operators or column filters", () => {
    expect(buildFtsQuery('search_text: "a" NEAR(b) * ^c -d')).toBe('"search" OR "text" OR "a" OR "near" OR "b" OR "c" OR "d"');
    expect(buildFtsQuery("*** () :: \"")).toBe("");
  });
});
