import { describe, expect, it } from "vitest";
import { aesKeyFrom, decryptMessage, encryptMessage } from "./crypto";
import { buildXml, cdata, parseXml } from "./xml";

const key = "jWmYm7qr5nMoAUwZRjGtBxmz3KA1tkAj3ykkR6q2B2C";

describe("WXBizMsgCrypt round trips", () => {
  it("every message length pads to 32-byte blocks with a pad of 1..32 and decrypts back", () => {
    const pads = new Set<number>();
    for (let length = 0; length <= 70; length += 1) {
      const message = "x".repeat(length);
      const encrypted = encryptMessage(message, key, "ww123");
      const bytes = Buffer.from(encrypted, "base64");
      expect(bytes.length % 32).toBe(0);
      pads.add(32 - ((16 + 4 + length + 5) % 32));
      expect(decryptMessage(encrypted, key, "ww123")).toEqual({ ok: true, message, receiveId: "ww123" });
    }
    expect(pads.has(32)).toBe(true);
  });

  it("a fixed random prefix gives a fixed ciphertext; the length field counts UTF-8 bytes", () => {
    const random = Buffer.alloc(16, 7);
    const one = encryptMessage("中文 ✓", key, "ww123", random);
    expect(encryptMessage("中文 ✓", key, "ww123", random)).toBe(one);
    expect(decryptMessage(one, key, "ww123")).toMatchObject({ ok: true, message: "中文 ✓" });
  });

  it("rejects keys that are not 43 base64 characters", () => {
    expect(aesKeyFrom(key)).toHaveLength(32);
    expect(aesKeyFrom(`${key}A`)).toBeUndefined();
    expect(aesKeyFrom(key.slice(1))).toBeUndefined();
    expect(() => encryptMessage("x", "short", "ww")).toThrow();
    expect(decryptMessage("AAAAAAAAAAAAAAAAAAAAAA==", "short", "ww")).toMatchObject({ ok: false });
  });
});

describe("flat XML", () => {
  it("reads CDATA, bare text, entities, self-closing and nested children", () => {
    const xml =
      "<xml>\n <ToUserName><![CDATA[gh_1]]></ToUserName>\n<CreateTime>1409735668</CreateTime><Content>a &lt; b &amp;&amp; &#x4e2d;</Content><Empty/><ScanCodeInfo><ScanType><![CDATA[qrcode]]></ScanType></ScanCodeInfo><Split><![CDATA[x]]]]><![CDATA[>y]]></Split></xml>";
    expect(parseXml(xml)).toEqual({
      ToUserName: "gh_1",
      CreateTime: "1409735668",
      Content: "a < b && 中",
      Empty: "",
      ScanCodeInfo: "<ScanType><![CDATA[qrcode]]></ScanType>",
      Split: "x]]>y",
    });
  });

  it("keeps a CDATA that contains tag-like text", () => {
    expect(parseXml("<xml><Content><![CDATA[</Content><b>]]></Content></xml>")).toEqual({ Content: "</Content><b>" });
  });

  it("returns undefined for text without an xml root or with an unclosed element, never throws", () => {
    for (const text of ["", "not xml", "{}", "<xml><A>1</xml>", "<xml><A><![CDATA[1</A></xml>", "<root><A>1</A></root>"]) {
      expect(() => parseXml(text)).not.toThrow();
      expect(parseXml(text)).toBeUndefined();
    }
    expect(parseXml("<xml></xml>")).toEqual({});
  });

  it("builds what it parses", () => {
    const fields = { ToUserName: "o1", CreateTime: 5, Content: "]]> & <tag>" };
    expect(parseXml(buildXml(fields))).toEqual({ ToUserName: "o1", CreateTime: "5", Content: "]]> & <tag>" });
    expect(cdata("a]]>b")).toBe("<![CDATA[a]]]]><![CDATA[>b]]>");
  });
});
