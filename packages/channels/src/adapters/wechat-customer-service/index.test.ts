import { describe, expect, it } from "vitest";
import { memoryIO, readInbound } from "../../runtime";
import { channelContract, checkMediaRoundTrip } from "../../testing/contract";
import { startCustomerServiceFake, startFake, type CustomerServiceFake } from "../../testing/wechat-customer-service";
import { ChannelError, type AdapterIO, type ChannelConfig, type InboundMessage } from "../../types";
import { callbackSignature, encryptMessage } from "../wechat-shared/crypto";
import { buildXml } from "../wechat-shared/xml";
import { adapter } from "./index";
import { cursorKey } from "./sync";

channelContract(adapter, startFake);

const hook = "https://parley.example/api/v1/channels/hooks/kf";

/** The WeCom sample values (channels.md §3.3): Customer Service uses the same callback crypto. */
const sample = {
  token: "QDG6eK",
  corpId: "wx5823bf96d3bd56c7",
  encodingAesKey: "jWmYm7qr5nMoAUwZRjGtBxmz3KA1tkAj3ykkR6q2B2C",
  verifyUrl:
    "/cgi-bin/wxpush?msg_signature=5c45ff5e21c57e6ad56bac8758b79b1d9ac89fd3&timestamp=1409659589&nonce=263014780&echostr=P9nAzCzyDtyTWESHep1vC5X9xho%2FqYX3Zpb4yKa9SKld1DsH3Iyt3tP3zNdtp%2B4RPcs8TgAE7OaBO%2BFZXvnaqQ%3D%3D",
  messageUrl: "/cgi-bin/wxpush?msg_signature=477715d11cdb4164915debcba66cb864d751f3e6&timestamp=1409659813&nonce=1372623149",
  encrypt:
    "RypEvHKD8QQKFhvQ6QleEB4J58tiPdvo+rtK1I9qca6aM/wvqnLSV5zEPeusUiX5L5X/0lWfrf0QADHHhGd3QczcdCUpj911L3vg3W/sYYvuJTs3TUUkSUXxaccAS0qhxchrRYt66wiSpGLYL42aM6A8dTT+6k4aSknmPj48kzJs8qLjvd4Xgpue06DOdnLxAUHzM6+kDZ+HMZfJYuR+LtwGc2hgf5gsijff0ekUNXZiqATP7PF5mZxZ3Izoun1s4zG4LUMnvw2r+KqCKIw+3IQH03v+BCA9nMELNqbSf6tiWSrXJB3LAVGUcallcrw8V2t9EL4EhzJWrQUax5wLVMNS0+rUPA3k22Ncx4XXZS9o0MBH27Bo6BpNelZpS+/uh9KsNlY6bHCmJU9p8g7m3fVKn28H3KDYA5Pl/T8Z1ptDAVe0lXdQ2YoyyH2uyPIGHBZZIs2pDBS8R07+qN+E7Q==",
};
const sampleConfig: ChannelConfig = { corpId: sample.corpId, secret: "unused", token: sample.token, encodingAesKey: sample.encodingAesKey };

/** An io whose platform is unreachable: any sync_msg call would fail the test. */
function offlineAt(seconds: number): AdapterIO {
  return memoryIO("http://127.0.0.1:9", {
    now: () => seconds * 1000,
    fetch: async () => {
      throw new Error("no platform call expected");
    },
  });
}

async function pull(fake: CustomerServiceFake, request: Request, io: AdapterIO): Promise<InboundMessage[]> {
  const verified = await adapter.verify(await readInbound(request), fake.config, io);
  if (verified.kind !== "verified") throw new Error(`not verified: ${JSON.stringify(verified)}`);
  return adapter.parse(verified.payload, fake.config, io);
}

async function withFake(test: (fake: CustomerServiceFake, io: AdapterIO) => Promise<void>, pageSize?: number) {
  const fake = await startCustomerServiceFake(pageSize === undefined ? {} : { pageSize });
  try {
    await test(fake, memoryIO(fake.apiBase));
  } finally {
    await fake.close();
  }
}

const customerText = (msgid: string, content: string, fake: CustomerServiceFake, externalUserId = "wmCustomerA") => ({
  msgid,
  open_kfid: fake.openKfId,
  external_userid: externalUserId,
  send_time: 1700000000,
  origin: 3,
  msgtype: "text",
  text: { content },
});

describe("official vectors (WeCom samples) through the Customer Service adapter", () => {
  it("answers the sample URL verification with 1616140317555161061", async () => {
    const verified = await adapter.verify(await readInbound(new Request(`https://parley.example${sample.verifyUrl}`)), sampleConfig, offlineAt(1409659589));
    expect(verified.kind).toBe("handshake");
    if (verified.kind === "handshake") expect(await verified.response.text()).toBe("1616140317555161061");
  });

  it("verifies the sample message callback; a plain text message is not a kf_msg_or_event, so nothing is pulled", async () => {
    const body = `<xml><ToUserName><![CDATA[wx5823bf96d3bd56c7]]></ToUserName><Encrypt><![CDATA[${sample.encrypt}]]></Encrypt><AgentID><![CDATA[218]]></AgentID></xml>`;
    const io = offlineAt(1409659813);
    const verified = await adapter.verify(
      await readInbound(new Request(`https://parley.example${sample.messageUrl}`, { method: "POST", body })),
      sampleConfig,
      io,
    );
    expect(verified).toMatchObject({ kind: "verified", payload: { fields: { FromUserName: "mycreate", Content: "hello" } } });
    if (verified.kind === "verified") expect(await adapter.parse(verified.payload, sampleConfig, io)).toEqual([]);
  });

  it("decrypts the documented kf_msg_or_event callback under the sample key", async () => {
    const inner =
      "<xml><ToUserName><![CDATA[wx5823bf96d3bd56c7]]></ToUserName><CreateTime>1348831860</CreateTime><MsgType><![CDATA[event]]></MsgType><Event><![CDATA[kf_msg_or_event]]></Event><Token><![CDATA[ENCApHxnGDNAVNY4AaSJKj4Tb5mwsEMzxhFmHVGcra996NR]]></Token><OpenKfId><![CDATA[wkAJ2GCAAASSm4_FhToWMFea0xAFfd3Q]]></OpenKfId></xml>";
    const encrypted = encryptMessage(inner, sample.encodingAesKey, sample.corpId);
    const query = new URLSearchParams({ msg_signature: callbackSignature(sample.token, "1348831860", "42", encrypted), timestamp: "1348831860", nonce: "42" });
    const request = new Request(`${hook}?${query}`, { method: "POST", body: buildXml({ ToUserName: sample.corpId, Encrypt: encrypted }) });
    const verified = await adapter.verify(await readInbound(request), sampleConfig, offlineAt(1348831860));
    expect(verified).toMatchObject({
      kind: "verified",
      payload: { fields: { Event: "kf_msg_or_event", Token: "ENCApHxnGDNAVNY4AaSJKj4Tb5mwsEMzxhFmHVGcra996NR", OpenKfId: "wkAJ2GCAAASSm4_FhToWMFea0xAFfd3Q" } },
    });
  });
});

describe("wechat-customer-service pulling with sync_msg", () => {
  it("pages while has_more, keeps only customers' messages (origin 3) once each, and stores the cursor per corp and account", () =>
    withFake(async (fake, io) => {
      fake.enqueue(
        customerText("m1", "first", fake),
        {
          msgid: "m2",
          open_kfid: fake.openKfId,
          external_userid: "wmCustomerA",
          send_time: 1700000001,
          origin: 5,
          servicer_userid: "Zhangsan",
          msgtype: "text",
          text: { content: "servicer" },
        },
        { msgid: "m3", origin: 4, msgtype: "event", event: { event_type: "enter_session", open_kfid: fake.openKfId, external_userid: "wmCustomerA" } },
        customerText("m4", "second", fake),
        customerText("m4", "second", fake),
        {
          msgid: "m5",
          open_kfid: fake.openKfId,
          external_userid: "wmCustomerB",
          send_time: 1700000002,
          origin: 3,
          msgtype: "image",
          image: { media_id: "MEDIA_5" },
        },
        customerText("m6", "third", fake, "wmCustomerB"),
      );
      const messages = await pull(fake, fake.notify(hook), io);
      expect(messages.map((message) => [message.dedupeKey, message.text, message.attachments])).toEqual([
        [`wechat-customer-service:${fake.config.corpId}:m1`, "first", []],
        [`wechat-customer-service:${fake.config.corpId}:m4`, "second", []],
        [`wechat-customer-service:${fake.config.corpId}:m5`, "", [{ kind: "image", ref: "MEDIA_5" }]],
        [`wechat-customer-service:${fake.config.corpId}:m6`, "third", []],
      ]);
      expect(messages[0]).toMatchObject({
        conversation: { id: `${fake.openKfId}:wmCustomerA`, isGroup: false },
        sender: { id: "wmCustomerA", isBot: false },
        sentAt: 1700000000000,
        reply: { touser: "wmCustomerA", openKfId: fake.openKfId },
      });
      expect(fake.syncCalls).toHaveLength(4); // 7 entries, 2 per page
      expect(fake.syncCalls[0]).toMatchObject({ limit: 1000, voice_format: 0, open_kfid: fake.openKfId });
      expect(fake.syncCalls[0]?.cursor).toBeUndefined();
      expect(typeof fake.syncCalls[0]?.token).toBe("string");
      expect(fake.syncCalls[1]?.cursor).toBeTruthy();
      expect(await io.kv.get(cursorKey(fake.config.corpId ?? "", fake.openKfId))).toBeTruthy();

      // The next callback starts from the stored cursor: nothing old comes back.
      fake.enqueue(customerText("m7", "fourth", fake));
      const next = await pull(fake, fake.notify(hook), io);
      expect(next.map((message) => message.text)).toEqual(["fourth"]);
      expect(fake.syncCalls).toHaveLength(5);
    }, 2));

  it("a failure on a later page throws retryable and keeps the cursor, so the retry returns every message", () =>
    withFake(async (fake) => {
      let syncRequests = 0;
      const flaky: typeof fetch = async (input, init) => {
        if (String(input instanceof Request ? input.url : input).includes("/kf/sync_msg")) {
          syncRequests += 1;
          if (syncRequests === 2) return new Response("upstream down", { status: 502 });
        }
        return fetch(input, init);
      };
      const io = memoryIO(fake.apiBase, { fetch: flaky });
      fake.enqueue(customerText("p1", "one", fake), customerText("p2", "two", fake), customerText("p3", "three", fake));
      const verified = await adapter.verify(await readInbound(fake.notify(hook)), fake.config, io);
      if (verified.kind !== "verified") throw new Error("not verified");
      await expect(adapter.parse(verified.payload, fake.config, io)).rejects.toMatchObject({ retryable: true });
      expect(await io.kv.get(cursorKey(fake.config.corpId ?? "", fake.openKfId))).toBeUndefined();
      const retried = await adapter.parse(verified.payload, fake.config, io);
      expect(retried.map((message) => message.text)).toEqual(["one", "two", "three"]);
    }, 2));

  it("ignores other events and replays without calling the platform", () =>
    withFake(async (fake, io) => {
      fake.enqueue(customerText("r1", "once", fake));
      const request = fake.notify(hook);
      const replay = request.clone();
      expect(await pull(fake, request, io)).toHaveLength(1);
      expect(await pull(fake, replay, io)).toEqual([]);
      expect(fake.syncCalls).toHaveLength(1);
    }));

  it("a sync Token the platform did not issue is refused (95007) and reported as a ChannelError", () =>
    withFake(async (fake, io) => {
      const inner = buildXml({
        ToUserName: fake.config.corpId ?? "",
        CreateTime: 1,
        MsgType: "event",
        Event: "kf_msg_or_event",
        Token: "ENCforged",
        OpenKfId: fake.openKfId,
      });
      const timestamp = String(Math.floor(Date.now() / 1000));
      const encrypted = encryptMessage(inner, fake.config.encodingAesKey ?? "", fake.config.corpId ?? "");
      const query = new URLSearchParams({ msg_signature: callbackSignature(fake.config.token ?? "", timestamp, "9", encrypted), timestamp, nonce: "9" });
      const request = new Request(`${hook}?${query}`, { method: "POST", body: buildXml({ ToUserName: fake.config.corpId ?? "", Encrypt: encrypted }) });
      const error = await pull(fake, request, io).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ChannelError);
      expect(error).toMatchObject({ retryable: false, platformCode: "95007" });
    }));
});

describe("wechat-customer-service verification refuses", () => {
  it("forged, stale and other-corp callbacks", () =>
    withFake(async (fake, io) => {
      expect(await adapter.verify(await readInbound(await fake.forged(hook, { text: "x" })), fake.config, io)).toMatchObject({ kind: "rejected", status: 401 });
      expect(await adapter.verify(await readInbound((await fake.stale?.(hook, { text: "x" })) as Request), fake.config, io)).toMatchObject({
        kind: "rejected",
        status: 401,
      });
      expect(await adapter.verify(await readInbound(fake.notify(hook)), { ...fake.config, corpId: "ww0000000000000000" }, io)).toMatchObject({
        kind: "rejected",
        status: 400,
        reason: "Encrypt: receiveId mismatch",
      });
      expect(fake.syncCalls).toHaveLength(0);
    }));
});

describe("wechat-customer-service sending", () => {
  it("sends to the external user through the account, within 5 replies per 48 h", () =>
    withFake(async (fake, io) => {
      const [message] = await pull(fake, await fake.delivery(hook, { text: "hi", senderId: "wmQuota" }), io);
      if (!message) throw new Error("no message");
      for (let index = 0; index < 5; index += 1) expect((await adapter.send(message.reply, `answer ${index}`, fake.config, io)).ids).toHaveLength(1);
      await expect(adapter.send(message.reply, "one too many", fake.config, io)).rejects.toMatchObject({ retryable: false, platformCode: "95001" });
      await expect(adapter.send({ touser: "wmStranger", openKfId: fake.openKfId }, "hi", fake.config, io)).rejects.toMatchObject({
        retryable: false,
        platformCode: "40096",
      });
      await expect(adapter.send({ touser: "wmQuota" }, "hi", fake.config, io)).rejects.toMatchObject({ retryable: false });
      expect(fake.sent).toHaveLength(5);
      expect(fake.sent.every((sent) => sent.to === "wmQuota" && sent.authorized)).toBe(true);
    }));

  it("a wrong secret fails the probe without retry", () =>
    withFake(async (fake, io) => {
      await expect(adapter.probe?.({ ...fake.config, secret: "wrong" }, io)).rejects.toMatchObject({ retryable: false, platformCode: "40001" });
      await expect(adapter.probe?.(fake.config, io)).resolves.toBeUndefined();
    }));
});

describe("wechat-customer-service descriptor", () => {
  it("marks secrets; no passive reply; 48 h window", () => {
    expect(
      adapter.descriptor.fields
        .filter((field) => field.secret)
        .map((field) => field.key)
        .sort(),
    ).toEqual(["encodingAesKey", "secret", "token"]);
    expect(adapter.capabilities).toMatchObject({
      passiveReply: false,
      maxText: { unit: "utf8-bytes", value: 2048 },
      replyWindow: { hours: 48, maxMessages: 5 },
    });
    expect(adapter.passiveReply).toBeUndefined();
  });
});

describe("wechat-customer-service media", () => {
  it("downloads a customer's picture with media/get, refuses an unknown media_id (40007), and sends an image", async () => {
    const fake = await startCustomerServiceFake();
    try {
      await checkMediaRoundTrip(adapter, fake, { refusedCode: "40007", sendsImages: true });
    } finally {
      await fake.close();
    }
  });
});
