import { describe, expect, it } from "vitest";
import { isImageDataUrl, isSafeUrl } from "./safe-url";

describe("safe URLs", () => {
  it("links stay http(s) and site paths only", () => {
    expect(isSafeUrl("https://example.com/a.png")).toBe(true);
    expect(isSafeUrl("/assets/default-app-avatar.png")).toBe(true);
    expect(isSafeUrl("data:image/svg+xml;base64,PHN2Zz4=")).toBe(false);
    expect(isSafeUrl("javascript:alert(1)")).toBe(false);
  });

  it("inline pictures are PNG, JPEG or SVG in base64 only", () => {
    expect(isImageDataUrl("data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=")).toBe(true);
    expect(isImageDataUrl("data:image/png;base64,iVBORw0KGgo=")).toBe(true);
    expect(isImageDataUrl("data:text/html;base64,PHNjcmlwdD4=")).toBe(false);
    expect(isImageDataUrl("data:image/svg+xml,<svg onload=alert(1)>")).toBe(false);
  });
});
