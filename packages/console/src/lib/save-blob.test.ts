import { describe, expect, it } from "vitest";
import { fileNameOfDisposition } from "./save-blob";

describe("fileNameOfDisposition", () => {
  it("prefers the UTF-8 name, which keeps non-ASCII characters", () => {
    expect(fileNameOfDisposition(`attachment; filename="____.csv"; filename*=UTF-8''${encodeURIComponent("问答.csv")}`)).toBe("问答.csv");
  });
  it("reads a plain quoted or bare name", () => {
    expect(fileNameOfDisposition('attachment; filename="returns-policy.md"')).toBe("returns-policy.md");
    expect(fileNameOfDisposition("attachment; filename=prices.csv")).toBe("prices.csv");
  });
  it("answers undefined when there is no name", () => {
    expect(fileNameOfDisposition(null)).toBeUndefined();
    expect(fileNameOfDisposition("inline")).toBeUndefined();
    expect(fileNameOfDisposition('attachment; filename=""')).toBeUndefined();
  });
  it("falls back to the plain name when the UTF-8 one is malformed", () => {
    expect(fileNameOfDisposition(`attachment; filename="a.txt"; filename*=UTF-8''%E4%ZZ`)).toBe("a.txt");
  });
});
