import { createCipheriv, createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { memoryIO, readInbound } from "../../runtime";
import { channelContract } from "../../testing/contract";
import { startOfficialAccountFake } from "../../testing/wechat-official-account";
import { ChannelError, type AdapterIO, type ChannelConfig, type InboundMessage } from "../../types";
import { errorForCode } from "../wechat-shared/api";
import { encryptedEnvelope } from "../wechat-shared/callback";
import { aesKeyFrom, callbackSignature, decryptMessage, encryptMessage, signatureMatches } from "../wechat-shared/crypto";
import { buildXml, parseXml } from "../wechat-shared/xml";
import { adapter, sendOfficialAccountNotice } from "./index";

channelContract(adapter, () => startOfficialAccountFake({ mode: "safe" }));
channelContract(adapter, () => startOfficialAccountFake({ mode: "compatible" }));
channelContract(adapter, () => startOfficialAccountFake({ mode: "plaintext" }));

const hook = "https://parley.example/api/v1/channels/hooks/oa";

/** Tencent's WXBizMsgCrypt Python demo (Sample.py), channels.md §3.2. */
const demo = {
  token: "spamtest",
  encodingAesKey: "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG",
  appId: "wx2c2769f8efd9abc2",
  timestamp: "1409735669",
  nonce: "1320562132",
  msgSignature: "5d197aaffba7e9b25a30732f161a50dee96bd5fa",
  encrypt:
    "hyzAe4OzmOMbd6TvGdIOO6uBmdJoD0Fk53REIHvxYtJlE2B655HuD0m8KUePWB3+LrPXo87wzQ1QLvbeUgmBM4x6F8PGHQHFVAFmOD2LdJF9FrXpbUAh0B5GIItb52sn896wVsMSHGuPE328HnRGBcrS7C41IzDWyWNlZkyyXwon8T332jisa+h6tEDYsVticbSnyU8dKOIbgU6ux5VTjg3yt+WGzjlpKn6NPhRjpA912xMezR4kw6KWwMrCVKSVCZciVGCgavjIQ6X8tCOp3yZbGpy0VxpAe+77TszTfRd5RJSVO/HTnifJpXgCSUdUue1v6h0EIBYYI1BD1DlD+C0CR8e6OewpusjZ4uBl9FyJvnhvQl+q5rv1ixrcpCumEPo5MJSgM9ehVsNPfUM669WuMyVWQLCzpu9GhglF2PE=",
  plaintext:
    "<xml><ToUserName><![CDATA[gh_10f6c3c3ac5a]]></ToUserName>\n<FromUserName><![CDATA[oyORnuP8q7ou2gfYjqLzSIWZf0rs]]></FromUserName>\n<CreateTime>1409735668</CreateTime>\n<MsgType><![CDATA[text]]></MsgType>\n<Content><![CDATA[abcdteT]]></Content>\n<MsgId>6054768590064713728</MsgId>\n</xml>",
  /** The message the demo encrypts as a reply (EncryptMsg), spaces inside tags included. */
  replyXml:
    " <xml><ToUserName><![CDATA[oia2TjjewbmiOUlr6X-1crbLOvLw]]></ToUserName><FromUserName><![CDATA[gh_7f083739789a]]></FromUserName><CreateTime>1407743423</CreateTime><MsgType>  <![CDATA[video]]></MsgType><Video><MediaId><![CDATA[eYJ1MbwPRJtOvIEabaxHs7TX2D-HV71s79GUxqdUkjm6Gs2Ed1KF3ulAOA9H1xG0]]></MediaId><Title><![CDATA[testCallBackReplyVideo]]></Title><Descript  ion><![CDATA[testCallBackReplyVideo]]></Description></Video></xml>",
};

/** The demo's compatible-mode POST body: plaintext fields and Encrypt. */
const demoBody = `<xml><ToUserName><![CDATA[gh_10f6c3c3ac5a]]></ToUserName><FromUserName><![CDATA[oyORnuP8q7ou2gfYjqLzSIWZf0rs]]></FromUserName><CreateTime>1409735668</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[abcdteT]]></Content><MsgId>6054768590064713728</MsgId><Encrypt><![CDATA[${demo.encrypt}]]></Encrypt></xml>`;

const demoConfig: ChannelConfig = { appId: demo.appId, appSecret: "unused", token: demo.token, encodingAesKey: demo.encodingAesKey, mode: "compatible" };

function ioAt(seconds: number | string, apiBase = "http://127.0.0.1:9"): AdapterIO {
  return memoryIO(apiBase, { now: () => Number(seconds) * 1000 });
}

function demoRequest(overrides: { encrypt?: string; msgSignature?: string; signature?: string } = {}): Request {
  const query = new URLSearchParams({
    signature: overrides.signature ?? callbackSignature(demo.token, demo.timestamp, demo.nonce),
    timestamp: demo.timestamp,
    nonce: demo.nonce,
    openid: "oyORnuP8q7ou2gfYjqLzSIWZf0rs",
    encrypt_type: "aes",
    msg_signature: overrides.msgSignature ?? demo.msgSignature,
  });
  const body = overrides.encrypt ? demoBody.replace(demo.encrypt, overrides.encrypt) : demoBody;
  return new Request(`${hook}?${query}`, { method: "POST", body });
}

/** A signed push of `inner` (plaintext mode unless a key is given), as WeChat sends it. */
function push(inner: string, config: ChannelConfig, timestamp: string, nonce = "77123"): Request {
  const query = new URLSearchParams({ signature: callbackSignature(config.token ?? "", timestamp, nonce), timestamp, nonce, openid: "o1" });
  if (config.mode === "plaintext") return new Request(`${hook}?${query}`, { method: "POST", body: inner });
  const encrypted = encryptMessage(inner, config.encodingAesKey ?? "", config.appId ?? "");
  query.set("encrypt_type", "aes");
  query.set("msg_signature", callbackSignature(config.token ?? "", timestamp, nonce, encrypted));
  return new Request(`${hook}?${query}`, { method: "POST", body: buildXml({ ToUserName: "gh_1", Encrypt: encrypted }) });
}

async function parsed(request: Request, config: ChannelConfig, io: AdapterIO): Promise<InboundMessage[]> {
  const verified = await adapter.verify(await readInbound(request), config, io);
  if (verified.kind !== "verified") throw new Error(`not verified: ${JSON.stringify(verified)}`);
  return adapter.parse(verified.payload, config, io);
}

describe("official vectors: Tencent WXBizMsgCrypt Python demo (Sample.py)", () => {
  it("msg_signature over token, timestamp, nonce and Encrypt is 5d197aaf…", () => {
    expect(callbackSignature(demo.token, demo.timestamp, demo.nonce, demo.encrypt)).toBe(demo.msgSignature);
  });

  it("Encrypt decrypts to the text message, with the AppID as receiveId", () => {
    expect(decryptMessage(demo.encrypt, demo.encodingAesKey, demo.appId)).toEqual({ ok: true, message: demo.plaintext, receiveId: demo.appId });
  });

  it("the demo's compatible-mode POST verifies and parses through the adapter", async () => {
    const io = ioAt(demo.timestamp);
    const messages = await parsed(demoRequest(), demoConfig, io);
    expect(messages).toEqual([
      {
        dedupeKey: `wechat-official-account:${demo.appId}:6054768590064713728`,
        conversation: { id: "oyORnuP8q7ou2gfYjqLzSIWZf0rs", isGroup: false },
        sender: { id: "oyORnuP8q7ou2gfYjqLzSIWZf0rs", isBot: false },
        text: "abcdteT",
        attachments: [],
        sentAt: 1409735668000,
        reply: { openid: "oyORnuP8q7ou2gfYjqLzSIWZf0rs", account: "gh_10f6c3c3ac5a" },
      },
    ]);
  });

  it("the demo's EncryptMsg of its video reply (nonce 1320562132) round-trips with a valid signature", () => {
    const envelope = parseXml(
      encryptedEnvelope(demo.replyXml, { token: demo.token, encodingAesKey: demo.encodingAesKey, receiveId: demo.appId }, Number(demo.timestamp), demo.nonce),
    );
    expect(envelope?.Nonce).toBe(demo.nonce);
    expect(envelope?.TimeStamp).toBe(demo.timestamp);
    const encrypted = envelope?.Encrypt ?? "";
    expect(signatureMatches(callbackSignature(demo.token, demo.timestamp, demo.nonce, encrypted), envelope?.MsgSignature)).toBe(true);
    expect(decryptMessage(encrypted, demo.encodingAesKey, demo.appId)).toEqual({ ok: true, message: demo.replyXml, receiveId: demo.appId });
  });

  it("the plaintext-mode signature is SHA-1 of the sorted token, timestamp and nonce (no published vector: derived)", () => {
    // sorted: "1320562132" < "1409735669" < "spamtest"
    const expected = createHash("sha1").update("13205621321409735669spamtest").digest("hex");
    expect(callbackSignature(demo.token, demo.timestamp, demo.nonce)).toBe(expected);
    expect(callbackSignature("b", "a", "c")).toBe("a9993e364706816aba3e25717850c26c9cd0d89d"); // SHA-1("abc"), FIPS 180 example
  });
});

describe("wechat-official-account verification refuses", () => {
  it("a flipped byte in Encrypt (msg_signature no longer matches)", async () => {
    const flipped = `${demo.encrypt.slice(0, 10)}${demo.encrypt[10] === "A" ? "B" : "A"}${demo.encrypt.slice(11)}`;
    const verified = await adapter.verify(await readInbound(demoRequest({ encrypt: flipped })), demoConfig, ioAt(demo.timestamp));
    expect(verified).toMatchObject({ kind: "rejected", status: 401 });
  });

  it("a flipped ciphertext byte even when re-signed (the padding byte changes)", async () => {
    const bytes = Buffer.from(demo.encrypt, "base64");
    const at = bytes.length - 17; // last byte of the next-to-last block flips the last plaintext byte
    bytes[at] = (bytes[at] ?? 0) ^ 0x40;
    const encrypt = bytes.toString("base64");
    const request = demoRequest({ encrypt, msgSignature: callbackSignature(demo.token, demo.timestamp, demo.nonce, encrypt) });
    const verified = await adapter.verify(await readInbound(request), demoConfig, ioAt(demo.timestamp));
    expect(verified).toMatchObject({ kind: "rejected", status: 400 });
  });

  it("the right ciphertext for another AppID (receiveId mismatch)", async () => {
    const verified = await adapter.verify(await readInbound(demoRequest()), { ...demoConfig, appId: "wx0000000000000000" }, ioAt(demo.timestamp));
    expect(verified).toMatchObject({ kind: "rejected", status: 400, reason: "Encrypt: receiveId mismatch" });
  });

  it("a wrong EncodingAESKey", () => {
    expect(decryptMessage(demo.encrypt, "bcdefghijklmnopqrstuvwxyz0123456789ABCDEFGa", demo.appId).ok).toBe(false);
  });

  it("padding values 0 and 33 (out of the 1..32 range)", () => {
    const key = aesKeyFrom(demo.encodingAesKey) as Buffer;
    for (const pad of [0, 33]) {
      const plaintext = Buffer.alloc(64, pad);
      const cipher = createCipheriv("aes-256-cbc", key, key.subarray(0, 16));
      cipher.setAutoPadding(false);
      const encrypted = Buffer.concat([cipher.update(plaintext), cipher.final()]).toString("base64");
      expect(decryptMessage(encrypted, demo.encodingAesKey, demo.appId)).toEqual({ ok: false, reason: "padding out of range" });
    }
  });

  it("a timestamp more than 300 s away, before looking at the signature", async () => {
    const stale = await adapter.verify(await readInbound(demoRequest()), demoConfig, ioAt(Number(demo.timestamp) + 301));
    expect(stale).toMatchObject({ kind: "rejected", status: 401, reason: "timestamp outside the accepted window" });
    const staleAndForged = await adapter.verify(await readInbound(demoRequest({ signature: "0".repeat(40) })), demoConfig, ioAt(Number(demo.timestamp) - 301));
    expect(staleAndForged).toMatchObject({ reason: "timestamp outside the accepted window" });
    const edge = await adapter.verify(await readInbound(demoRequest()), demoConfig, ioAt(Number(demo.timestamp) + 300));
    expect(edge.kind).toBe("verified");
  });

  it("a wrong plaintext signature even when msg_signature is right", async () => {
    const verified = await adapter.verify(await readInbound(demoRequest({ signature: "0".repeat(40) })), demoConfig, ioAt(demo.timestamp));
    expect(verified).toMatchObject({ kind: "rejected", status: 401, reason: "bad signature" });
  });

  it("a plaintext delivery to an account in safe or compatible mode (downgrade)", async () => {
    for (const mode of ["safe", "compatible"]) {
      const config = { ...demoConfig, mode };
      const request = push(demo.plaintext, { ...config, mode: "plaintext" }, demo.timestamp);
      const verified = await adapter.verify(await readInbound(request), config, ioAt(demo.timestamp));
      expect(verified).toMatchObject({ kind: "rejected", status: 400 });
    }
  });

  it("a URL check with a wrong signature, and answers a right one with echostr", async () => {
    const query = (signature: string) => new URLSearchParams({ signature, echostr: "6094734578", timestamp: demo.timestamp, nonce: demo.nonce });
    const good = await adapter.verify(
      await readInbound(new Request(`${hook}?${query(callbackSignature(demo.token, demo.timestamp, demo.nonce))}`)),
      demoConfig,
      ioAt(demo.timestamp),
    );
    expect(good.kind).toBe("handshake");
    if (good.kind === "handshake") expect(await good.response.text()).toBe("6094734578");
    const bad = await adapter.verify(await readInbound(new Request(`${hook}?${query("1".repeat(40))}`)), demoConfig, ioAt(demo.timestamp));
    expect(bad).toMatchObject({ kind: "rejected", status: 401 });
  });

  it("acknowledges a byte-identical replay but yields nothing from it", async () => {
    const io = ioAt(demo.timestamp);
    expect(await parsed(demoRequest(), demoConfig, io)).toHaveLength(1);
    const again = await adapter.verify(await readInbound(demoRequest()), demoConfig, io);
    expect(again.kind).toBe("verified");
    if (again.kind !== "verified") return;
    expect(await adapter.ack(again.payload, demoConfig).text()).toBe("success");
    expect(await adapter.parse(again.payload, demoConfig, io)).toEqual([]);
  });
});

describe("wechat-official-account messages", () => {
  const config: ChannelConfig = { ...demoConfig, mode: "plaintext" };
  const at = "1700000000";
  const inner = (fields: Record<string, string | number>) => buildXml({ ToUserName: "gh_1", FromUserName: "oPerson", CreateTime: Number(at), ...fields });

  it("ack is the text success", async () => {
    const response = adapter.ack({ fields: {}, replayed: false }, config);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("success");
  });

  it("events (subscribe, menu click) yield no message", async () => {
    const io = ioAt(at);
    expect(await parsed(push(inner({ MsgType: "event", Event: "subscribe" }), config, at), config, io)).toEqual([]);
    expect(await parsed(push(inner({ MsgType: "event", Event: "CLICK", EventKey: "menu" }), config, at, "2"), config, io)).toEqual([]);
  });

  it("image, voice (with recognition), video, location and link become attachments", async () => {
    const io = ioAt(at);
    const one = async (fields: Record<string, string | number>, nonce: string) => (await parsed(push(inner(fields), config, at, nonce), config, io))[0];
    expect(await one({ MsgType: "image", PicUrl: "http://mmbiz/p.jpg", MediaId: "m1", MsgId: 1 }, "1")).toMatchObject({
      text: "",
      attachments: [{ kind: "image", ref: "m1", name: "http://mmbiz/p.jpg" }],
    });
    expect(await one({ MsgType: "voice", MediaId: "m2", Format: "amr", Recognition: "你好", MsgId: 2 }, "2")).toMatchObject({
      text: "你好",
      attachments: [{ kind: "audio", ref: "m2", mime: "audio/amr" }],
    });
    expect(await one({ MsgType: "shortvideo", MediaId: "m3", ThumbMediaId: "t3", MsgId: 3 }, "3")).toMatchObject({
      attachments: [{ kind: "video", ref: "m3" }],
    });
    expect(await one({ MsgType: "location", Location_X: "23.134521", Location_Y: "113.358803", Scale: "20", Label: "广州", MsgId: 4 }, "4")).toMatchObject({
      attachments: [{ kind: "location", ref: "23.134521,113.358803", name: "广州" }],
    });
    expect(await one({ MsgType: "link", Title: "Parley", Description: "d", Url: "https://parley.example", MsgId: 5 }, "5")).toMatchObject({
      attachments: [{ kind: "link", ref: "https://parley.example", name: "Parley" }],
      dedupeKey: `wechat-official-account:${demo.appId}:5`,
    });
  });

  it("keeps text with XML specials and a CDATA terminator intact", async () => {
    const text = "a < b && c ]]> d <xml>";
    const [message] = await parsed(push(inner({ MsgType: "text", Content: text, MsgId: 9 }), config, at), config, ioAt(at));
    expect(message?.text).toBe(text);
  });

  it("passive reply in safe mode is encrypted, signed, and decrypts back to the text reply", async () => {
    const safe = { ...demoConfig, mode: "safe" };
    const io = ioAt(at);
    const [message] = await parsed(push(inner({ MsgType: "text", Content: "hi", MsgId: 10 }), safe, at), safe, io);
    if (!message) throw new Error("no message");
    const response = adapter.passiveReply?.(message, "你好，我是 Parley", safe, io);
    expect(response?.status).toBe(200);
    const envelope = parseXml((await response?.text()) ?? "");
    expect(envelope?.TimeStamp).toBe(at);
    const encrypted = envelope?.Encrypt ?? "";
    expect(signatureMatches(callbackSignature(demo.token, at, envelope?.Nonce ?? "", encrypted), envelope?.MsgSignature)).toBe(true);
    const opened = decryptMessage(encrypted, demo.encodingAesKey, demo.appId);
    if (!opened.ok) throw new Error(opened.reason);
    expect(parseXml(opened.message)).toEqual({ ToUserName: "oPerson", FromUserName: "gh_1", CreateTime: at, MsgType: "text", Content: "你好，我是 Parley" });
  });

  it("passive reply in plaintext mode is the bare XML", async () => {
    const io = ioAt(at);
    const [message] = await parsed(push(inner({ MsgType: "text", Content: "hi", MsgId: 11 }), config, at), config, io);
    if (!message) throw new Error("no message");
    const xml = parseXml((await adapter.passiveReply?.(message, "ok", config, io)?.text()) ?? "");
    expect(xml).toMatchObject({ ToUserName: "oPerson", FromUserName: "gh_1", MsgType: "text", Content: "ok" });
  });
});

describe("wechat-official-account sending", () => {
  it("refuses to reply outside the 48 h window (45015) and past 5 replies (45047), without retry", async () => {
    const fake = await startOfficialAccountFake();
    try {
      const io = memoryIO(fake.apiBase);
      const outside = await adapter.send({ openid: "oNeverWrote" }, "hello", fake.config, io).catch((error: unknown) => error);
      expect(outside).toBeInstanceOf(ChannelError);
      expect(outside).toMatchObject({ retryable: false, platformCode: "45015" });
      const [message] = await parsed(await fake.delivery(hook, { text: "hi", senderId: "oQuota" }), fake.config, io);
      if (!message) throw new Error("no message");
      for (let index = 0; index < 5; index += 1) await adapter.send(message.reply, `answer ${index}`, fake.config, io);
      const sixth = await adapter.send(message.reply, "one too many", fake.config, io).catch((error: unknown) => error);
      expect(sixth).toMatchObject({ retryable: false, platformCode: "45047" });
      expect(fake.sent).toHaveLength(5);
    } finally {
      await fake.close();
    }
  });

  it("reports a wrong AppSecret as a non-retryable failure (40125)", async () => {
    const fake = await startOfficialAccountFake();
    try {
      const io = memoryIO(fake.apiBase);
      const error = await adapter.send({ openid: "o1" }, "x", { ...fake.config, appSecret: "wrong" }, io).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ retryable: false, platformCode: "40125" });
      await expect(adapter.probe?.({ ...fake.config, appSecret: "wrong" }, io)).rejects.toBeInstanceOf(ChannelError);
      await expect(adapter.probe?.(fake.config, io)).resolves.toBeUndefined();
      expect(fake.sent).toHaveLength(0);
    } finally {
      await fake.close();
    }
  });

  it("a token the platform no longer knows is answered 40001 and recorded as unauthorized; the adapter renews it", async () => {
    const fake = await startOfficialAccountFake();
    try {
      const io = memoryIO(fake.apiBase);
      await io.kv.set(`token:wechat-official-account:${fake.config.appId}`, "stolen-or-stale", 3600);
      const [message] = await parsed(await fake.delivery(hook, { text: "hi" }), fake.config, io);
      if (!message) throw new Error("no message");
      await adapter.send(message.reply, "answer", fake.config, io);
      expect(fake.sent.map((sent) => [sent.text, sent.authorized])).toEqual([
        ["answer", false],
        ["answer", true],
      ]);
      expect(fake.tokensIssued).toBe(1);
    } finally {
      await fake.close();
    }
  });

  it("HTTP 5xx and network failures are retryable", async () => {
    const io = memoryIO("http://127.0.0.1:9", { fetch: async () => new Response("bad gateway", { status: 502 }) });
    await expect(adapter.send({ openid: "o1" }, "x", demoConfig, io)).rejects.toMatchObject({ retryable: true, platformCode: "502" });
    const down = memoryIO("http://127.0.0.1:9", {
      fetch: async () => {
        throw new TypeError("fetch failed");
      },
    });
    await expect(adapter.send({ openid: "o1" }, "x", demoConfig, down)).rejects.toMatchObject({ retryable: true });
  });

  it("classifies WeChat error codes", () => {
    for (const code of [40001, 40014, 42001, -1, 45009]) expect(errorForCode(code, "", "send").retryable, String(code)).toBe(true);
    for (const code of [45015, 45047, 40003, 48001]) expect(errorForCode(code, "", "send").retryable, String(code)).toBe(false);
  });
});

describe("wechat-official-account descriptor", () => {
  it("marks secrets and states the platform's limits", () => {
    const secrets = adapter.descriptor.fields.filter((field) => field.secret).map((field) => field.key);
    expect(secrets.sort()).toEqual(["appSecret", "encodingAesKey", "token"]);
    expect(adapter.descriptor.fields.find((field) => field.key === "mode")?.options?.map((option) => option.value)).toEqual([
      "plaintext",
      "compatible",
      "safe",
    ]);
    expect(new RegExp(adapter.descriptor.fields.find((field) => field.key === "encodingAesKey")?.pattern ?? "").test(demo.encodingAesKey)).toBe(true);
    expect(adapter.capabilities).toMatchObject({
      ackDeadlineMs: 5000,
      passiveReply: true,
      maxText: { unit: "utf8-bytes", value: 2048 },
      replyWindow: { hours: 48 },
    });
  });
});

describe("wechat-official-account notices", () => {
  const notice = {
    title: "A conversation with Support bot is waiting for a person",
    subject: "Ada Lovelace, customer of the shop",
    text: "Customer: Ada\nLast message: I want a human",
    url: "https://parley.example/console/chatManage?session=conv_1",
    at: Date.UTC(2026, 10, 21, 4, 5),
  };

  it("go as template messages (first, keyword1, keyword2, remark; a link to the console) with the cached token", async () => {
    const fake = await startOfficialAccountFake();
    try {
      const io = memoryIO(fake.apiBase);
      await parsed(await fake.delivery(hook, { text: "BIND 123456", senderId: "oMember" }), fake.config, io);
      const config = { ...fake.config, noticeTemplateId: fake.noticeTemplateId };
      await expect(sendOfficialAccountNotice("oMember", notice, config, io)).resolves.toMatchObject({ via: "template" });
      await sendOfficialAccountNotice("oMember", notice, config, io);
      expect(fake.tokensIssued).toBe(1);
      expect(fake.templateMessages).toHaveLength(2);
      expect(fake.templateMessages[0]).toMatchObject({
        touser: "oMember",
        templateId: fake.noticeTemplateId,
        url: notice.url,
        authorized: true,
        data: {
          first: { value: notice.title },
          keyword1: { value: "Ada Lovelace, custo…" },
          keyword2: { value: "2026-11-21 12:05" },
          remark: { value: "Customer: Ada Last message: I want a human" },
        },
      });
      expect(fake.sent).toHaveLength(0);
      // A template the account does not have is refused for good.
      const wrong = await sendOfficialAccountNotice("oMember", notice, { ...config, noticeTemplateId: "tplUnknown0001" }, io).catch((error: unknown) => error);
      expect(wrong).toMatchObject({ retryable: false, platformCode: "40037" });
    } finally {
      await fake.close();
    }
  });

  it("go as customer-service text without a template, refused outside the 48 h window (45015)", async () => {
    const fake = await startOfficialAccountFake();
    try {
      const io = memoryIO(fake.apiBase);
      const outside = await sendOfficialAccountNotice("oSilent", notice, fake.config, io).catch((error: unknown) => error);
      expect(outside).toMatchObject({ retryable: false, platformCode: "45015" });
      await parsed(await fake.delivery(hook, { text: "hello", senderId: "oMember" }), fake.config, io);
      await expect(sendOfficialAccountNotice("oMember", { ...notice, text: "长".repeat(2000) }, fake.config, io)).resolves.toMatchObject({
        via: "customer-service",
      });
      expect(fake.sent).toHaveLength(1);
      expect(fake.sent[0]!.text.startsWith(notice.title)).toBe(true);
      expect(fake.sent[0]!.text.endsWith(notice.url)).toBe(true);
      expect(Buffer.byteLength(fake.sent[0]!.text)).toBeLessThanOrEqual(2048);
      expect(fake.templateMessages).toHaveLength(0);
    } finally {
      await fake.close();
    }
  });
});

describe("wechat-official-account media", () => {
  const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1, 9, 9, 0xff, 0xd9]);

  it("downloads a picture with media/get, refuses an unknown media_id (40007), and sends an image by media/upload", async () => {
    const fake = await startOfficialAccountFake();
    try {
      const io = memoryIO(fake.apiBase);
      const [message] = await parsed(
        await fake.delivery(hook, { text: "", senderId: "oPicture", media: [{ kind: "image", bytes: jpeg, mime: "image/jpeg" }] }),
        fake.config,
        io,
      );
      const attachment = message?.attachments[0];
      expect(attachment?.kind).toBe("image");
      const media = await adapter.fetchMedia!(attachment!, message!, fake.config, io);
      expect(media.bytes).toEqual(jpeg);
      expect(media.mime).toBe("image/jpeg");
      await expect(adapter.fetchMedia!({ kind: "image", ref: "no-such-media" }, message!, fake.config, io)).rejects.toMatchObject({
        retryable: false,
        platformCode: "40007",
      });
      await adapter.sendImage!(message!.reply, { bytes: jpeg, mime: "image/jpeg", name: "answer.jpg" }, fake.config, io);
      expect(fake.sent).toEqual([
        expect.objectContaining({ to: "oPicture", authorized: true, image: { bytes: jpeg, mime: "image/jpeg", name: "answer.jpg" } }),
      ]);
    } finally {
      await fake.close();
    }
  });
});
