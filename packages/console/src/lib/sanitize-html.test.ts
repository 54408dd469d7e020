import { describe, expect, it } from "vitest";
import { safeHref, sanitizeHtml } from "./sanitize-html";

describe("sanitizeHtml", () => {
  it("keeps simple formatting", () => {
    expect(sanitizeHtml("Your plan <b>expired</b>.<br>Please <em>renew</em>")).toBe("Your plan <b>expired</b>.<br>Please <em>renew</em>");
  });

  it("removes scripts and styles together with their content", () => {
    expect(sanitizeHtml("a<script>alert(1)</script>b<style>*{}</style>c")).toBe("abc");
    expect(sanitizeHtml("a<SCRIPT src=x>alert(1)</script >b")).toBe("ab");
    expect(sanitizeHtml('x<iframe src="https://evil">inner</iframe>y')).toBe("xy");
    expect(sanitizeHtml("open<script>never closed")).toBe("open");
  });

  it("drops every attribute except a safe href", () => {
    expect(sanitizeHtml('<p onclick="steal()" style="color:red">hi</p>')).toBe("<p>hi</p>");
    expect(sanitizeHtml("<img src=x onerror=alert(1)>")).toBe("");
    expect(sanitizeHtml('<a href="https://parley.dev/price" onclick="x()">Upgrade</a>')).toBe(
      '<a href="https://parley.dev/price" target="_blank" rel="noopener noreferrer nofollow">Upgrade</a>',
    );
  });

  it("refuses script-capable link targets, even obfuscated ones", () => {
    expect(sanitizeHtml('<a href="javascript:alert(1)">x</a>')).toBe("<a>x</a>");
    expect(sanitizeHtml('<a href="jav&#x61;script:alert(1)">x</a>')).toBe("<a>x</a>");
    expect(sanitizeHtml('<a href=" java\tscript:alert(1)">x</a>')).toBe("<a>x</a>");
    expect(sanitizeHtml("<a href='data:text/html,<script>'>x</a>")).toBe("<a>x</a>");
    expect(sanitizeHtml('<a href="//evil.example/">x</a>')).toBe("<a>x</a>");
  });

  it("escapes stray markup characters and keeps well-formed entities", () => {
    expect(sanitizeHtml('1 < 2 & 3 > 2 &amp; "q"')).toBe("1 &lt; 2 &amp; 3 &gt; 2 &amp; &quot;q&quot;");
    expect(sanitizeHtml("<unknown>text</unknown>")).toBe("text");
    expect(sanitizeHtml("a<!-- hidden <script> -->b")).toBe("ab");
  });

  it("balances tags", () => {
    expect(sanitizeHtml("<b><i>bold italic</b> tail</i>")).toBe("<b><i>bold italic</i></b> tail");
    expect(sanitizeHtml("<ul><li>one<li>two")).toBe("<ul><li>one<li>two</li></li></ul>");
    expect(sanitizeHtml("</p>text")).toBe("text");
  });

  it('cannot be broken out of through quoted ">" inside attributes', () => {
    expect(sanitizeHtml('<a title="x>y" href="https://ok.example">l</a>')).toBe(
      '<a href="https://ok.example" target="_blank" rel="noopener noreferrer nofollow">l</a>',
    );
  });
});

describe("safeHref", () => {
  it("accepts web, mail and same-site targets", () => {
    expect(safeHref("https://a.example")).toBe("https://a.example");
    expect(safeHref("mailto:sales@parley.dev")).toBe("mailto:sales@parley.dev");
    expect(safeHref("/console/price")).toBe("/console/price");
  });
  it("rejects everything else", () => {
    expect(safeHref("vbscript:x")).toBeUndefined();
    expect(safeHref("relative/path")).toBeUndefined();
  });
});
