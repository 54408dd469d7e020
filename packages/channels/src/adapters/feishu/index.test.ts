import { createCipheriv, createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { memoryIO, readInbound } from "../../runtime";
import { channelContract } from "../../testing/contract";
import { startFake, startFeishuFake, type FeishuFake } from "../../testing/feishu";
import { ChannelError, type AdapterIO } from "../../types";
import { feishuDecrypt, feishuEncrypt, feishuSignature } from "./crypto";
import { adapter } from "./index";
import { feishuPlainText } from "./parse";

channelContract(adapter, startFake);

const webhookUrl = "https://parley.example/api/v1/channels/hooks/feishu_test";

describe('Feishu decryption (official "test key" vector, channels.md §3.4)', () => {
  it('decrypts P37w+… under "test key" to hello world', () => {
    expect(feishuDecrypt("test key", "P37w+VZImNgPEO1RBhJ6RtKl7n6zymIbEG1pReEzghk=")).toBe("hello world");
  });

  it("refuses the vector under another key, with a flipped byte, or truncated", () => {
    expect(feishuDecrypt("test kez", "P37w+VZImNgPEO1RBhJ6RtKl7n6zymIbEG1pReEzghk=")).toBeUndefined();
    const bytes = Buffer.from("P37w+VZImNgPEO1RBhJ6RtKl7n6zymIbEG1pReEzghk=", "base64");
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0x01;
    expect(feishuDecrypt("test key", bytes.toString("base64"))).toBeUndefined();
    expect(feishuDecrypt("test key", bytes.subarray(0, 24).toString("base64"))).toBeUndefined();
    expect(feishuDecrypt("test key", "not base64 at all!")).toBeUndefined();
  });

  it("refuses padding out of range (0 and 17)", () => {
    const key = createHash("sha256").update("test key").digest();
    const iv = Buffer.alloc(16, 7);
    for (const pad of [0, 17]) {
      const cipher = createCipheriv("aes-256-cbc", key, iv).setAutoPadding(false);
      const block = Buffer.concat([Buffer.from("hello world"), Buffer.alloc(5, pad)]);
      const encrypted = Buffer.concat([iv, cipher.update(block), cipher.final()]).toString("base64");
      expect(feishuDecrypt("test key", encrypted), `pad ${pad}`).toBeUndefined();
    }
  });

  it("round-trips its own encryption (what the fake delivers)", () => {
    const plain = JSON.stringify({ text: "你好, parcel 42" });
    expect(feishuDecrypt("another key", feishuEncrypt("another key", plain))).toBe(plain);
    const fixed = feishuEncrypt("test key", "hello world", Buffer.from("P37w+VZImNgPEO1RBhJ6RtKl7n6zymIbEG1pReEzghk=", "base64").subarray(0, 16));
    expect(fixed).toBe("P37w+VZImNgPEO1RBhJ6RtKl7n6zymIbEG1pReEzghk=");
  });
});

describe("X-Lark-Signature", () => {
  it("is plain hex SHA-256 of timestamp + nonce + key + raw body (no official vector; derived from the algorithm)", () => {
    const expected = createHash("sha256").update('1700000000nonce-1test key{"encrypt":"abc"}').digest("hex");
    expect(feishuSignature("1700000000", "nonce-1", "test key", '{"encrypt":"abc"}')).toBe(expected);
    expect(feishuSignature("1700000000", "nonce-1", "test key", new TextEncoder().encode('{"encrypt":"abc"}'))).toBe(expected);
  });
});

describe("Feishu webhook", () => {
  async function withFake(test: (fake: FeishuFake, io: AdapterIO) => Promise<void>) {
    const fake = await startFeishuFake();
    try {
      await test(fake, memoryIO(fake.apiBase));
    } finally {
      await fake.close();
    }
  }

  const verifyRaw = async (fake: FeishuFake, io: AdapterIO, request: Request) => adapter.verify(await readInbound(request), fake.config, io);

  function event(fake: FeishuFake, overrides: { sender?: Record<string, unknown>; message?: Record<string, unknown>; header?: Record<string, unknown> } = {}) {
    return {
      schema: "2.0",
      header: {
        event_id: `evt_${Math.random().toString(36).slice(2)}`,
        token: fake.config.verificationToken,
        create_time: "1700000000000",
        event_type: "im.message.receive_v1",
        tenant_key: "tenant_fake_1",
        app_id: fake.config.appId,
        ...overrides.header,
      },
      event: {
        sender: { sender_id: { open_id: "ou_person0001" }, sender_type: "user", ...overrides.sender },
        message: {
          message_id: "om_1",
          create_time: "1700000000000",
          chat_id: "oc_group0001",
          chat_type: "group",
          message_type: "text",
          content: JSON.stringify({ text: "hello" }),
          ...overrides.message,
        },
      },
    };
  }

  async function parsed(fake: FeishuFake, io: AdapterIO, body: unknown) {
    const result = await verifyRaw(fake, io, fake.deliverRaw(webhookUrl, body));
    if (result.kind !== "verified") throw new Error(`not verified: ${JSON.stringify(result)}`);
    return adapter.parse(result.payload, fake.config, io);
  }

  it("answers an encrypted url_verification with {challenge} without needing a signature", () =>
    withFake(async (fake, io) => {
      const signed = fake.deliverRaw(webhookUrl, { challenge: "c-123", token: fake.config.verificationToken, type: "url_verification" });
      const unsigned = new Request(webhookUrl, { method: "POST", body: await signed.clone().text(), headers: { "content-type": "application/json" } });
      for (const request of [signed, unsigned]) {
        const started = performance.now();
        const result = await verifyRaw(fake, io, request);
        // Feishu gives the URL check one second.
        expect(performance.now() - started).toBeLessThan(1000);
        expect(result.kind).toBe("handshake");
        if (result.kind === "handshake") expect(await result.response.json()).toEqual({ challenge: "c-123" });
      }
    }));

  it("refuses a url_verification or event with the wrong verification token", () =>
    withFake(async (fake, io) => {
      const challenge = fake.deliverRaw(webhookUrl, { challenge: "c-123", token: "wrong", type: "url_verification" });
      expect(await verifyRaw(fake, io, challenge)).toMatchObject({ kind: "rejected", status: 401 });
      const wrongToken = fake.deliverRaw(webhookUrl, event(fake, { header: { token: "wrong" } }));
      expect(await verifyRaw(fake, io, wrongToken)).toMatchObject({ kind: "rejected", status: 401 });
    }));

  it("refuses an unsigned event, a tampered body, a stale timestamp and a future one when an Encrypt Key is set", () =>
    withFake(async (fake, io) => {
      const good = fake.deliverRaw(webhookUrl, event(fake));
      const body = await good.clone().text();
      const unsigned = new Request(webhookUrl, { method: "POST", body, headers: { "content-type": "application/json" } });
      expect((await verifyRaw(fake, io, unsigned)).kind).toBe("rejected");
      const tampered = new Request(webhookUrl, { method: "POST", body: body.replace('"}', ' "}'), headers: good.headers });
      expect((await verifyRaw(fake, io, tampered)).kind).toBe("rejected");
      const now = Math.floor(Date.now() / 1000);
      expect((await verifyRaw(fake, io, fake.deliverRaw(webhookUrl, event(fake), { timestamp: now - 301 }))).kind).toBe("rejected");
      expect((await verifyRaw(fake, io, fake.deliverRaw(webhookUrl, event(fake), { timestamp: now + 301 }))).kind).toBe("rejected");
      expect((await verifyRaw(fake, io, fake.deliverRaw(webhookUrl, event(fake), { timestamp: now - 299 }))).kind).toBe("verified");
      expect((await verifyRaw(fake, io, good)).kind).toBe("verified");
    }));

  it("works without an Encrypt Key: plaintext body, verification token only", () =>
    withFake(async (fake, io) => {
      const config = { ...fake.config, encryptKey: "" };
      const plain = (body: unknown) => readInbound(new Request(webhookUrl, { method: "POST", body: JSON.stringify(body) }));
      const handshake = await adapter.verify(await plain({ challenge: "c-9", token: fake.config.verificationToken, type: "url_verification" }), config, io);
      expect(handshake.kind).toBe("handshake");
      expect((await adapter.verify(await plain(event(fake)), config, io)).kind).toBe("verified");
      expect((await adapter.verify(await plain(event(fake, { header: { token: "nope" } })), config, io)).kind).toBe("rejected");
      // An encrypted body cannot be read without the key.
      expect((await adapter.verify(await readInbound(fake.deliverRaw(webhookUrl, event(fake))), config, io)).kind).toBe("rejected");
    }));

  it("strips the leading bot mention and names other mentions", () =>
    withFake(async (fake, io) => {
      const [message] = await parsed(
        fake,
        io,
        event(fake, {
          message: {
            content: JSON.stringify({ text: "@_user_1 please ask @_user_2 about parcel 42" }),
            mentions: [
              { key: "@_user_1", id: { open_id: fake.botOpenId }, name: "Parley" },
              { key: "@_user_2", id: { open_id: "ou_grace" }, name: "Grace" },
            ],
          },
        }),
      );
      expect(message?.text).toBe("please ask @Grace about parcel 42");
      expect(message?.conversation).toEqual({ id: "oc_group0001", isGroup: true });
      expect(message?.sentAt).toBe(1700000000000);
      expect(message?.reply).toEqual({ chatId: "oc_group0001", messageId: "om_1", chatType: "group" });
      expect(feishuPlainText("@_all hi", [])).toBe("hi");
    }));

  it("tells p2p from group chats and reads rich text, images and files", () =>
    withFake(async (fake, io) => {
      const [direct] = await parsed(fake, io, event(fake, { message: { chat_type: "p2p", chat_id: "oc_p2p_1" } }));
      expect(direct?.conversation).toEqual({ id: "oc_p2p_1", isGroup: false });
      const [post] = await parsed(
        fake,
        io,
        event(fake, {
          message: {
            message_type: "post",
            content: JSON.stringify({
              title: "Order",
              content: [
                [{ tag: "text", text: "line one" }],
                [
                  { tag: "img", image_key: "img_1" },
                  { tag: "text", text: "line two" },
                ],
              ],
            }),
          },
        }),
      );
      expect(post?.text).toBe("Order\nline one\nline two");
      expect(post?.attachments).toEqual([{ kind: "image", ref: "img_1" }]);
      const [image] = await parsed(fake, io, event(fake, { message: { message_type: "image", content: JSON.stringify({ image_key: "img_2" }) } }));
      expect(image).toMatchObject({ text: "", attachments: [{ kind: "image", ref: "img_2" }] });
      const [file] = await parsed(
        fake,
        io,
        event(fake, { message: { message_type: "file", content: JSON.stringify({ file_key: "file_1", file_name: "invoice.pdf" }) } }),
      );
      expect(file?.attachments).toEqual([{ kind: "file", ref: "file_1", name: "invoice.pdf" }]);
    }));

  it("ignores messages sent by apps (the bot itself), other events and v1 events", () =>
    withFake(async (fake, io) => {
      expect(await parsed(fake, io, event(fake, { sender: { sender_type: "app" } }))).toEqual([]);
      expect(await parsed(fake, io, event(fake, { header: { event_type: "im.message.message_read_v1" } }))).toEqual([]);
      const v1 = { uuid: "u-1", token: fake.config.verificationToken, ts: "1700000000", type: "event_callback", event: { type: "message", text: "hi" } };
      expect(await parsed(fake, io, v1)).toEqual([]);
    }));

  it("sends with receive_id_type=chat_id and a uuid, so a retried job posts once", () =>
    withFake(async (fake, io) => {
      const request = await fake.delivery(webhookUrl, { text: "hi", isGroup: true });
      const result = await verifyRaw(fake, io, request);
      if (result.kind !== "verified") throw new Error("not verified");
      const [message] = await adapter.parse(result.payload, fake.config, io);
      if (!message) throw new Error("no message");
      expect(message.text).toBe("hi");
      const first = await adapter.send(message.reply, "the same answer", fake.config, io);
      const again = await adapter.send(message.reply, "the same answer", fake.config, io);
      expect(again.ids).toEqual(first.ids);
      expect(fake.sent).toHaveLength(1);
      expect(fake.sent[0]).toMatchObject({ to: "oc_group0001", text: "the same answer", authorized: true });
    }));

  it("refuses wrong app credentials without retrying, and probe reports them", () =>
    withFake(async (fake, io) => {
      const wrong = { ...fake.config, appSecret: "wrong" };
      const caught = await adapter.send({ chatId: "oc_group0001", messageId: "om_1" }, "x", wrong, io).catch((reason: unknown) => reason);
      expect(caught).toBeInstanceOf(ChannelError);
      expect(caught).toMatchObject({ retryable: false, platformCode: "10014" });
      await expect(adapter.probe?.(wrong, io)).rejects.toBeInstanceOf(ChannelError);
      await expect(adapter.probe?.(fake.config, io)).resolves.toBeUndefined();
    }));

  it("renews the token on 99991663 and gives up retryably if the fresh one is refused too", () =>
    withFake(async (fake, io) => {
      await fake.delivery(webhookUrl, { text: "hi", isGroup: true });
      const to = { chatId: "oc_group0001", messageId: "om_2" };
      await adapter.send(to, "one", fake.config, io);
      fake.failNext("token-expired", 2);
      const caught = await adapter.send(to, "two", fake.config, io).catch((reason: unknown) => reason);
      expect(caught).toMatchObject({ retryable: true, platformCode: "99991663" });
      expect(fake.tokensIssued).toBe(2);
      await adapter.send(to, "two", fake.config, io);
      expect(fake.tokensIssued).toBe(3);
      expect(fake.sent.map((sent) => sent.text)).toEqual(["one", "two"]);
    }));

  it("reads Feishu's rate-limit reset header", () =>
    withFake(async (fake, io) => {
      await fake.delivery(webhookUrl, { text: "hi", isGroup: true });
      fake.failNext("rate-limited");
      const caught = await adapter.send({ chatId: "oc_group0001", messageId: "om_3" }, "x", fake.config, io).catch((reason: unknown) => reason);
      expect(caught).toMatchObject({ retryable: true, retryAfterMs: 1000, platformCode: "99991400" });
    }));
});

describe("Feishu media", () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
  const doc = new TextEncoder().encode("# notes\nhello");

  it("downloads a message's image and file from its resources, refuses a key not in the message (234003), and sends an image", async () => {
    const fake = await startFeishuFake();
    try {
      const io = memoryIO(fake.apiBase);
      const receive = async (media: { kind: "image" | "file"; bytes: Uint8Array; mime?: string; name?: string }) => {
        const verified = await adapter.verify(await readInbound(await fake.delivery(webhookUrl, { text: "", media: [media] })), fake.config, io);
        if (verified.kind !== "verified") throw new Error("not verified");
        const [message] = await adapter.parse(verified.payload, fake.config, io);
        return message!;
      };
      const pictured = await receive({ kind: "image", bytes: png, mime: "image/png" });
      expect(pictured.attachments[0]?.kind).toBe("image");
      expect((await adapter.fetchMedia!(pictured.attachments[0]!, pictured, fake.config, io)).bytes).toEqual(png);
      const filed = await receive({ kind: "file", bytes: doc, mime: "text/markdown", name: "notes.md" });
      expect(await adapter.fetchMedia!(filed.attachments[0]!, filed, fake.config, io)).toMatchObject({ bytes: doc, name: "notes.md" });
      // The image's key belongs to the other message.
      await expect(adapter.fetchMedia!(pictured.attachments[0]!, filed, fake.config, io)).rejects.toMatchObject({ retryable: false, platformCode: "234003" });
      await adapter.sendImage!(pictured.reply, { bytes: png, mime: "image/png", name: "chart.png" }, fake.config, io);
      expect(fake.sent).toEqual([
        expect.objectContaining({ to: pictured.conversation.id, authorized: true, image: { bytes: png, mime: "image/png", name: "chart.png" } }),
      ]);
    } finally {
      await fake.close();
    }
  });
});
