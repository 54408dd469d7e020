import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createSecretBox } from "./secret-box";
import { isMaskedUrl, isSealed, maskCredentialUrl, openValue, sealValue } from "./sealed";

describe("sealed values", () => {
  const box = createSecretBox(randomBytes(32));

  it("seals once, opens sealed and plain values, and opens another key's value as unset", () => {
    const sealed = sealValue(box, "sk-secret");
    expect(isSealed(sealed)).toBe(true);
    expect(sealed).not.toContain("sk-secret");
    expect(sealValue(box, sealed)).toBe(sealed);
    expect(sealValue(box, "")).toBe("");
    expect(openValue(box, sealed)).toBe("sk-secret");
    expect(openValue(box, "plain-from-before")).toBe("plain-from-before");
    expect(openValue(createSecretBox(randomBytes(32)), sealed)).toBe("");
  });

  it("masks the credential of a robot URL and nothing else", () => {
    expect(maskCredentialUrl("https://oapi.dingtalk.com/robot/send?access_token=abcdef0123456789abcd1a2b")).toBe(
      "https://oapi.dingtalk.com/robot/send?access_token=••••1a2b",
    );
    expect(maskCredentialUrl("https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=693a91f6-7xxx-4bc4-97a0-0ec2sifa5aaa")).toBe(
      "https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=••••5aaa",
    );
    expect(maskCredentialUrl("https://open.feishu.cn/open-apis/bot/v2/hook/2b5c1a7e-0f3d-4c1b-9e8a-5d6f7a8b9c0d")).toBe(
      "https://open.feishu.cn/open-apis/bot/v2/hook/••••9c0d",
    );
    // Short credentials show no characters at all.
    expect(maskCredentialUrl("https://oapi.dingtalk.com/robot/send?access_token=t1")).toBe("https://oapi.dingtalk.com/robot/send?access_token=••••");
    // Without a credential the URL is answered exactly as stored.
    expect(maskCredentialUrl("https://Example.com:443/notify?x=a%20b")).toBe("https://Example.com:443/notify?x=a%20b");
    expect(isMaskedUrl(maskCredentialUrl("https://oapi.dingtalk.com/robot/send?access_token=abcdef0123456789"))).toBe(true);
    expect(isMaskedUrl("https://example.com/notify")).toBe(false);
  });
});
