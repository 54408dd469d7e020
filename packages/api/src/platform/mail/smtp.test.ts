import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpServer, type SmtpServerFake } from "../../testing/fakes/smtp.js";
import { ExternalProviderError } from "../ports.js";
import { createSmtpMailSender } from "./smtp.js";

describe("createSmtpMailSender", () => {
  let server: SmtpServerFake;

  beforeAll(async () => {
    server = await startSmtpServer({
      users: { mailer: "s3cret-pass" },
      rejectRecipients: ["nobody@example.com"],
    });
  });
  afterAll(() => server.close());

  const sender = () =>
    createSmtpMailSender({
      host: server.host,
      port: server.port,
      user: "mailer",
      password: "s3cret-pass",
      from: "Parley <no-reply@parley.test>",
    });

  it("delivers text and html with a unicode subject", async () => {
    const smtp = sender();
    expect(smtp.kind).toBe("smtp");

    const result = await smtp.send({
      to: "Ada@Example.com",
      subject: "Your code — 验证码 482913",
      text: "Your verification code is 482913.\nIt expires in 10 minutes. 你好",
      html: "<p>Your verification code is <b>482913</b>.</p>",
    });

    const mail = await server.waitFor((message) => message.to.includes("ada@example.com"));
    expect(result.messageId).toMatch(/^<.+@.+>$/);
    expect(mail.headers["message-id"]).toBe(result.messageId);
    expect(mail.from).toBe("no-reply@parley.test");
    expect(mail.user).toBe("mailer");
    expect(mail.subject).toBe("Your code — 验证码 482913");
    expect(mail.text).toBe("Your verification code is 482913.\nIt expires in 10 minutes. 你好");
    expect(mail.html).toBe("<p>Your verification code is <b>482913</b>.</p>");
  });

  it("waitFor resolves for a message that arrives later", async () => {
    const waiting = server.waitFor((message) => message.subject === "later", 3_000);
    await sender().send({ to: "later@example.com", subject: "later", text: "hello" });
    await expect(waiting).resolves.toMatchObject({ to: ["later@example.com"], text: "hello" });
  });

  it("waitFor rejects after its timeout", async () => {
    await expect(server.waitFor((message) => message.subject === "never", 50)).rejects.toThrow(/no matching mail/);
  });

  it("reports a rejected login without leaking the password", async () => {
    const smtp = createSmtpMailSender({
      host: server.host,
      port: server.port,
      user: "mailer",
      password: "wrong-password-value",
      from: "no-reply@parley.test",
    });
    const error = await smtp.send({ to: "a@example.com", subject: "x", text: "x" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ExternalProviderError);
    const providerError = error as ExternalProviderError;
    expect(providerError.provider).toBe("smtp");
    expect(providerError.detail).toMatchObject({ code: "EAUTH", responseCode: 535 });
    expect(JSON.stringify({ message: providerError.message, detail: providerError.detail })).not.toContain("wrong-password-value");
  });

  it("reports a recipient the server refuses", async () => {
    const before = server.messages.length;
    const error = await sender()
      .send({ to: "nobody@example.com", subject: "x", text: "x" })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ExternalProviderError);
    expect((error as ExternalProviderError).detail).toMatchObject({ code: "EENVELOPE", responseCode: 550 });
    expect(server.messages.length).toBe(before);
  });

  it("reports an unreachable server", async () => {
    const closed = await startSmtpServer();
    await closed.close();
    const smtp = createSmtpMailSender({ host: closed.host, port: closed.port, from: "no-reply@parley.test" });
    await expect(smtp.send({ to: "a@example.com", subject: "x", text: "x" })).rejects.toMatchObject({
      name: "ExternalProviderError",
      detail: { code: "ESOCKET" },
    });
  });
});
