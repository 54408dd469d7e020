import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outbox, verificationCodes } from "../db/schema/index";
import { startAliyunSmsFake, type AliyunSmsFake } from "../testing/fakes/aliyun-sms";
import { startSmtpServer, type SmtpServerFake } from "../testing/fakes/smtp";
import { createTestContext, type TestContext } from "../testing/harness";
import { capturingLogger, expectError, expectOk, rowCounts, sendCode } from "../testing/flows";
import { sendCodeResult, sessionSchema } from "./schemas";

describe("codes over a real SMTP server", () => {
  let smtp: SmtpServerFake;
  let ctx: TestContext;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    ctx = await createTestContext({ SMTP_HOST: smtp.host, SMTP_PORT: String(smtp.port), SMTP_FROM: "Parley <codes@parley.test>" });
  });
  afterAll(async () => {
    await ctx?.close();
    await smtp?.close();
  });

  it("delivers the registration code by SMTP, not to the outbox", async () => {
    await expectOk(await sendCode(ctx, { target: "smtp-user@example.com", purpose: "register" }), 200, sendCodeResult);
    const mail = await smtp.waitFor((message) => message.to.includes("smtp-user@example.com"));
    expect(mail.from).toBe("codes@parley.test");
    const code = mail.subject.match(/\b(\d{6})\b/)?.[1];
    expect(code).toBeDefined();
    expect(mail.text).toContain(code);
    expect(await ctx.deps.db.select().from(outbox).all()).toEqual([]);

    const session = await expectOk(
      await ctx.request("/api/v1/auth/register", {
        method: "POST",
        json: { channel: "email", target: "smtp-user@example.com", code, password: "passw0rd-ok" },
      }),
      201,
      sessionSchema,
    );
    expect(session.user.email).toBe("smtp-user@example.com");
  });

  it("writes the code in the request's language", async () => {
    await sendCode(ctx, { target: "zh-user@example.com", purpose: "register" }, { headers: { "accept-language": "zh-CN" } });
    const mail = await smtp.waitFor((message) => message.to.includes("zh-user@example.com"));
    expect(mail.subject).toContain("验证码");
  });
});

describe("codes when the SMTP server refuses", () => {
  it("answers 502 and keeps no usable code", async () => {
    const smtp = await startSmtpServer({ rejectRecipients: ["bounce@example.com"] });
    const logger = capturingLogger();
    const ctx = await createTestContext({ SMTP_HOST: smtp.host, SMTP_PORT: String(smtp.port) }, { logger });
    try {
      const before = await rowCounts(ctx);
      await expectError(await sendCode(ctx, { target: "bounce@example.com", purpose: "register" }), 502, {
        message: "The message could not be sent; try again later",
      });
      expect(await rowCounts(ctx)).toEqual(before);
      expect(logger.lines.join("\n")).toContain("verification code delivery failed");
      expect(logger.lines.join("\n")).not.toContain("bounce@example.com");
    } finally {
      await ctx.close();
      await smtp.close();
    }
  });
});

describe("codes over the Aliyun SMS API", () => {
  let sms: AliyunSmsFake;
  let ctx: TestContext;
  beforeAll(async () => {
    sms = await startAliyunSmsFake({
      accessKeyId: "LTAI-test-id",
      accessKeySecret: "aliyun-secret-value",
      signNames: ["Parley"],
      templateCodes: ["SMS_100200300"],
    });
    ctx = await createTestContext({
      PARLEY_CODE_RESEND_SECONDS: "0",
      ALIYUN_SMS_ACCESS_KEY_ID: "LTAI-test-id",
      ALIYUN_SMS_ACCESS_KEY_SECRET: "aliyun-secret-value",
      ALIYUN_SMS_SIGN_NAME: "Parley",
      ALIYUN_SMS_TEMPLATE_CODE: "SMS_100200300",
      ALIYUN_SMS_ENDPOINT: sms.url,
    });
  });
  afterAll(async () => {
    await ctx?.close();
    await sms?.close();
  });

  it("sends the phone code through the vendor with a valid signature", async () => {
    await expectOk(await sendCode(ctx, { channel: "phone", target: "13600136000", purpose: "register" }), 200, sendCodeResult);
    const sent = await sms.waitFor((message) => message.phoneNumbers === "13600136000");
    expect(sent).toMatchObject({ signName: "Parley", templateCode: "SMS_100200300" });
    expect(sent.templateParam.code).toMatch(/^\d{6}$/);
    expect(sms.answers.at(-1)).toBe("OK");
    expect(await ctx.deps.db.select().from(outbox).all()).toEqual([]);

    const session = await expectOk(
      await ctx.request("/api/v1/auth/register", {
        method: "POST",
        json: { channel: "phone", target: "13600136000", code: sent.templateParam.code, password: "passw0rd-ok" },
      }),
      201,
      sessionSchema,
    );
    expect(session.user.phone).toBe("13600136000");
  });

  it("answers a vendor refusal with 502 and leaves no usable code", async () => {
    // An earlier code exists; a failed resend must not replace it, nor store one of its own.
    await expectOk(await sendCode(ctx, { channel: "phone", target: "13500135000", purpose: "register" }), 200, sendCodeResult);
    const earlier = sms.messages.at(-1)!.templateParam.code!;
    sms.failNext({ Code: "isv.BUSINESS_LIMIT_CONTROL", Message: "触发分钟级流控Permits:1" });
    const before = await rowCounts(ctx);
    const body = await expectError(await sendCode(ctx, { channel: "phone", target: "13500135000", purpose: "register" }), 502);
    expect(body.message).not.toContain("aliyun-secret-value");
    expect(sms.answers.at(-1)).toBe("isv.BUSINESS_LIMIT_CONTROL");
    expect(await rowCounts(ctx)).toEqual(before);
    const rows = await ctx.deps.db.select().from(verificationCodes).where(eq(verificationCodes.target, "13500135000")).all();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.consumedAt).toBeNull();
    await expectOk(
      await ctx.request("/api/v1/auth/register", {
        method: "POST",
        json: { channel: "phone", target: "13500135000", code: earlier, password: "passw0rd-ok" },
      }),
      201,
      sessionSchema,
    );
  });
});
