import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { memoryIO, readInbound } from "../../runtime";
import { channelContract } from "../../testing/contract";
import { startDiscordFake, startFake, type DiscordFake } from "../../testing/discord";
import { ChannelError, type AdapterIO } from "../../types";
import { ed25519PrivateKey, ed25519PublicKey, rawPublicKeyHex, signedBytes, signEd25519, verifyEd25519 } from "./ed25519";
import { adapter, askCommand } from "./index";
import { snowflakeAt, snowflakeTime } from "./snowflake";

channelContract(adapter, startFake);

const empty = new Uint8Array(0);
const webhookUrl = "https://parley.example/api/v1/channels/hooks/dc_1";

describe("Ed25519 (RFC 8032 §7.1)", () => {
  const test1 = {
    secret: "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
    public: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
    signature: "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
  };

  it("TEST 1: the signature of the empty message verifies under the raw public key", () => {
    expect(verifyEd25519(test1.public, empty, test1.signature)).toBe(true);
    expect(verifyEd25519(test1.public.toUpperCase(), empty, test1.signature.toUpperCase())).toBe(true);
  });

  it("TEST 1: signing with the secret key gives exactly the published signature and public key", () => {
    const privateKey = ed25519PrivateKey(test1.secret);
    expect(signEd25519(privateKey, empty)).toBe(test1.signature);
    expect(rawPublicKeyHex(ed25519PublicKey(test1.public)!)).toBe(test1.public);
  });

  it("TEST 1 negatives: a flipped signature bit, a flipped key bit, another message, malformed input", () => {
    const flippedSignature = (parseInt(test1.signature[0]!, 16) ^ 1).toString(16) + test1.signature.slice(1);
    expect(verifyEd25519(test1.public, empty, flippedSignature)).toBe(false);
    const flippedKey = test1.public.slice(0, 63) + (parseInt(test1.public[63]!, 16) ^ 1).toString(16);
    expect(verifyEd25519(flippedKey, empty, test1.signature)).toBe(false);
    expect(verifyEd25519(test1.public, new Uint8Array([0]), test1.signature)).toBe(false);
    expect(verifyEd25519(test1.public, empty, test1.signature.slice(2))).toBe(false);
    expect(verifyEd25519(test1.public, empty, `${test1.signature.slice(0, 126)}zz`)).toBe(false);
    expect(verifyEd25519("", empty, test1.signature)).toBe(false);
    expect(verifyEd25519(test1.public.slice(2), empty, test1.signature)).toBe(false);
  });

  it("round-trips discord-interactions' example PING body with a generated key pair", () => {
    const { privateKey, publicKey } = generateKeyPairSync("ed25519");
    const body = new TextEncoder().encode('{"id":"787053080478613555","token":"ThisIsATokenFromDiscordThatIsVeryLong","type":1,"version":1}');
    const signature = signEd25519(privateKey, signedBytes("1616161616", body));
    expect(verifyEd25519(rawPublicKeyHex(publicKey), signedBytes("1616161616", body), signature)).toBe(true);
    expect(verifyEd25519(rawPublicKeyHex(publicKey), signedBytes("1616161617", body), signature)).toBe(false);
  });
});

describe("discord snowflakes", () => {
  it("reads the creation time of Discord's documented example id", () => {
    // Discord's "Snowflakes" reference: 175928847299117063 was made at 2016-04-30 11:18:25.796 UTC.
    expect(snowflakeTime("175928847299117063")).toBe(Date.parse("2016-04-30T11:18:25.796Z"));
    expect(snowflakeTime(snowflakeAt(1_700_000_000_123, 5))).toBe(1_700_000_000_123);
    expect(snowflakeTime("abc")).toBeUndefined();
  });
});

async function withFake(test: (fake: DiscordFake, io: AdapterIO) => Promise<void>) {
  const fake = await startDiscordFake();
  try {
    await test(fake, memoryIO(fake.apiBase));
  } finally {
    await fake.close();
  }
}

describe("discord verify", () => {
  it("answers a signed PING with {type:1} and rejects an unsigned one with 401", () =>
    withFake(async (fake, io) => {
      const ping = '{"id":"787053080478613555","token":"ThisIsATokenFromDiscordThatIsVeryLong","type":1,"version":1}';
      const result = await adapter.verify(await readInbound(fake.signedInteraction(webhookUrl, ping)), fake.config, io);
      expect(result.kind).toBe("handshake");
      if (result.kind === "handshake") {
        expect(result.response.headers.get("content-type")).toBe("application/json");
        expect(await result.response.json()).toEqual({ type: 1 });
      }
      const unsigned = await readInbound(new Request(webhookUrl, { method: "POST", body: ping }));
      expect(await adapter.verify(unsigned, fake.config, io)).toMatchObject({ kind: "rejected", status: 401 });
    }));

  it("rejects timestamps more than 300 s off either way, a tampered body and another application's key", () =>
    withFake(async (fake, io) => {
      const body = '{"type":2,"id":"1"}';
      const now = Math.floor(Date.now() / 1000);
      for (const skew of [-301, 301, -3600]) {
        const result = await adapter.verify(await readInbound(fake.signedInteraction(webhookUrl, body, now + skew)), fake.config, io);
        expect(result, String(skew)).toMatchObject({ kind: "rejected", status: 401 });
      }
      expect((await adapter.verify(await readInbound(fake.signedInteraction(webhookUrl, body, now - 290)), fake.config, io)).kind).toBe("verified");
      const signed = fake.signedInteraction(webhookUrl, body);
      const tampered = new Request(webhookUrl, { method: "POST", headers: signed.headers, body: body.replace("2", "3") });
      expect(await adapter.verify(await readInbound(tampered), fake.config, io)).toMatchObject({ kind: "rejected", status: 401 });
      const otherKey = rawPublicKeyHex(generateKeyPairSync("ed25519").publicKey);
      expect(await adapter.verify(await readInbound(fake.signedInteraction(webhookUrl, body)), { ...fake.config, publicKey: otherKey }, io)).toMatchObject({
        status: 401,
      });
      expect(await adapter.verify(await readInbound(fake.signedInteraction(webhookUrl, body)), { ...fake.config, publicKey: "not hex" }, io)).toMatchObject({
        status: 401,
      });
    }));

  it("rejects a signed body that is not an interaction with 400", () =>
    withFake(async (fake, io) => {
      expect(await adapter.verify(await readInbound(fake.signedInteraction(webhookUrl, "[1]")), fake.config, io)).toMatchObject({
        kind: "rejected",
        status: 400,
      });
      expect(await adapter.verify(await readInbound(fake.signedInteraction(webhookUrl, "{oops")), fake.config, io)).toMatchObject({
        kind: "rejected",
        status: 400,
      });
    }));
});

describe("discord ack and parse", () => {
  it("defers commands (type 5), component clicks (type 6) and answers autocomplete with no choices", async () => {
    expect(await adapter.ack({ type: 2 }, {}).json()).toEqual({ type: 5 });
    expect(await adapter.ack({ type: 3 }, {}).json()).toEqual({ type: 6 });
    expect(await adapter.ack({ type: 4 }, {}).json()).toEqual({ type: 8, data: { choices: [] } });
  });

  const id = snowflakeAt(1_700_000_000_000, 1);
  const command = {
    id,
    type: 2,
    application_id: "1234567890123456789",
    token: "tok",
    channel_id: "555",
    user: { id: "42", username: "ada", global_name: null, avatar: null },
    data: { name: "ask", type: 1, options: [{ name: "question", type: 3, value: "  where? " }] },
  };

  it("maps a DM command: the string option is the text, the token and its expiry go in the handle", async () => {
    const [message] = await adapter.parse(command, {}, memoryIO("http://x"));
    expect(message).toEqual({
      dedupeKey: id,
      conversation: { id: "555", isGroup: false },
      sender: { id: "42", name: "ada", isBot: false },
      text: "where?",
      attachments: [],
      sentAt: 1_700_000_000_000,
      reply: { applicationId: "1234567890123456789", interactionId: id, interactionToken: "tok", expiresAt: 1_700_000_900_000, channelId: "555" },
    });
  });

  it("finds the text inside subcommands, keeps attachment options, and ignores bots and non-commands", async () => {
    const [message] = await adapter.parse(
      {
        ...command,
        guild_id: "9",
        user: undefined,
        member: { user: { id: "43", username: "bo", global_name: "Bo", avatar: "abc" } },
        data: {
          name: "support",
          options: [
            {
              name: "ask",
              type: 1,
              options: [
                { name: "file", type: 11, value: "att1" },
                { name: "q", type: 3, value: "what is this?" },
              ],
            },
          ],
          resolved: {
            attachments: {
              att1: { id: "att1", filename: "photo.png", content_type: "image/png", url: "https://cdn.discordapp.com/attachments/1/2/photo.png" },
            },
          },
        },
      },
      {},
      memoryIO("http://x"),
    );
    expect(message).toMatchObject({
      conversation: { isGroup: true },
      sender: { id: "43", name: "Bo", avatarUrl: "https://cdn.discordapp.com/avatars/43/abc.png" },
      text: "what is this?",
      attachments: [{ kind: "image", ref: "https://cdn.discordapp.com/attachments/1/2/photo.png", mime: "image/png", name: "photo.png" }],
    });
    expect(await adapter.parse({ ...command, user: { id: "44", username: "b", bot: true } }, {}, memoryIO("http://x"))).toEqual([]);
    expect(await adapter.parse({ ...command, type: 3 }, {}, memoryIO("http://x"))).toEqual([]);
  });
});

describe("discord send against the fake", () => {
  async function deliveredMessage(fake: DiscordFake, io: AdapterIO) {
    const verified = await adapter.verify(await readInbound(await fake.delivery(webhookUrl, { text: "hi", conversationId: "777" })), fake.config, io);
    if (verified.kind !== "verified") throw new Error("not verified");
    const [message] = await adapter.parse(verified.payload, fake.config, io);
    if (!message) throw new Error("no message");
    return message;
  }

  it("edits the deferred original first, then sends follow-ups, never allowing mentions to ping", () =>
    withFake(async (fake, io) => {
      const message = await deliveredMessage(fake, io);
      await adapter.send(message.reply, "one", fake.config, io);
      await adapter.send(message.reply, "two", fake.config, io);
      await adapter.send(message.reply, "three", fake.config, io);
      expect(fake.calls).toEqual(["edit-original", "follow-up", "follow-up"]);
      expect(fake.sent.map((sent) => [sent.to, sent.text, sent.authorized])).toEqual([
        ["777", "one", true],
        ["777", "two", true],
        ["777", "three", true],
      ]);
    }));

  it("edits the original again when the first edit failed", () =>
    withFake(async (fake, io) => {
      const message = await deliveredMessage(fake, io);
      fake.failNext("server-error");
      await expect(adapter.send(message.reply, "one", fake.config, io)).rejects.toMatchObject({ retryable: true });
      await adapter.send(message.reply, "one", fake.config, io);
      expect(fake.calls).toEqual(["edit-original", "edit-original"]);
    }));

  it("after 15 minutes posts to the channel with the bot token, without trying the dead token", () =>
    withFake(async (fake, io) => {
      const message = await deliveredMessage(fake, io);
      await adapter.send({ ...message.reply, expiresAt: Date.now() - 1 }, "late answer", fake.config, io);
      expect(fake.calls).toEqual(["channel-message"]);
      expect(fake.sent).toEqual([expect.objectContaining({ to: "777", text: "late answer", authorized: true })]);
    }));

  it("falls back to the channel when Discord says the interaction token is invalid (50027)", () =>
    withFake(async (fake, io) => {
      const message = await deliveredMessage(fake, io);
      fake.expireInteractionTokens();
      await adapter.send(message.reply, "answer", fake.config, io);
      expect(fake.calls).toEqual(["edit-original", "channel-message"]);
      expect(fake.sent.map((sent) => sent.authorized)).toEqual([false, true]);
      const withoutBot = { ...fake.config, botToken: "" };
      await expect(adapter.send(message.reply, "answer", withoutBot, io)).rejects.toMatchObject({ retryable: false, platformCode: "50027" });
    }));

  it("refuses a wrong bot token with Discord's 401 and reads retry_after from a 429", () =>
    withFake(async (fake, io) => {
      const handle = { channelId: "777" };
      await expect(adapter.send(handle, "x", { ...fake.config, botToken: "wrong" }, io)).rejects.toMatchObject({ retryable: false, platformCode: "401" });
      expect(fake.sent).toEqual([expect.objectContaining({ authorized: false })]);
      fake.failNext("rate-limited");
      const error = await adapter.send(handle, "x", fake.config, io).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ChannelError);
      expect(error).toMatchObject({ retryable: true, retryAfterMs: 1250 });
    }));

  it("register creates /ask and sets the interactions endpoint; probe checks the application and key", () =>
    withFake(async (fake, io) => {
      await adapter.register?.(webhookUrl, fake.config, io);
      expect(fake.commands).toEqual([askCommand]);
      expect(fake.interactionsEndpointUrl).toBe(webhookUrl);
      await adapter.probe?.(fake.config, io);
      const otherKey = rawPublicKeyHex(generateKeyPairSync("ed25519").publicKey);
      await expect(adapter.probe?.({ ...fake.config, publicKey: otherKey }, io)).rejects.toBeInstanceOf(ChannelError);
      await expect(adapter.probe?.({ ...fake.config, botToken: "wrong" }, io)).rejects.toBeInstanceOf(ChannelError);
    }));
});

describe("discord media", () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);

  it("downloads an attachment option from its CDN url and refuses a gone one or another host", async () => {
    const fake = await startDiscordFake();
    try {
      const io = memoryIO(fake.apiBase);
      const request = await fake.delivery("https://parley.example/api/v1/channels/hooks/dc", {
        text: "what is this",
        media: [{ kind: "image", bytes: png, mime: "image/png", name: "shot.png" }],
      });
      const verified = await adapter.verify(await readInbound(request), fake.config, io);
      if (verified.kind !== "verified") throw new Error("not verified");
      const [message] = await adapter.parse(verified.payload, fake.config, io);
      const attachment = message!.attachments[0]!;
      expect(attachment).toMatchObject({ kind: "image", name: "shot.png" });
      expect(await adapter.fetchMedia!(attachment, message!, fake.config, io)).toEqual({ bytes: png, mime: "image/png", name: "shot.png" });
      const gone = { ...attachment, ref: attachment.ref.replace(/\/(\d+)\/shot\.png/, "/1/shot.png") };
      await expect(adapter.fetchMedia!(gone, message!, fake.config, io)).rejects.toMatchObject({ retryable: false, platformCode: "404" });
      await expect(adapter.fetchMedia!({ kind: "image", ref: "https://evil.example/x.png" }, message!, fake.config, io)).rejects.toMatchObject({
        platformCode: "untrusted_attachment_url",
      });
    } finally {
      await fake.close();
    }
  });
});
