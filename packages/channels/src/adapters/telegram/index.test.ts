import { describe, expect, it } from "vitest";
import { memoryIO, readInbound } from "../../runtime";
import { channelContract } from "../../testing/contract";
import { startFake, startTelegramFake } from "../../testing/telegram";
import { ChannelError } from "../../types";
import { adapter } from "./index";
import { webhookSecret } from "./secret";

channelContract(adapter, startFake);

const webhookUrl = "https://parley.example/api/v1/channels/hooks/tg_1";
const config = { botToken: "123456:ABCdef_ghi-JKL", secretToken: "s3cret-Token_1" };

function update(body: unknown, secret: string | null = config.secretToken) {
  return readInbound(
    new Request(webhookUrl, {
      method: "POST",
      headers: { "content-type": "application/json", ...(secret === null ? {} : { "x-telegram-bot-api-secret-token": secret }) },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );
}

const io = memoryIO("http://127.0.0.1:9");

const privateMessage = {
  update_id: 10001,
  message: {
    message_id: 7,
    from: { id: 42, is_bot: false, first_name: "Ada", last_name: "Lovelace", username: "ada" },
    chat: { id: 42, first_name: "Ada", type: "private" },
    date: 1_700_000_000,
    text: "hello",
  },
};

describe("telegram verify", () => {
  it("accepts the right secret token and refuses a missing, wrong or different-length one", async () => {
    expect((await adapter.verify(await update(privateMessage), config, io)).kind).toBe("verified");
    for (const secret of [null, "", "s3cret-Token_2", "s3cret-Token_1x", "S3CRET-TOKEN_1"]) {
      const result = await adapter.verify(await update(privateMessage, secret), config, io);
      expect(result, String(secret)).toMatchObject({ kind: "rejected", status: 401 });
    }
  });

  it("derives a stable secret in Telegram's alphabet when none is configured", async () => {
    const derived = webhookSecret({ botToken: config.botToken, secretToken: "" });
    expect(derived).toMatch(/^[A-Za-z0-9_-]{1,256}$/);
    expect(webhookSecret({ botToken: config.botToken })).toBe(derived);
    expect(webhookSecret({ botToken: "999:other" })).not.toBe(derived);
    const withoutSecret = { botToken: config.botToken, secretToken: "" };
    expect((await adapter.verify(await update(privateMessage, derived), withoutSecret, io)).kind).toBe("verified");
    expect((await adapter.verify(await update(privateMessage, ""), withoutSecret, io)).kind).toBe("rejected");
  });

  it("rejects bodies that are not updates, and GET requests", async () => {
    expect(await adapter.verify(await update("[1,2]"), config, io)).toMatchObject({ kind: "rejected", status: 400 });
    expect(await adapter.verify(await update({ message: {} }), config, io)).toMatchObject({ kind: "rejected", status: 400 });
    const get = await readInbound(new Request(webhookUrl, { headers: { "x-telegram-bot-api-secret-token": config.secretToken } }));
    expect((await adapter.verify(get, config, io)).kind).toBe("rejected");
  });
});

describe("telegram parse", () => {
  const parse = (payload: unknown) => adapter.parse(payload, config, io);

  it("maps a private message, with the bot id in the dedupe key", async () => {
    const [message] = await parse(privateMessage);
    expect(message).toMatchObject({
      dedupeKey: "123456:10001",
      conversation: { id: "42", isGroup: false },
      sender: { id: "42", name: "Ada Lovelace", isBot: false },
      text: "hello",
      sentAt: 1_700_000_000_000,
      reply: { chatId: "42", messageId: 7, isGroup: false },
    });
  });

  it("maps group and supergroup messages and strips the bot name from commands", async () => {
    for (const type of ["group", "supergroup"]) {
      const [message] = await parse({
        update_id: 2,
        message: { ...privateMessage.message, chat: { id: -100123, title: "Team", type }, text: "/ask@parley_bot where is it?" },
      });
      expect(message).toMatchObject({ conversation: { id: "-100123", isGroup: true, name: "Team" }, text: "/ask where is it?", reply: { isGroup: true } });
    }
  });

  it("ignores bots, edited messages, channel posts and other updates", async () => {
    expect(await parse({ update_id: 3, message: { ...privateMessage.message, from: { id: 9, is_bot: true, first_name: "Bot" } } })).toEqual([]);
    expect(await parse({ update_id: 4, edited_message: privateMessage.message })).toEqual([]);
    expect(await parse({ update_id: 5, message: { ...privateMessage.message, chat: { id: -5, type: "channel" } } })).toEqual([]);
    expect(await parse({ update_id: 6, callback_query: { id: "1" } })).toEqual([]);
  });

  it("keeps captions and attachments (largest photo, document, voice, location)", async () => {
    const [message] = await parse({
      update_id: 7,
      message: {
        ...privateMessage.message,
        text: undefined,
        caption: "see this",
        photo: [
          { file_id: "small", width: 90 },
          { file_id: "large", width: 1280 },
        ],
        document: { file_id: "doc1", file_name: "invoice.pdf", mime_type: "application/pdf" },
        voice: { file_id: "voice1", mime_type: "audio/ogg", duration: 2 },
        location: { latitude: 51.5, longitude: -0.12 },
      },
    });
    expect(message?.text).toBe("see this");
    expect(message?.attachments).toEqual([
      { kind: "image", ref: "large" },
      { kind: "audio", ref: "voice1", mime: "audio/ogg" },
      { kind: "file", ref: "doc1", mime: "application/pdf", name: "invoice.pdf" },
      { kind: "location", ref: "51.5,-0.12" },
    ]);
  });
});

describe("telegram against the fake Bot API", () => {
  it("register sets the webhook with the secret token and message updates only", async () => {
    const fake = await startTelegramFake();
    try {
      await adapter.register?.(webhookUrl, fake.config, memoryIO(fake.apiBase));
      expect(fake.webhook).toEqual({ url: webhookUrl, secret_token: fake.config.secretToken, allowed_updates: ["message"] });
    } finally {
      await fake.close();
    }
  });

  it("probe passes with the right token and fails with a wrong one; a wrong token's send is refused", async () => {
    const fake = await startTelegramFake();
    try {
      const fakeIO = memoryIO(fake.apiBase);
      await adapter.probe?.(fake.config, fakeIO);
      const wrong = { ...fake.config, botToken: "7000000001:wrong" };
      await expect(adapter.probe?.(wrong, fakeIO)).rejects.toBeInstanceOf(ChannelError);
      await expect(adapter.send({ chatId: "42" }, "hi", wrong, fakeIO)).rejects.toMatchObject({ platformCode: "401" });
      expect(fake.sent).toEqual([expect.objectContaining({ to: "42", authorized: false })]);
    } finally {
      await fake.close();
    }
  });

  it("reports Telegram's retry_after on 429 and refuses 'chat not found' for good", async () => {
    const fake = await startTelegramFake();
    try {
      const fakeIO = memoryIO(fake.apiBase);
      fake.failNext("rate-limited");
      await expect(adapter.send({ chatId: "42" }, "hi", fake.config, fakeIO)).rejects.toMatchObject({
        retryable: true,
        retryAfterMs: 3000,
        platformCode: "429",
      });
      fake.failNext("rejected");
      await expect(adapter.send({ chatId: "42" }, "hi", fake.config, fakeIO)).rejects.toMatchObject({ retryable: false, platformCode: "400" });
      const { ids } = await adapter.send({ chatId: "42" }, "hi", fake.config, fakeIO);
      expect(ids).toEqual(["1"]);
    } finally {
      await fake.close();
    }
  });

  it("follows a group that became a supergroup (migrate_to_chat_id)", async () => {
    const fake = await startTelegramFake();
    try {
      fake.migrateChat("-4001", "-1004001");
      await adapter.send({ chatId: "-4001", messageId: 5, isGroup: true }, "answer", fake.config, memoryIO(fake.apiBase));
      expect(fake.sent).toEqual([expect.objectContaining({ to: "-1004001", text: "answer", authorized: true })]);
    } finally {
      await fake.close();
    }
  });

  it("treats an unreachable API as retryable", async () => {
    await expect(adapter.send({ chatId: "42" }, "hi", config, memoryIO("http://127.0.0.1:9"))).rejects.toMatchObject({ retryable: true });
  });
});

describe("telegram media", () => {
  const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1, 2, 3, 0xff, 0xd9]);
  const pdf = new TextEncoder().encode("%PDF-1.4 fake document");

  it("downloads the largest photo and a document with getFile, and refuses an unknown file_id", async () => {
    const fake = await startTelegramFake();
    try {
      const fakeIO = memoryIO(fake.apiBase);
      const request = await fake.delivery(webhookUrl, {
        text: "look",
        media: [
          { kind: "image", bytes: jpeg, mime: "image/jpeg" },
          { kind: "file", bytes: pdf, mime: "application/pdf", name: "invoice.pdf" },
        ],
      });
      const verified = await adapter.verify(await readInbound(request), fake.config, fakeIO);
      if (verified.kind !== "verified") throw new Error("not verified");
      const [message] = await adapter.parse(verified.payload, fake.config, fakeIO);
      expect(message?.text).toBe("look");
      const [image, document] = message!.attachments;
      expect(image?.kind).toBe("image");
      expect(image?.ref).not.toMatch(/_thumb$/);
      const photo = await adapter.fetchMedia!(image!, message!, fake.config, fakeIO);
      expect(photo.bytes).toEqual(jpeg);
      expect(photo.mime).toBe("image/jpeg");
      const file = await adapter.fetchMedia!(document!, message!, fake.config, fakeIO);
      expect(file).toEqual({ bytes: pdf, mime: "application/pdf", name: "invoice.pdf" });
      await expect(adapter.fetchMedia!({ kind: "image", ref: "AgACunknown" }, message!, fake.config, fakeIO)).rejects.toMatchObject({
        name: "ChannelError",
        retryable: false,
        platformCode: "400",
      });
    } finally {
      await fake.close();
    }
  });

  it("refuses a file over 15 MB, whether its size is declared or only found while reading", async () => {
    const fake = await startTelegramFake();
    try {
      const fakeIO = memoryIO(fake.apiBase);
      const big = new Uint8Array(15 * 1024 * 1024 + 1);
      big.set(jpeg);
      for (const hideSize of [false, true]) {
        const request = await fake.delivery(webhookUrl, { text: "", media: [{ kind: "image", bytes: big, mime: "image/jpeg", hideSize }] });
        const verified = await adapter.verify(await readInbound(request), fake.config, fakeIO);
        if (verified.kind !== "verified") throw new Error("not verified");
        const [message] = await adapter.parse(verified.payload, fake.config, fakeIO);
        await expect(adapter.fetchMedia!(message!.attachments[0]!, message!, fake.config, fakeIO), String(hideSize)).rejects.toMatchObject({
          retryable: false,
          platformCode: "media_too_large",
        });
      }
    } finally {
      await fake.close();
    }
  });

  it("sends an image with sendPhoto as multipart", async () => {
    const fake = await startTelegramFake();
    try {
      const { ids } = await adapter.sendImage!({ chatId: "42" }, { bytes: jpeg, mime: "image/jpeg", name: "chart.jpg" }, fake.config, memoryIO(fake.apiBase));
      expect(ids).toEqual(["1"]);
      expect(fake.sent).toEqual([expect.objectContaining({ to: "42", authorized: true, image: { bytes: jpeg, mime: "image/jpeg", name: "chart.jpg" } })]);
    } finally {
      await fake.close();
    }
  });
});
