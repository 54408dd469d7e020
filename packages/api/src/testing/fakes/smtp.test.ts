import nodemailer from "nodemailer";
import { describe, expect, it } from "vitest";
import { parseMessage, startSmtpServer } from "./smtp.js";

describe("parseMessage", () => {
  it("decodes folded B-encoded subjects and base64 bodies", () => {
    const raw = [
      "From: a@example.com",
      "Subject: =?UTF-8?B?6aqM6K+B56CB?=",
      " =?UTF-8?B?IDEyMzQ=?=",
      'Content-Type: multipart/alternative; boundary="b1"',
      "",
      "--b1",
      "Content-Type: text/plain; charset=utf-8",
      "Content-Transfer-Encoding: base64",
      "",
      Buffer.from("你好，世界\nline two").toString("base64"),
      "--b1",
      "Content-Type: text/html; charset=utf-8",
      "Content-Transfer-Encoding: quoted-printable",
      "",
      "<p>caf=C3=A9 =",
      "ok</p>",
      "--b1--",
      "",
    ].join("\r\n");
    const parsed = parseMessage(raw);
    expect(parsed.headers.subject).toBe("验证码 1234");
    expect(parsed.text).toBe("你好，世界\nline two");
    expect(parsed.html).toBe("<p>café ok</p>");
  });

  it("reads a single-part Q-encoded message", () => {
    const parsed = parseMessage("Subject: =?utf-8?Q?caf=C3=A9_time?=\r\n\r\nplain body\r\n");
    expect(parsed).toEqual({ headers: { subject: "café time" }, text: "plain body" });
  });
});

describe("startSmtpServer without credentials", () => {
  it("accepts unauthenticated mail and records the envelope", async () => {
    const server = await startSmtpServer();
    try {
      const transport = nodemailer.createTransport({ host: server.host, port: server.port, secure: false });
      await transport.sendMail({ from: "x@parley.test", to: ["One@example.com", "two@example.com"], subject: "hi", text: "body" });
      expect(server.messages).toHaveLength(1);
      expect(server.messages[0]).toMatchObject({ from: "x@parley.test", to: ["one@example.com", "two@example.com"], subject: "hi", text: "body" });
      expect(server.messages[0]?.user).toBeUndefined();
      server.clear();
      expect(server.messages).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});
