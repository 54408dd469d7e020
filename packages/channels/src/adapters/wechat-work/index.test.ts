import { createCipheriv } from "node:crypto";
import { describe, expect, it } from "vitest";
import { memoryIO, readInbound } from "../../runtime";
import { channelContract, checkMediaRoundTrip } from "../../testing/contract";
import { startFake } from "../../testing/wechat-work";
import { ChannelError, type AdapterIO, type ChannelConfig, type InboundMessage } from "../../types";
import { encryptedEnvelope } from "../wechat-shared/callback";
import { aesKeyFrom, callbackSignature, decryptMessage, encryptMessage, signatureMatches } from "../wechat-shared/crypto";
import { buildXml, parseXml } from "../wechat-shared/xml";
import { adapter } from "./index";

channelContract(adapter, startFake);

const hook = "https://parley.example/api/v1/channels/hooks/wecom";

/** Tencent's WeCom WXBizMsgCrypt samples (C# Sample.cs, Java WXBizMsgCryptTest, PHP), channels.md §3.3. */
const sample = {
  token: "QDG6eK",
  corpId: "wx5823bf96d3bd56c7",
  encodingAesKey: "jWmYm7qr5nMoAUwZRjGtBxmz3KA1tkAj3ykkR6q2B2C",
  verifyUrl:
    "/cgi-bin/wxpush?msg_signature=5c45ff5e21c57e6ad56bac8758b79b1d9ac89fd3&timestamp=1409659589&nonce=263014780&echostr=P9nAzCzyDtyTWESHep1vC5X9xho%2FqYX3Zpb4yKa9SKld1DsH3Iyt3tP3zNdtp%2B4RPcs8TgAE7OaBO%2BFZXvnaqQ%3D%3D",
  echostr: "P9nAzCzyDtyTWESHep1vC5X9xho/qYX3Zpb4yKa9SKld1DsH3Iyt3tP3zNdtp+4RPcs8TgAE7OaBO+FZXvnaqQ==",
  echoPlain: "1616140317555161061",
  messageUrl: "/cgi-bin/wxpush?msg_signature=477715d11cdb4164915debcba66cb864d751f3e6&timestamp=1409659813&nonce=1372623149",
  encrypt:
    "RypEvHKD8QQKFhvQ6QleEB4J58tiPdvo+rtK1I9qca6aM/wvqnLSV5zEPeusUiX5L5X/0lWfrf0QADHHhGd3QczcdCUpj911L3vg3W/sYYvuJTs3TUUkSUXxaccAS0qhxchrRYt66wiSpGLYL42aM6A8dTT+6k4aSknmPj48kzJs8qLjvd4Xgpue06DOdnLxAUHzM6+kDZ+HMZfJYuR+LtwGc2hgf5gsijff0ekUNXZiqATP7PF5mZxZ3Izoun1s4zG4LUMnvw2r+KqCKIw+3IQH03v+BCA9nMELNqbSf6tiWSrXJB3LAVGUcallcrw8V2t9EL4EhzJWrQUax5wLVMNS0+rUPA3k22Ncx4XXZS9o0MBH27Bo6BpNelZpS+/uh9KsNlY6bHCmJU9p8g7m3fVKn28H3KDYA5Pl/T8Z1ptDAVe0lXdQ2YoyyH2uyPIGHBZZIs2pDBS8R07+qN+E7Q==",
  /** Sample.cs's sRespData: the Chinese inside FromUserName checks that the length field counts bytes. */
  respData:
    "<xml><ToUserName><![CDATA[mycreate]]></ToUserName><FromUserName><![CDATA[wx582测试一下中文的情况，消息长度是按字节来算的396d3bd56c7]]></FromUserName><CreateTime>1348831860</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[this is a test]]></Content><MsgId>1234567890123456</MsgId><AgentID>128</AgentID></xml>",
};

const messageBody = `<xml><ToUserName><![CDATA[wx5823bf96d3bd56c7]]></ToUserName><Encrypt><![CDATA[${sample.encrypt}]]></Encrypt><AgentID><![CDATA[218]]></AgentID></xml>`;

const sampleConfig: ChannelConfig = { corpId: sample.corpId, agentId: "218", secret: "unused", token: sample.token, encodingAesKey: sample.encodingAesKey };

function ioAt(seconds: number | string): AdapterIO {
  return memoryIO("http://127.0.0.1:9", { now: () => Number(seconds) * 1000 });
}

async function parsed(request: Request, config: ChannelConfig, io: AdapterIO): Promise<InboundMessage[]> {
  const verified = await adapter.verify(await readInbound(request), config, io);
  if (verified.kind !== "verified") throw new Error(`not verified: ${JSON.stringify(verified)}`);
  return adapter.parse(verified.payload, config, io);
}

/** A WeCom callback of `inner`, signed with the sample token at `timestamp`. */
function callback(inner: string, timestamp: string, config: ChannelConfig = sampleConfig): Request {
  const encrypted = encryptMessage(inner, config.encodingAesKey ?? "", config.corpId ?? "");
  const query = new URLSearchParams({ msg_signature: callbackSignature(config.token ?? "", timestamp, "5150", encrypted), timestamp, nonce: "5150" });
  return new Request(`${hook}?${query}`, {
    method: "POST",
    body: buildXml({ ToUserName: config.corpId ?? "", Encrypt: encrypted, AgentID: config.agentId ?? "" }),
  });
}

describe("official vectors: WeCom WXBizMsgCrypt samples", () => {
  it("URL verification: msg_signature 5c45ff5e… matches and echostr decrypts to 1616140317555161061 for the CorpID", () => {
    expect(callbackSignature(sample.token, "1409659589", "263014780", sample.echostr)).toBe("5c45ff5e21c57e6ad56bac8758b79b1d9ac89fd3");
    expect(decryptMessage(sample.echostr, sample.encodingAesKey, sample.corpId)).toEqual({ ok: true, message: sample.echoPlain, receiveId: sample.corpId });
  });

  it("URL verification through the adapter answers the plaintext echostr, no quotes or newline", async () => {
    const verified = await adapter.verify(await readInbound(new Request(`https://parley.example${sample.verifyUrl}`)), sampleConfig, ioAt(1409659589));
    expect(verified.kind).toBe("handshake");
    if (verified.kind !== "handshake") return;
    expect(verified.response.status).toBe(200);
    expect(await verified.response.text()).toBe(sample.echoPlain);
  });

  it("URL verification still works when the echostr's '+' arrives without percent-encoding", async () => {
    const raw = sample.verifyUrl.replaceAll("%2B", "+");
    const verified = await adapter.verify(await readInbound(new Request(`https://parley.example${raw}`)), sampleConfig, ioAt(1409659589));
    expect(verified.kind).toBe("handshake");
    if (verified.kind === "handshake") expect(await verified.response.text()).toBe(sample.echoPlain);
  });

  it("message: msg_signature 477715d1… matches, and it decrypts to mycreate's 'hello' (32-byte padding of 30)", () => {
    expect(callbackSignature(sample.token, "1409659813", "1372623149", sample.encrypt)).toBe("477715d11cdb4164915debcba66cb864d751f3e6");
    const opened = decryptMessage(sample.encrypt, sample.encodingAesKey, sample.corpId);
    if (!opened.ok) throw new Error(opened.reason);
    expect(parseXml(opened.message)).toEqual({
      ToUserName: sample.corpId,
      FromUserName: "mycreate",
      CreateTime: "1409659813",
      MsgType: "text",
      Content: "hello",
      MsgId: "4561255354251345929",
      AgentID: "218",
    });
  });

  it("message POST through the adapter", async () => {
    const request = new Request(`https://parley.example${sample.messageUrl}`, { method: "POST", body: messageBody });
    expect(await parsed(request, sampleConfig, ioAt(1409659813))).toEqual([
      {
        dedupeKey: "wechat-work:wx5823bf96d3bd56c7:4561255354251345929",
        conversation: { id: "mycreate", isGroup: false },
        sender: { id: "mycreate", isBot: false },
        text: "hello",
        attachments: [],
        sentAt: 1409659813000,
        reply: { touser: "mycreate" },
      },
    ]);
  });

  it("Sample.cs's encrypted reply (sRespData with Chinese, timestamp 1409659813, nonce 1372623149) verifies and decrypts back", async () => {
    const envelope = parseXml(
      encryptedEnvelope(sample.respData, { token: sample.token, encodingAesKey: sample.encodingAesKey, receiveId: sample.corpId }, 1409659813, "1372623149"),
    );
    if (!envelope?.Encrypt || !envelope.MsgSignature) throw new Error("no envelope");
    const query = new URLSearchParams({ msg_signature: envelope.MsgSignature, timestamp: envelope.TimeStamp ?? "", nonce: envelope.Nonce ?? "" });
    const request = new Request(`${hook}?${query}`, { method: "POST", body: buildXml({ ToUserName: sample.corpId, Encrypt: envelope.Encrypt }) });
    const verified = await adapter.verify(await readInbound(request), sampleConfig, ioAt(1409659813));
    expect(verified).toMatchObject({
      kind: "verified",
      payload: { fields: { FromUserName: "wx582测试一下中文的情况，消息长度是按字节来算的396d3bd56c7", Content: "this is a test", AgentID: "128" } },
    });
    expect(decryptMessage(envelope.Encrypt, sample.encodingAesKey, sample.corpId)).toMatchObject({ ok: true, message: sample.respData });
  });
});

describe("wechat-work verification refuses", () => {
  it("a flipped byte in echostr or Encrypt", async () => {
    const url = sample.verifyUrl.replace("P9nAzCzy", "P9nAzCzz");
    const handshake = await adapter.verify(await readInbound(new Request(`https://parley.example${url}`)), sampleConfig, ioAt(1409659589));
    expect(handshake).toMatchObject({ kind: "rejected", status: 401 });
    const body = messageBody.replace("RypEvHKD", "RypEvHKE");
    const message = await adapter.verify(
      await readInbound(new Request(`https://parley.example${sample.messageUrl}`, { method: "POST", body })),
      sampleConfig,
      ioAt(1409659813),
    );
    expect(message).toMatchObject({ kind: "rejected", status: 401 });
  });

  it("a flipped ciphertext byte even when re-signed", async () => {
    const bytes = Buffer.from(sample.encrypt, "base64");
    const at = bytes.length - 17;
    bytes[at] = (bytes[at] ?? 0) ^ 0x01;
    const encrypt = bytes.toString("base64");
    const query = new URLSearchParams({
      msg_signature: callbackSignature(sample.token, "1409659813", "1372623149", encrypt),
      timestamp: "1409659813",
      nonce: "1372623149",
    });
    const request = new Request(`${hook}?${query}`, { method: "POST", body: messageBody.replace(sample.encrypt, encrypt) });
    expect(await adapter.verify(await readInbound(request), sampleConfig, ioAt(1409659813))).toMatchObject({ kind: "rejected", status: 400 });
  });

  it("the samples under another CorpID (receiveId mismatch), for the URL check and the message", async () => {
    const other = { ...sampleConfig, corpId: "ww0000000000000000" };
    const handshake = await adapter.verify(await readInbound(new Request(`https://parley.example${sample.verifyUrl}`)), other, ioAt(1409659589));
    expect(handshake).toMatchObject({ kind: "rejected", status: 400, reason: "echostr: receiveId mismatch" });
    const message = await adapter.verify(
      await readInbound(new Request(`https://parley.example${sample.messageUrl}`, { method: "POST", body: messageBody })),
      other,
      ioAt(1409659813),
    );
    expect(message).toMatchObject({ kind: "rejected", status: 400, reason: "Encrypt: receiveId mismatch" });
  });

  it("padding out of range and a wrong key", () => {
    const key = aesKeyFrom(sample.encodingAesKey) as Buffer;
    for (const pad of [0, 33, 255]) {
      const cipher = createCipheriv("aes-256-cbc", key, key.subarray(0, 16));
      cipher.setAutoPadding(false);
      const encrypted = Buffer.concat([cipher.update(Buffer.alloc(96, pad)), cipher.final()]).toString("base64");
      expect(decryptMessage(encrypted, sample.encodingAesKey, sample.corpId)).toEqual({ ok: false, reason: "padding out of range" });
    }
    expect(decryptMessage(sample.encrypt, "kWmYm7qr5nMoAUwZRjGtBxmz3KA1tkAj3ykkR6q2B2C", sample.corpId).ok).toBe(false);
    expect(decryptMessage("not base64!", sample.encodingAesKey, sample.corpId)).toEqual({ ok: false, reason: "ciphertext is not base64" });
    expect(decryptMessage("AAAA", sample.encodingAesKey, sample.corpId)).toEqual({ ok: false, reason: "ciphertext is not whole AES blocks" });
  });

  it("stale timestamps (more than 300 s either way), checked before the signature", async () => {
    for (const now of [1409659813 + 301, 1409659813 - 301]) {
      const request = new Request(`https://parley.example${sample.messageUrl}`, { method: "POST", body: messageBody });
      expect(await adapter.verify(await readInbound(request), sampleConfig, ioAt(now))).toMatchObject({
        kind: "rejected",
        status: 401,
        reason: "timestamp outside the accepted window",
      });
    }
    const handshake = await adapter.verify(await readInbound(new Request(`https://parley.example${sample.verifyUrl}`)), sampleConfig, ioAt(1409659589 + 3600));
    expect(handshake).toMatchObject({ kind: "rejected", status: 401 });
  });

  it("a missing configuration without throwing", async () => {
    const inbound = await readInbound(new Request(`https://parley.example${sample.messageUrl}`, { method: "POST", body: messageBody }));
    expect(await adapter.verify(inbound, { corpId: sample.corpId }, ioAt(1409659813))).toMatchObject({ kind: "rejected", status: 403 });
    expect(await adapter.verify(inbound, { ...sampleConfig, encodingAesKey: "short" }, ioAt(1409659813))).toMatchObject({ kind: "rejected" });
  });

  it("acknowledges a byte-identical replay with an empty body but yields no message", async () => {
    const io = ioAt(1409659813);
    const request = () => new Request(`https://parley.example${sample.messageUrl}`, { method: "POST", body: messageBody });
    expect(await parsed(request(), sampleConfig, io)).toHaveLength(1);
    const again = await adapter.verify(await readInbound(request()), sampleConfig, io);
    if (again.kind !== "verified") throw new Error("not verified");
    const ack = adapter.ack(again.payload, sampleConfig);
    expect([ack.status, await ack.text()]).toEqual([200, ""]);
    expect(await adapter.parse(again.payload, sampleConfig, io)).toEqual([]);
  });
});

describe("wechat-work messages", () => {
  const at = "1700000000";
  const inner = (fields: Record<string, string | number>) =>
    buildXml({ ToUserName: sample.corpId, FromUserName: "lisi", CreateTime: Number(at), AgentID: 218, ...fields });

  it("events (enter_agent, subscribe) and other apps' messages yield nothing", async () => {
    const io = ioAt(at);
    expect(await parsed(callback(inner({ MsgType: "event", Event: "enter_agent" }), at), sampleConfig, io)).toEqual([]);
    expect(await parsed(callback(inner({ MsgType: "text", Content: "hi", MsgId: 1, AgentID: 219 }), at), sampleConfig, io)).toEqual([]);
  });

  it("image and voice become attachments", async () => {
    const io = ioAt(at);
    const [image] = await parsed(callback(inner({ MsgType: "image", PicUrl: "https://p", MediaId: "media-1", MsgId: 2 }), at), sampleConfig, io);
    expect(image?.attachments).toEqual([{ kind: "image", ref: "media-1", name: "https://p" }]);
    const [voice] = await parsed(callback(inner({ MsgType: "voice", MediaId: "media-2", Format: "amr", MsgId: 3 }), at), sampleConfig, io);
    expect(voice?.attachments).toEqual([{ kind: "audio", ref: "media-2", mime: "audio/amr" }]);
  });

  it("passive reply is encrypted for the CorpID, signed, and decrypts back", async () => {
    const io = ioAt(at);
    const [message] = await parsed(callback(inner({ MsgType: "text", Content: "hi", MsgId: 4 }), at), sampleConfig, io);
    if (!message) throw new Error("no message");
    const envelope = parseXml((await adapter.passiveReply?.(message, "收到 ✓", sampleConfig, io)?.text()) ?? "");
    const encrypted = envelope?.Encrypt ?? "";
    expect(signatureMatches(callbackSignature(sample.token, envelope?.TimeStamp ?? "", envelope?.Nonce ?? "", encrypted), envelope?.MsgSignature)).toBe(true);
    const opened = decryptMessage(encrypted, sample.encodingAesKey, sample.corpId);
    if (!opened.ok) throw new Error(opened.reason);
    expect(parseXml(opened.message)).toEqual({ ToUserName: "lisi", FromUserName: sample.corpId, CreateTime: at, MsgType: "text", Content: "收到 ✓" });
  });
});

describe("wechat-work sending", () => {
  it("sends with touser, msgtype text and the numeric agentid; an unreachable member is not retried", async () => {
    const fake = await startFake();
    try {
      const io = memoryIO(fake.apiBase);
      const [message] = await parsed(await fake.delivery(hook, { text: "hi", senderId: "WangWu" }), fake.config, io);
      if (!message) throw new Error("no message");
      const { ids } = await adapter.send(message.reply, "hello", fake.config, io);
      expect(ids).toHaveLength(1);
      expect(fake.sent).toMatchObject([{ to: "WangWu", text: "hello", authorized: true }]);
      const stranger = await adapter.send({ touser: "NotAMember" }, "hello", fake.config, io).catch((error: unknown) => error);
      expect(stranger).toMatchObject({ retryable: false, platformCode: "81013" });
      const wrongAgent = await adapter.send(message.reply, "hello", { ...fake.config, agentId: "1000003" }, io).catch((error: unknown) => error);
      expect(wrongAgent).toMatchObject({ retryable: false, platformCode: "40056" });
    } finally {
      await fake.close();
    }
  });

  it("a wrong corp secret fails the probe without retry", async () => {
    const fake = await startFake();
    try {
      const io = memoryIO(fake.apiBase);
      const error = await adapter.probe?.({ ...fake.config, secret: "wrong" }, io).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ChannelError);
      expect(error).toMatchObject({ retryable: false, platformCode: "40001" });
      await expect(adapter.probe?.(fake.config, io)).resolves.toBeUndefined();
    } finally {
      await fake.close();
    }
  });
});

describe("wechat-work descriptor", () => {
  it("marks secrets and states the limits", () => {
    expect(
      adapter.descriptor.fields
        .filter((field) => field.secret)
        .map((field) => field.key)
        .sort(),
    ).toEqual(["contactSecret", "encodingAesKey", "secret", "token"]);
    expect(adapter.capabilities).toMatchObject({ ackDeadlineMs: 5000, passiveReply: true, maxText: { unit: "utf8-bytes", value: 2048 } });
  });
});

describe("wechat-work media", () => {
  it("downloads a member's picture with media/get, refuses an unknown media_id (40007), and sends an image", async () => {
    const fake = await startFake();
    try {
      await checkMediaRoundTrip(adapter, fake, { refusedCode: "40007", sendsImages: true });
    } finally {
      await fake.close();
    }
  });
});
