import { createHmac } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startAliyunSmsFake, type AliyunSmsFake } from "../../testing/fakes/aliyun-sms.js";
import { ExternalProviderError, type OutgoingSms } from "../ports.js";
import { aliyunCanonicalQuery, aliyunPercentEncode, aliyunTimestamp, createAliyunSmsSender, signAliyunRpcRequest, type AliyunSmsConfig } from "./aliyun.js";

describe("Aliyun RPC signature v1", () => {
  it("reproduces the example published in Aliyun's signature documentation", () => {
    const signature = signAliyunRpcRequest({
      method: "GET",
      accessKeySecret: "testsecret",
      params: {
        AccessKeyId: "testid",
        Action: "DescribeRegions",
        Format: "XML",
        SignatureMethod: "HMAC-SHA1",
        SignatureNonce: "3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf",
        SignatureVersion: "1.0",
        Timestamp: "2016-02-23T12:46:24Z",
        Version: "2014-05-26",
      },
    });
    expect(signature).toBe("OLeaidS1JvxuMvnyHOwuJ+uX5qY=");
  });

  it("matches a hand-written string-to-sign for a SendSms request with unicode and reserved characters", () => {
    const params = {
      Version: "2017-05-25",
      TemplateParam: '{"code":"123 456","note":"(a)*b!~\'"}',
      SignName: "阿里云短信测试",
      AccessKeyId: "LTAI-test",
      Action: "SendSms",
      Timestamp: "2024-01-02T03:04:05Z",
      SignatureNonce: "nonce-1",
    };
    // Written out by hand: sorted keys, then every reserved byte escaped twice.
    const query =
      "AccessKeyId=LTAI-test&Action=SendSms" +
      "&SignName=%E9%98%BF%E9%87%8C%E4%BA%91%E7%9F%AD%E4%BF%A1%E6%B5%8B%E8%AF%95" +
      "&SignatureNonce=nonce-1" +
      "&TemplateParam=%7B%22code%22%3A%22123%20456%22%2C%22note%22%3A%22%28a%29%2Ab%21~%27%22%7D" +
      "&Timestamp=2024-01-02T03%3A04%3A05Z&Version=2017-05-25";
    expect(aliyunCanonicalQuery(params)).toBe(query);
    const stringToSign = `GET&%2F&${query.replace(/%/g, "%25").replace(/&/g, "%26").replace(/=/g, "%3D")}`;
    const expected = createHmac("sha1", "shh-secret&").update(stringToSign).digest("base64");
    expect(signAliyunRpcRequest({ method: "GET", params, accessKeySecret: "shh-secret" })).toBe(expected);
    expect(signAliyunRpcRequest({ method: "POST", params, accessKeySecret: "shh-secret" })).not.toBe(expected);
  });

  it("ignores an existing Signature parameter", () => {
    const params = { A: "1", B: "2" };
    expect(signAliyunRpcRequest({ method: "GET", params: { ...params, Signature: "x" }, accessKeySecret: "k" })).toBe(
      signAliyunRpcRequest({ method: "GET", params, accessKeySecret: "k" }),
    );
  });

  it("percent-encodes like RFC 3986 and formats timestamps without milliseconds", () => {
    expect(aliyunPercentEncode("a b*c~d+e/f!'()")).toBe("a%20b%2Ac~d%2Be%2Ff%21%27%28%29");
    expect(aliyunTimestamp(new Date("2024-05-06T07:08:09.123Z"))).toBe("2024-05-06T07:08:09Z");
  });
});

describe("createAliyunSmsSender against the local Dysmsapi fake", () => {
  const credentials = { accessKeyId: "LTAI5tTestKeyId", accessKeySecret: "super-secret-value" };
  let fake: AliyunSmsFake;

  beforeAll(async () => {
    fake = await startAliyunSmsFake({
      ...credentials,
      signNames: ["Parley"],
      templateCodes: ["SMS_100000001"],
    });
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.clear());

  const sender = (overrides: Partial<AliyunSmsConfig> = {}) =>
    createAliyunSmsSender({
      ...credentials,
      signName: "Parley",
      templateCode: "SMS_100000001",
      endpoint: fake.url,
      ...overrides,
    });
  const sms = (phone = "13800138000"): OutgoingSms => ({
    phone,
    template: "verification-code",
    params: { code: "482913" },
    text: "Your Parley code is 482913",
  });

  const refusal = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ExternalProviderError);
    const providerError = error as ExternalProviderError;
    expect(providerError.provider).toBe("aliyun");
    expect(providerError.message).not.toContain(credentials.accessKeySecret);
    expect(JSON.stringify(providerError.detail ?? null)).not.toContain(credentials.accessKeySecret);
    return providerError;
  };

  it("sends the template with its parameters and returns the BizId", async () => {
    const smsSender = sender();
    expect(smsSender.kind).toBe("aliyun");
    const { messageId } = await smsSender.send(sms());
    expect(fake.messages).toEqual([
      {
        phoneNumbers: "13800138000",
        signName: "Parley",
        templateCode: "SMS_100000001",
        templateParam: { code: "482913" },
        bizId: messageId,
        requestId: expect.any(String),
      },
    ]);
    expect(messageId).toMatch(/^\d+\^0$/);
  });

  it("signs parameters that need escaping (unicode sign name, reserved characters)", async () => {
    const unicodeFake = await startAliyunSmsFake(credentials);
    try {
      const smsSender = sender({ endpoint: unicodeFake.url, signName: "派乐 (Parley)" });
      await smsSender.send({ ...sms("+8613800138000"), params: { code: "12 34", product: "a*b!c'~" } });
      const sent = await unicodeFake.waitFor((item) => item.phoneNumbers === "+8613800138000", 1_000);
      expect(sent.signName).toBe("派乐 (Parley)");
      expect(sent.templateParam).toEqual({ code: "12 34", product: "a*b!c'~" });
    } finally {
      await unicodeFake.close();
    }
  });

  it("uses a fresh nonce per request", async () => {
    const smsSender = sender();
    await smsSender.send(sms());
    await smsSender.send(sms());
    expect(fake.answers).toEqual(["OK", "OK"]);
  });

  it("surfaces SignatureDoesNotMatch for a wrong secret", async () => {
    const error = await refusal(sender({ accessKeySecret: "not-the-secret" }).send(sms()));
    expect(error.message).toContain("SignatureDoesNotMatch");
    expect(error.message).toContain("does not match our calculation");
    expect(error.detail).toMatchObject({ status: 400, code: "SignatureDoesNotMatch" });
    expect(fake.messages).toHaveLength(0);
  });

  it("surfaces InvalidAccessKeyId.NotFound for an unknown key id", async () => {
    const error = await refusal(sender({ accessKeyId: "LTAI-unknown" }).send(sms()));
    expect(error.detail).toMatchObject({ status: 404, code: "InvalidAccessKeyId.NotFound" });
  });

  it("surfaces isv.MOBILE_NUMBER_ILLEGAL for a malformed number", async () => {
    const error = await refusal(sender().send(sms("12345")));
    expect(error.message).toContain("isv.MOBILE_NUMBER_ILLEGAL");
    expect(error.detail).toMatchObject({ status: 200, code: "isv.MOBILE_NUMBER_ILLEGAL" });
  });

  it("surfaces unapproved signatures and templates", async () => {
    expect((await refusal(sender({ signName: "Other" }).send(sms()))).detail).toMatchObject({
      code: "isv.SMS_SIGNATURE_ILLEGAL",
    });
    expect((await refusal(sender({ templateCode: "SMS_1" }).send(sms()))).detail).toMatchObject({
      code: "isv.SMS_TEMPLATE_ILLEGAL",
    });
  });

  it("surfaces a queued vendor refusal with its code and message", async () => {
    fake.failNext({ Code: "isv.BUSINESS_LIMIT_CONTROL", Message: "触发分钟级流控Permits:1" });
    const error = await refusal(sender().send(sms()));
    expect(error.message).toBe("Aliyun SMS refused: isv.BUSINESS_LIMIT_CONTROL: 触发分钟级流控Permits:1");
    await expect(sender().send(sms())).resolves.toHaveProperty("messageId");
  });

  it("is refused when the clock is far off", async () => {
    const error = await refusal(sender({ now: () => new Date(Date.now() - 60 * 60_000) }).send(sms()));
    expect(error.detail).toMatchObject({ code: "InvalidTimeStamp.Expired" });
  });

  it("reports an unreachable endpoint without the signed URL", async () => {
    const gone = await startAliyunSmsFake(credentials);
    await gone.close();
    const error = await refusal(sender({ endpoint: gone.url }).send(sms()));
    expect(error.message).toMatch(/^Aliyun SMS request failed: /);
    expect(error.message).not.toContain("Signature");
  });
});

describe("Aliyun SMS fake, raw protocol", () => {
  it("rejects a tampered parameter even with an otherwise valid signature", async () => {
    const fake = await startAliyunSmsFake({ accessKeyId: "id", accessKeySecret: "secret" });
    try {
      const params: Record<string, string> = {
        AccessKeyId: "id",
        Action: "SendSms",
        Format: "JSON",
        PhoneNumbers: "13800138000",
        RegionId: "cn-hangzhou",
        SignName: "Parley",
        SignatureMethod: "HMAC-SHA1",
        SignatureNonce: "fixed-nonce",
        SignatureVersion: "1.0",
        TemplateCode: "SMS_1",
        TemplateParam: '{"code":"111111"}',
        Timestamp: aliyunTimestamp(new Date()),
        Version: "2017-05-25",
      };
      const signature = signAliyunRpcRequest({ method: "GET", params, accessKeySecret: "secret" });
      const tampered = aliyunCanonicalQuery({ ...params, PhoneNumbers: "13900139000" });
      const refused = await fetch(`${fake.url}/?Signature=${aliyunPercentEncode(signature)}&${tampered}`);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({
        Code: "SignatureDoesNotMatch",
        HostId: "dysmsapi.aliyuncs.com",
        RequestId: expect.any(String),
        Recommend: expect.stringContaining("SignatureDoesNotMatch"),
      });

      const genuine = `${fake.url}/?Signature=${aliyunPercentEncode(signature)}&${aliyunCanonicalQuery(params)}`;
      const accepted = await fetch(genuine);
      expect(await accepted.json()).toMatchObject({ Code: "OK", Message: "OK" });
      const replayed = await fetch(genuine);
      expect(replayed.status).toBe(400);
      expect(await replayed.json()).toMatchObject({ Code: "SignatureNonceUsed" });
      expect(fake.messages.map((sms) => sms.phoneNumbers)).toEqual(["13800138000"]);

      const posted = { ...params, SignatureNonce: "post-nonce" };
      const postSignature = signAliyunRpcRequest({ method: "POST", params: posted, accessKeySecret: "secret" });
      const viaPost = await fetch(`${fake.url}/`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: `Signature=${aliyunPercentEncode(postSignature)}&${aliyunCanonicalQuery(posted)}`,
      });
      expect(await viaPost.json()).toMatchObject({ Code: "OK" });
    } finally {
      await fake.close();
    }
  });
});
