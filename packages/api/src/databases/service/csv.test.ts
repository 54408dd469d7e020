import { describe, expect, it } from "vitest";
import { CsvError, csvBatches } from "./csv";

const all = (text: string, batchSize = 1000) => [...csvBatches(text, batchSize)];

describe("csvBatches", () => {
  it("reads quoted fields with commas, doubled quotes and line breaks, naming each row by the line it starts on", () => {
    const text = '\ufeffname,note\r\nAda,"likes ""tea"", and cake"\r\n\r\nBen,"two\nlines"\r\n  Cy  , plain \r\n';
    expect(all(text).flat()).toEqual([
      { line: 1, cells: ["name", "note"] },
      { line: 2, cells: ["Ada", 'likes "tea", and cake'] },
      { line: 4, cells: ["Ben", "two\nlines"] },
      { line: 6, cells: ["Cy", "plain"] },
    ]);
  });

  it("cuts batches of the asked size across papaparse's chunks and loses no row", () => {
    const rows = Array.from({ length: 120_000 }, (_, index) => `row ${index},"quoted, ${index}",${index * 2}`);
    const batches = all(rows.join("\n"), 5000);
    expect(batches.slice(0, -1).every((batch) => batch.length === 5000)).toBe(true);
    const flat = batches.flat();
    expect(flat).toHaveLength(120_000);
    expect(flat[119_999]).toEqual({ line: 120_000, cells: ["row 119999", "quoted, 119999", "239998"] });
  });

  it("refuses a quoted field that is never closed, naming its line", () => {
    expect(() => all('a,b\nc,"open\nd,e\n')).toThrow(CsvError);
    expect(() => all('a,b\nc,"open\nd,e\n')).toThrow(/^line 2: /);
  });
});
