import { describe, expect, it } from "vitest";
import { ACCEPT, fileUrl } from "./attachments";
import { uploadsEn, uploadsZh } from "./i18n-uploads";
import { fileProblem, formatSize, readUpload } from "./uploads";

describe("files in chat", () => {
  it("checks a file by its name and size before uploading it", () => {
    expect(ACCEPT.split(",").map((extension) => fileProblem(`a${extension.toUpperCase()}`, 10))).toEqual(Array(7).fill(undefined));
    expect(fileProblem("setup.exe", 10)).toBe("type");
    expect(fileProblem("png", 10)).toBe("type");
    expect(fileProblem("photo.png", 5 * 1024 * 1024)).toBeUndefined();
    expect(fileProblem("photo.jpeg", 5 * 1024 * 1024 + 1)).toBe("size");
    expect(fileProblem("manual.pdf", 15 * 1024 * 1024)).toBeUndefined();
    expect(fileProblem("manual.docx", 15 * 1024 * 1024 + 1)).toBe("size");
  });

  it("shows sizes and reads an upload's answer or refusal", () => {
    expect([512, 12_345, 3_600_000].map(formatSize)).toEqual(["512 B", "12 KB", "3.4 MB"]);
    const file = { id: "f1", name: "a.png", kind: "image", mimeType: "image/png", sizeBytes: 1, url: "/x", createdAt: "2026-11-26T00:00:00Z" };
    expect(readUpload(201, JSON.stringify({ success: true, data: file }))).toEqual({ file });
    expect(readUpload(413, JSON.stringify({ success: false, message: "The file is too large." }))).toEqual({ message: "The file is too large." });
    expect(readUpload(502, "<html>Bad gateway</html>")).toEqual({ message: "" });
    expect(readUpload(0, "")).toEqual({ message: "" });
  });

  it("puts the API base in front of a file's relative address and drops anything but http(s)", () => {
    const url = "/api/v1/chat-files/f1/content?expires=1&signature=ab";
    expect(fileUrl("https://chat.example.com/", url)).toBe(`https://chat.example.com${url}`);
    expect(fileUrl("https://chat.example.com", "https://cdn.example.com/a.png")).toBe("https://cdn.example.com/a.png");
    expect(["javascript:alert(1)", "//evil.example/a.png", "data:image/png;base64,AA"].map((bad) => fileUrl("https://chat.example.com", bad))).toEqual([
      "",
      "",
      "",
    ]);
  });

  it("has the same upload strings in Chinese as in English", () => {
    expect(Object.keys(uploadsZh).sort()).toEqual(Object.keys(uploadsEn).sort());
  });
});
