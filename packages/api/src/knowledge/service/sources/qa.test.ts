import { describe, expect, it } from "vitest";
import { ServiceError } from "../../../errors";
import { parseQaCsv, parseSearchMethod, qaCsvOf, qaRecord, qaTemplate } from "./qa";

const utf8 = (text: string) => new TextEncoder().encode(text);

function refusal(run: () => unknown): ServiceError {
  try {
    run();
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("Q&A CSV", () => {
  it("reads English and Chinese titles in any order, quoted cells and a BOM", () => {
    const english = parseQaCsv(utf8('\uFEFFquestion,answer,search method\n"How, when?","Line one\nline two",question_answer\n'));
    expect(english.pairs).toEqual([{ question: "How, when?", answer: "Line one\nline two", searchMethod: "question_answer" }]);
    const chinese = parseQaCsv(utf8("检索方式,答案,问题,附带素材\n仅问题,七天内,多久退货？,https://example.com/a.png\n问题和答案,包邮,运费？,\n"));
    expect(chinese.pairs).toEqual([
      { question: "多久退货？", answer: "七天内", searchMethod: "question", material: { type: "url", url: "https://example.com/a.png" } },
      { question: "运费？", answer: "包邮", searchMethod: "question_answer" },
    ]);
    expect(chinese.lines).toEqual([2, 3]);
  });

  it("counts rows with an empty question or answer, or an unknown method or material, by their line", () => {
    const parsed = parseQaCsv(utf8('question,answer,search method\nok?,yes,\n,no question,question\n"multi\nline",,question\nq,a,sometimes\nq2,a2,question\n'));
    expect(parsed.pairs.map((pair) => pair.question)).toEqual(["ok?", "q2"]);
    expect(parsed.failures).toEqual([
      { row: 3, reason: "qa_question_empty" },
      { row: 4, reason: "qa_answer_empty" },
      { row: 6, reason: "qa_search_method_invalid", params: { value: "sometimes" } },
    ]);
    expect(parsed.totalRows).toBe(5);
    const material = parseQaCsv(utf8("question,answer,search method,material\nq,a,question,not a link\n"));
    expect(material.failures).toEqual([{ row: 2, reason: "qa_material_invalid" }]);
  });

  it("refuses missing or unknown columns by name, and bytes that are not UTF-8", () => {
    expect(refusal(() => parseQaCsv(utf8("question,reply\nq,a\n")))).toMatchObject({
      messageId: "qa_columns_missing",
      params: { columns: "answer, search method" },
    });
    expect(refusal(() => parseQaCsv(utf8("question,answer,search method,notes\nq,a,question,x\n")))).toMatchObject({
      messageId: "qa_columns_unknown",
      params: { columns: "notes" },
    });
    // "问题,答案" saved as GBK.
    const gbk = new Uint8Array([0xce, 0xca, 0xcc, 0xe2, 0x2c, 0xb4, 0xf0, 0xb0, 0xb8, 0x0a]);
    expect(refusal(() => parseQaCsv(gbk))).toMatchObject({ messageId: "file_encoding_error", extra: { field: "file" } });
  });

  it("indexes question-only pairs by their question, and the others by both", () => {
    expect(qaRecord({ question: "Q1", answer: "A1", searchMethod: "question" })).toEqual({
      content: "Q: Q1\nA: A1",
      indexText: "Q1",
      metadata: { question: "Q1", answer: "A1", searchMethod: "question" },
    });
    expect(qaRecord({ question: "Q1", answer: "A1", searchMethod: "question_answer" }).indexText).toBe("Q1\nA1");
    expect(parseSearchMethod("Question and answer")).toBe("question_answer");
    expect(parseSearchMethod("")).toBe("question");
  });

  it("writes the template and exports that read back as the same pairs", () => {
    for (const language of ["en", "zh-CN"] as const) {
      const template = qaTemplate(language);
      expect(template.startsWith("\uFEFF")).toBe(true);
      const parsed = parseQaCsv(utf8(template));
      expect(parsed.failures).toEqual([]);
      expect(parsed.pairs).toHaveLength(2);
      expect(parseQaCsv(utf8(qaCsvOf(parsed.pairs, language))).pairs).toEqual(parsed.pairs);
    }
    expect(qaTemplate("zh-CN").split("\r\n")[0]).toBe("\uFEFF问题,答案,检索方式,附带素材");
  });
});
