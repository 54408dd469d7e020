import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServiceError } from "../../../errors";
import { articleHtml, startWebServer, type WebServer } from "../../imports-testing";
import { checkWebsiteUrl, extractReadable, fetchWebPage, fileNameFromTitle, WebsiteImportError } from "./website";

let server: WebServer;
// "退货政策" in GBK, inside a page that declares its charset only in a <meta>.
const gbkTitle = [0xcd, 0xcb, 0xbb, 0xf5, 0xd5, 0xfe, 0xb2, 0xdf];
const gbkPage = Buffer.concat([
  Buffer.from('<!doctype html><html><head><meta charset="gbk"><title>'),
  Buffer.from(gbkTitle),
  Buffer.from("</title></head><body><article><p>"),
  Buffer.from("Returns are accepted within thirty days of delivery when unused. ".repeat(6)),
  Buffer.from("</p></article></body></html>"),
]);

beforeAll(async () => {
  server = await startWebServer((path) => {
    if (path === "/gbk") return { headers: { "content-type": "text/html" }, body: new Uint8Array(gbkPage) };
    if (path === "/plain") return { headers: { "content-type": "text/plain" }, body: "just text" };
    return undefined;
  });
});
afterAll(async () => server.close());

const open = { allowPrivateNetwork: true, allowedHosts: ["127.0.0.1"] };

describe("website source", () => {
  it("accepts only http(s) addresses", () => {
    expect(checkWebsiteUrl(" https://example.com/a ").toString()).toBe("https://example.com/a");
    for (const bad of ["ftp://example.com", "www.example.com", "file:///etc/passwd", "https://"]) {
      expect(() => checkWebsiteUrl(bad), bad).toThrow(ServiceError);
    }
  });

  it("turns an article into Markdown with absolute links and without the page chrome", () => {
    const page = extractReadable(
      articleHtml("Shipping | Shop", [
        "Standard shipping takes three to five working days across the whole country.",
        "Express parcels arrive the next working day when ordered before noon.",
      ]),
      "https://shop.example/help/shipping",
    );
    expect(page?.title).toBe("Shipping | Shop");
    expect(page?.markdown).toMatch(/^# Shipping \| Shop\n\n/);
    expect(page?.markdown).toContain("[terms](https://shop.example/terms)");
    expect(page?.markdown).not.toContain("Copyright");
    expect(extractReadable("<html><body><p>hi</p></body></html>", "https://x.example/")).toBeUndefined();
  });

  it("names files after the title under the file-name rule", () => {
    expect(fileNameFromTitle("Returns Policy | Shop", "shop.example")).toBe("Returns-Policy-Shop");
    expect(fileNameFromTitle("退货政策", "shop.example")).toBe("shop-example");
    expect(fileNameFromTitle("", "")).toBe("imported");
    expect(fileNameFromTitle("a".repeat(80), "x.example")).toHaveLength(50);
  });

  it("decodes a page in the charset it declares, and refuses one that is not HTML", async () => {
    const fetched = await fetchWebPage(new URL(`${server.url}/gbk`), { policy: open, timeoutMs: 2_000, maxBytes: 100_000 });
    expect(extractReadable(fetched.html, fetched.url)?.title).toBe("退货政策");
    await expect(fetchWebPage(new URL(`${server.url}/plain`), { policy: open, timeoutMs: 2_000, maxBytes: 100_000 })).rejects.toThrow(WebsiteImportError);
    await expect(
      fetchWebPage(new URL(`${server.url}/gbk`), { policy: { allowPrivateNetwork: false, allowedHosts: [] }, timeoutMs: 2_000, maxBytes: 100_000 }),
    ).rejects.toThrow(/refused/);
  });
});
