import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { memoryIO, readInbound } from "../../runtime";
import { channelContract, checkMediaRoundTrip } from "../../testing/contract";
import { startDingtalkFake, startFake, type DingtalkFake } from "../../testing/dingtalk";
import { ChannelError, type AdapterIO, type InboundMessage } from "../../types";
import { markdownTitle } from "./client";
import { adapter } from "./index";
import { dingtalkSign } from "./sign";

channelContract(adapter, startFake);

const webhookUrl = "https://parley.example/api/v1/channels/hooks/dingtalk_test";

describe("DingTalk callback sign (no official vector: derived from the documented algorithm)", () => {
  it("is Base64 HMAC-SHA256 under the app secret of timestamp + \\n + app secret", () => {
    const secret = "gQkM2lXvuN8cLmM1FGS7oVY0n2wG8Yk-example";
    const timestamp = "1700000000000";
    const expected = createHmac("sha256", secret).update(`${timestamp}\n${secret}`).digest("base64");
    expect(dingtalkSign(secret, timestamp)).toBe(expected);
    expect(dingtalkSign(secret, "1700000000001")).not.toBe(expected);
  });
});

describe("DingTalk webhook", () => {
  async function withFake(test: (fake: DingtalkFake, io: AdapterIO) => Promise<void>) {
    const fake = await startDingtalkFake();
    try {
      await test(fake, memoryIO(fake.apiBase));
    } finally {
      await fake.close();
    }
  }

  async function receive(fake: DingtalkFake, io: AdapterIO, request: Request): Promise<InboundMessage> {
    const result = await adapter.verify(await readInbound(request), fake.config, io);
    if (result.kind !== "verified") throw new Error(`not verified: ${JSON.stringify(result)}`);
    const [message] = await adapter.parse(result.payload, fake.config, io);
    if (!message) throw new Error("no message");
    return message;
  }

  async function callbackBody(fake: DingtalkFake, options: { isGroup?: boolean } = {}): Promise<Record<string, unknown>> {
    return (await (await fake.delivery(webhookUrl, { text: "hi", ...options })).json()) as Record<string, unknown>;
  }

  it("accepts timestamps within an hour either way and refuses them past it", () =>
    withFake(async (fake, io) => {
      const body = await callbackBody(fake);
      const now = Date.now();
      for (const [offset, kind] of [
        [-3599_000, "verified"],
        [3599_000, "verified"],
        [-3601_000, "rejected"],
        [3601_000, "rejected"],
      ] as const) {
        const result = await adapter.verify(await readInbound(fake.deliverRaw(webhookUrl, body, { timestamp: now + offset })), fake.config, io);
        expect(result.kind, `offset ${offset}`).toBe(kind);
      }
    }));

  it("refuses a flipped sign byte, a wrong secret, a missing header and a non-numeric timestamp", () =>
    withFake(async (fake, io) => {
      const good = fake.deliverRaw(webhookUrl, await callbackBody(fake));
      const sign = good.headers.get("sign") ?? "";
      const flipped = (sign[0] === "A" ? "B" : "A") + sign.slice(1);
      const variants: Record<string, string>[] = [
        { timestamp: good.headers.get("timestamp") ?? "", sign: flipped },
        { timestamp: good.headers.get("timestamp") ?? "" },
        { timestamp: "now", sign },
      ];
      const body = await good.clone().text();
      for (const headers of variants) {
        const result = await adapter.verify(await readInbound(new Request(webhookUrl, { method: "POST", body, headers })), fake.config, io);
        expect(result).toMatchObject({ kind: "rejected", status: 401 });
      }
      const wrongSecret = await adapter.verify(await readInbound(good.clone()), { ...fake.config, appSecret: "another-secret" }, io);
      expect(wrongSecret.kind).toBe("rejected");
      expect((await adapter.verify(await readInbound(good), fake.config, io)).kind).toBe("verified");
    }));

  it("refuses a callback for another robot (the sign does not cover the body)", () =>
    withFake(async (fake, io) => {
      const body = { ...(await callbackBody(fake)), robotCode: "dingsomeoneelse" };
      expect(await adapter.verify(await readInbound(fake.deliverRaw(webhookUrl, body)), fake.config, io)).toMatchObject({ kind: "rejected", status: 403 });
    }));

  it("gives a replayed callback the same dedupe key", () =>
    withFake(async (fake, io) => {
      const request = await fake.delivery(webhookUrl, { text: "once" });
      const first = await receive(fake, io, request.clone());
      const replay = await receive(fake, io, request);
      expect(replay.dedupeKey).toBe(first.dedupeKey);
    }));

  it("parses direct and group conversations with the sender's nick", () =>
    withFake(async (fake, io) => {
      const direct = await receive(fake, io, await fake.delivery(webhookUrl, { text: "查询快递", senderId: "staff-1", senderName: "李雷" }));
      expect(direct.conversation.isGroup).toBe(false);
      expect(direct.sender).toEqual({ id: "staff-1", name: "李雷", isBot: false });
      expect(direct.text).toBe("查询快递");
      expect(direct.reply).toMatchObject({ conversationType: "1", senderStaffId: "staff-1" });
      const group = await receive(fake, io, await fake.delivery(webhookUrl, { text: "hello group", isGroup: true }));
      expect(group.conversation).toMatchObject({ isGroup: true, name: "客服群" });
      expect(group.text).toBe("hello group");
      expect(typeof group.reply.sessionWebhook).toBe("string");
      expect(group.reply.sessionWebhookExpiredTime).toBeGreaterThan(Date.now());
    }));

  it("reads pictures, rich text, voice transcripts and files, and ignores the robot's own messages", () =>
    withFake(async (fake, io) => {
      const base = await callbackBody(fake);
      const parse = async (overrides: Record<string, unknown>) => {
        const body: Record<string, unknown> = { ...base, ...overrides, msgId: `msg-${Math.random()}` };
        const result = await adapter.verify(await readInbound(fake.deliverRaw(webhookUrl, body)), fake.config, io);
        if (result.kind !== "verified") throw new Error("not verified");
        return adapter.parse(result.payload, fake.config, io);
      };
      expect((await parse({ msgtype: "picture", content: { downloadCode: "dc-1" } }))[0]).toMatchObject({
        text: "",
        attachments: [{ kind: "image", ref: "dc-1" }],
      });
      const rich = await parse({ msgtype: "richText", content: { richText: [{ text: "see " }, { type: "picture", downloadCode: "dc-2" }, { text: "this" }] } });
      expect(rich[0]).toMatchObject({ text: "see this", attachments: [{ kind: "image", ref: "dc-2" }] });
      expect((await parse({ msgtype: "audio", content: { recognition: "我的包裹在哪", downloadCode: "dc-3", duration: 2 } }))[0]).toMatchObject({
        text: "我的包裹在哪",
        attachments: [{ kind: "audio", ref: "dc-3" }],
      });
      expect((await parse({ msgtype: "file", content: { downloadCode: "dc-4", fileName: "单据.pdf" } }))[0]?.attachments).toEqual([
        { kind: "file", ref: "dc-4", name: "单据.pdf" },
      ]);
      expect(await parse({ senderId: base.chatbotUserId })).toEqual([]);
      expect(await parse({ msgtype: "unknownType" })).toEqual([]);
    }));

  it("answers in markdown through the session webhook, without a token", () =>
    withFake(async (fake, io) => {
      const message = await receive(fake, io, await fake.delivery(webhookUrl, { text: "hi", isGroup: true }));
      await adapter.send(message.reply, "## Parcel 42\nOut for **delivery**.", fake.config, io);
      expect(fake.sent).toEqual([
        expect.objectContaining({
          via: "session-webhook",
          to: message.conversation.id,
          title: "Parcel 42",
          text: "## Parcel 42\nOut for **delivery**.",
          authorized: true,
        }),
      ]);
      expect(fake.tokensIssued).toBe(0);
    }));

  it("uses the OpenAPI once the session webhook expired: group send and direct batchSend, one token", () =>
    withFake(async (fake, io) => {
      const group = await receive(fake, io, await fake.delivery(webhookUrl, { text: "hi", isGroup: true }));
      const direct = await receive(fake, io, await fake.delivery(webhookUrl, { text: "hi", senderId: "staff-9" }));
      const expired = (message: InboundMessage) => ({ ...message.reply, sessionWebhookExpiredTime: Date.now() - 1000 });
      const groupSent = await adapter.send(expired(group), "to the group", fake.config, io);
      await adapter.send(expired(direct), "to the person", fake.config, io);
      expect(groupSent.ids).toHaveLength(1);
      expect(fake.sent.map(({ via, to, text, authorized }) => ({ via, to, text, authorized }))).toEqual([
        { via: "group-send", to: group.conversation.id, text: "to the group", authorized: true },
        { via: "direct-send", to: "staff-9", text: "to the person", authorized: true },
      ]);
      expect(fake.tokensIssued).toBe(1);
    }));

  it("falls back to the OpenAPI when DingTalk says the session is gone, and remembers it", () =>
    withFake(async (fake, io) => {
      const message = await receive(fake, io, await fake.delivery(webhookUrl, { text: "hi", isGroup: true }));
      fake.expireSessions();
      await adapter.send(message.reply, "first", fake.config, io);
      await adapter.send(message.reply, "second", fake.config, io);
      expect(fake.sent.map((sent) => sent.via)).toEqual(["group-send", "group-send"]);
    }));

  it("does not post to a session webhook outside DingTalk", () =>
    withFake(async (fake, io) => {
      const message = await receive(fake, io, await fake.delivery(webhookUrl, { text: "hi", isGroup: true }));
      await adapter.send({ ...message.reply, sessionWebhook: "https://attacker.example/robot/sendBySession?session=x" }, "safe", fake.config, io);
      expect(fake.sent.map((sent) => sent.via)).toEqual(["group-send"]);
    }));

  it("classifies OpenAPI failures and renews a refused access token once", () =>
    withFake(async (fake, io) => {
      const message = await receive(fake, io, await fake.delivery(webhookUrl, { text: "hi", isGroup: true }));
      const to = { ...message.reply, sessionWebhookExpiredTime: 0 };
      for (const [failure, retryable, code] of [
        ["rate-limited", true, "Forbidden.AccessDenied.QpsLimitForApi"],
        ["server-error", true, "503"],
        ["rejected", false, "resource.not.found"],
      ] as const) {
        fake.failNext(failure);
        const caught = await adapter.send(to, "x", fake.config, io).catch((reason: unknown) => reason);
        expect(caught, failure).toBeInstanceOf(ChannelError);
        expect(caught, failure).toMatchObject({ retryable, platformCode: code });
      }
      expect(fake.sent).toHaveLength(0);
      fake.failNext("token-expired");
      await adapter.send(to, "after renewal", fake.config, io);
      expect(fake.tokensIssued).toBe(2);
      fake.failNext("token-expired", 2);
      const twice = await adapter.send(to, "x", fake.config, io).catch((reason: unknown) => reason);
      expect(twice).toMatchObject({ retryable: true, platformCode: "InvalidAuthentication" });
      expect(fake.sent.map((sent) => sent.text)).toEqual(["after renewal"]);
    }));

  it("classifies session webhook failures (send too fast retries, a disabled robot does not)", () =>
    withFake(async (fake, io) => {
      const message = await receive(fake, io, await fake.delivery(webhookUrl, { text: "hi" }));
      fake.failNext("rate-limited");
      expect(await adapter.send(message.reply, "x", fake.config, io).catch((reason: unknown) => reason)).toMatchObject({
        retryable: true,
        platformCode: "130101",
      });
      fake.failNext("rejected");
      expect(await adapter.send(message.reply, "x", fake.config, io).catch((reason: unknown) => reason)).toMatchObject({
        retryable: false,
        platformCode: "400102",
      });
    }));

  it("refuses wrong app credentials without retrying, and probe reports them", () =>
    withFake(async (fake, io) => {
      const message = await receive(fake, io, await fake.delivery(webhookUrl, { text: "hi", isGroup: true }));
      const wrong = { ...fake.config, appSecret: "wrong" };
      const caught = await adapter.send({ ...message.reply, sessionWebhookExpiredTime: 0 }, "x", wrong, io).catch((reason: unknown) => reason);
      expect(caught).toMatchObject({ retryable: false, platformCode: "invalidClientIdOrSecret" });
      await expect(adapter.probe?.(wrong, io)).rejects.toBeInstanceOf(ChannelError);
      await expect(adapter.probe?.(fake.config, io)).resolves.toBeUndefined();
    }));
});

describe("markdown title", () => {
  it("is the first line without markup, at most 30 characters", () => {
    expect(markdownTitle("\n# **Hello** world\nmore")).toBe("Hello world");
    expect(markdownTitle("> 引用的一行")).toBe("引用的一行");
    expect([...markdownTitle("x".repeat(50))]).toHaveLength(30);
    expect(markdownTitle("")).toBe("…");
  });
});

describe("DingTalk media", () => {
  it("downloads a picture by its downloadCode and refuses an unknown code", async () => {
    const fake = await startDingtalkFake();
    try {
      await checkMediaRoundTrip(adapter, fake, { refusedCode: "invalidParameter.downloadCode.invalid", sendsImages: false, unknownRef: "unknown-code" });
    } finally {
      await fake.close();
    }
  });
});
