import { describe, expect, it } from "vitest";
import {
  checkChunkOverlap,
  checkChunkTokens,
  checkDocument,
  checkFeishuUrl,
  checkMedia,
  checkMediaName,
  checkUpload,
  checkWebsiteUrl,
  csvHeader,
  duplicateFields,
  UPLOAD_EXTENSIONS,
  checkFileName,
  extensionOf,
  filterByName,
  hasActiveFiles,
  similarityHint,
  stemOf,
  suggestFileName,
} from "./knowledge-rules";

describe("file name rule (spec §5)", () => {
  it("accepts letters, digits, _ and - up to 50 characters", () => {
    expect(checkFileName("returns-policy_2026")).toBeUndefined();
    expect(checkFileName("a".repeat(50))).toBeUndefined();
  });
  it("names what is wrong", () => {
    expect(checkFileName("")).toBe("knowledge.rules.fileNameRequired");
    expect(checkFileName("   ")).toBe("knowledge.rules.fileNameRequired");
    expect(checkFileName("a".repeat(51))).toBe("knowledge.rules.fileNameTooLong");
    expect(checkFileName("returns policy")).toBe("knowledge.rules.fileNameCharacters");
    expect(checkFileName("退货政策")).toBe("knowledge.rules.fileNameCharacters");
    expect(checkFileName("policy.md")).toBe("knowledge.rules.fileNameCharacters");
  });
  it("suggests a valid name from any upload", () => {
    expect(suggestFileName("Returns policy (v2).md")).toBe("Returns_policy_v2");
    expect(suggestFileName("café-menu.pdf")).toBe("cafe-menu");
    expect(suggestFileName("退货政策.docx")).toBe("");
    expect(checkFileName(suggestFileName(`${"x".repeat(80)}.txt`))).toBeUndefined();
  });
  it("splits extensions", () => {
    expect(extensionOf("a.b.PDF")).toBe("pdf");
    expect(extensionOf(".md")).toBe("");
    expect(stemOf("a.b.PDF")).toBe("a.b");
    expect(stemOf("README")).toBe("README");
  });
});

describe("document checks mirror the server", () => {
  it("accepts txt, md, pdf and docx up to 10 MB", () => {
    for (const name of ["a.txt", "a.md", "a.PDF", "a.docx"]) expect(checkDocument({ name, size: 10 })).toBeUndefined();
    expect(checkDocument({ name: "a.md", size: 10 * 1024 * 1024 })).toBeUndefined();
  });
  it("refuses other types, empty files and larger ones", () => {
    expect(checkDocument({ name: "a.csv", size: 10 })).toBe("knowledge.rules.documentType");
    expect(checkDocument({ name: "md", size: 10 })).toBe("knowledge.rules.documentType");
    expect(checkDocument({ name: "a.md", size: 0 })).toBe("knowledge.rules.fileEmpty");
    expect(checkDocument({ name: "a.md", size: 10 * 1024 * 1024 + 1 })).toBe("knowledge.rules.fileTooLarge");
  });
});

describe("Q&A and table uploads", () => {
  it("take a CSV (Q&A) or a csv/xlsx sheet (table)", () => {
    expect(checkUpload({ name: "faq.csv", size: 10 }, UPLOAD_EXTENSIONS.qa)).toBeUndefined();
    expect(checkUpload({ name: "faq.xlsx", size: 10 }, UPLOAD_EXTENSIONS.qa)).toBe("knowledge.rules.documentType");
    expect(checkUpload({ name: "prices.XLSX", size: 10 }, UPLOAD_EXTENSIONS.table)).toBeUndefined();
    expect(checkUpload({ name: "prices.csv", size: 11 * 1024 * 1024 }, UPLOAD_EXTENSIONS.table)).toBe("knowledge.rules.fileTooLarge");
  });
});

describe("csvHeader", () => {
  it("reads the first row as field names", () => {
    expect(csvHeader("SKU,Name,Price\nA-1,Kettle,39\n")).toEqual(["SKU", "Name", "Price"]);
    expect(csvHeader("\uFEFF编号, 名称 ,价格\r\n1,2,3")).toEqual(["编号", "名称", "价格"]);
  });
  it("keeps commas, quotes and line breaks inside quoted names", () => {
    expect(csvHeader('"Size, cm","The ""best"" name","two\nlines",last')).toEqual(["Size, cm", 'The "best" name', "two\nlines", "last"]);
  });
  it("answers nothing for an empty text and keeps empty names for the server to refuse", () => {
    expect(csvHeader("")).toEqual([]);
    expect(csvHeader("a,,c")).toEqual(["a", "", "c"]);
  });
});

describe("duplicateFields", () => {
  it("names each repeated field once", () => {
    expect(duplicateFields(["SKU", "Name", "SKU", "Price", "SKU", "Name"])).toEqual(["SKU", "Name"]);
    expect(duplicateFields(["SKU", "sku"])).toEqual([]);
  });
});

describe("import addresses (spec §5)", () => {
  it("takes websites over http or https", () => {
    expect(checkWebsiteUrl("https://example.com/help")).toBeUndefined();
    expect(checkWebsiteUrl(" http://example.com ")).toBeUndefined();
    expect(checkWebsiteUrl("")).toBe("knowledge.rules.urlRequired");
    expect(checkWebsiteUrl("example.com")).toBe("knowledge.rules.websiteUrl");
    expect(checkWebsiteUrl("ftp://example.com")).toBe("knowledge.rules.websiteUrl");
    expect(checkWebsiteUrl("https://")).toBe("knowledge.rules.websiteUrl");
  });
  it("takes Feishu documents over https only", () => {
    expect(checkFeishuUrl("https://acme.feishu.cn/docx/AbC123")).toBeUndefined();
    expect(checkFeishuUrl("http://acme.feishu.cn/docx/AbC123")).toBe("knowledge.rules.feishuUrl");
    expect(checkFeishuUrl(undefined)).toBe("knowledge.rules.urlRequired");
  });
});

describe("media materials", () => {
  it("take images, PDFs and videos up to 15 MB", () => {
    for (const name of ["map.png", "map.JPG", "a.jpeg", "a.gif", "a.webp", "manual.pdf", "clip.mp4"]) expect(checkMedia({ name, size: 10 })).toBeUndefined();
    expect(checkMedia({ name: "clip.mov", size: 10 })).toBe("knowledge.rules.mediaType");
    expect(checkMedia({ name: "clip.mp4", size: 15 * 1024 * 1024 + 1 })).toBe("knowledge.rules.fileTooLarge");
  });
  it("are named with 1–100 characters and no slashes", () => {
    expect(checkMediaName("shipping map 2026.png")).toBeUndefined();
    expect(checkMediaName(" ")).toBe("knowledge.rules.mediaNameRequired");
    expect(checkMediaName("x".repeat(101))).toBe("knowledge.rules.mediaNameTooLong");
    expect(checkMediaName("maps/2026.png")).toBe("knowledge.rules.mediaNameSlash");
    expect(checkMediaName("maps\\2026.png")).toBe("knowledge.rules.mediaNameSlash");
  });
});

describe("chunking", () => {
  it("keeps the segment size within 50–4000", () => {
    expect(checkChunkTokens(50)).toBeUndefined();
    expect(checkChunkTokens(4000)).toBeUndefined();
    expect(checkChunkTokens(49)).toBe("knowledge.rules.chunkTokensRange");
    expect(checkChunkTokens(4001)).toBe("knowledge.rules.chunkTokensRange");
    expect(checkChunkTokens(100.5)).toBe("knowledge.rules.chunkTokensRange");
    expect(checkChunkTokens(null)).toBe("knowledge.rules.chunkTokensRequired");
  });
  it("keeps the overlap below the size", () => {
    expect(checkChunkOverlap(0, 500)).toBeUndefined();
    expect(checkChunkOverlap(499, 500)).toBeUndefined();
    expect(checkChunkOverlap(500, 500)).toBe("knowledge.rules.chunkOverlapBelowSize");
    expect(checkChunkOverlap(1001, 4000)).toBe("knowledge.rules.chunkOverlapRange");
    expect(checkChunkOverlap(-1, 500)).toBe("knowledge.rules.chunkOverlapRange");
    expect(checkChunkOverlap(undefined, 500)).toBe("knowledge.rules.chunkOverlapRequired");
  });
});

describe("small helpers", () => {
  it("hints the similarity threshold (spec §9: 0.8 / 0.7)", () => {
    expect(similarityHint(0.85)).toBe("strict");
    expect(similarityHint(0.8)).toBe("strict");
    expect(similarityHint(0.75)).toBe("balanced");
    expect(similarityHint(0.7)).toBe("loose");
    expect(similarityHint(0)).toBe("loose");
  });
  it("polls only while a file is processing", () => {
    expect(hasActiveFiles([{ status: "effective" }, { status: "failed" }, { status: "pending" }])).toBe(false);
    expect(hasActiveFiles([{ status: "effective" }, { status: "processing" }])).toBe(true);
  });
  it("filters by name ignoring case", () => {
    const items = [{ name: "Product manuals" }, { name: "FAQ" }];
    expect(filterByName(items, " manual ")).toEqual([{ name: "Product manuals" }]);
    expect(filterByName(items, "")).toHaveLength(2);
  });
});
