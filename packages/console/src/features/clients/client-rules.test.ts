import { describe, expect, it } from "vitest";
import { checkColor, checkName, checkOrigins, checkSlogan, embedSnippet, parseOrigins } from "./client-rules";

describe("web client rules", () => {
  it("limits the slogan to 20 characters", () => {
    expect(checkSlogan("a".repeat(20))).toBeUndefined();
    expect(checkSlogan("a".repeat(21))).toBe("clients.rules.sloganTooLong");
    expect(checkSlogan("你".repeat(20))).toBeUndefined();
  });
  it("accepts only #rrggbb colours", () => {
    expect(checkColor("#2563eb")).toBeUndefined();
    expect(checkColor("#fff")).toBe("clients.rules.colorInvalid");
    expect(checkColor("red")).toBe("clients.rules.colorInvalid");
  });
  it("accepts bare http(s) origins one per line", () => {
    expect(parseOrigins("https://a.com\n\n http://b.com:8080 \n")).toEqual(["https://a.com", "http://b.com:8080"]);
    expect(checkOrigins("https://a.com\nhttp://b.com:8080")).toBeUndefined();
    expect(checkOrigins("")).toBeUndefined();
    expect(checkOrigins("https://a.com/")).toBe("clients.rules.originInvalid");
    expect(checkOrigins("https://a.com/path")).toBe("clients.rules.originInvalid");
    expect(checkOrigins("ftp://a.com")).toBe("clients.rules.originInvalid");
    expect(checkOrigins("a.com")).toBe("clients.rules.originInvalid");
  });
  it("requires a name", () => {
    expect(checkName("  ")).toBe("clients.rules.nameRequired");
    expect(checkName("Shop")).toBeUndefined();
  });
  it("builds the script tag", () => {
    expect(embedSnippet("http://x.test", "wc_1")).toBe('<script src="http://x.test/widget.js" data-client-id="wc_1"></script>');
  });
});
