import { describe, expect, it } from "vitest";
import { memoryIO, readInbound } from "../../runtime";
import { channelContract } from "../../testing/contract";
import { startFake, startSlackFake, type SlackFake } from "../../testing/slack";
import { ChannelError, type AdapterIO } from "../../types";
import { adapter } from "./index";
import { slackSignature } from "./signature";

channelContract(adapter, startFake);

const webhookUrl = "https://parley.example/api/v1/channels/hooks/slack_test";

// Slack's documented example ("Verifying requests from Slack"), channels.md §3.1.
const vector = {
  signingSecret: "8f742231b10e8888abcd99yyyzzz85a5",
  timestamp: "1531420618",
  body: "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c",
  signature: "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503",
};

function vectorRequest(overrides: { body?: string; timestamp?: string; signature?: string } = {}) {
  return readInbound(
    new Request(webhookUrl, {
      method: "POST",
      body: overrides.body ?? vector.body,
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "x-slack-request-timestamp": overrides.timestamp ?? vector.timestamp,
        "x-slack-signature": overrides.signature ?? vector.signature,
      },
    }),
  );
}

const frozenAt = (seconds: number) => memoryIO("http://127.0.0.1:9", { now: () => seconds * 1000 });
const config = { botToken: "xoxb-1-2", signingSecret: vector.signingSecret };

describe("Slack request signing (official vector)", () => {
  it("computes the documented signature", () => {
    expect(slackSignature(vector.signingSecret, vector.timestamp, vector.body)).toBe(vector.signature);
    expect(slackSignature(vector.signingSecret, vector.timestamp, new TextEncoder().encode(vector.body))).toBe(vector.signature);
  });

  it("verifies the documented request at its own time, and up to five minutes later", async () => {
    for (const offset of [0, 300, -300]) {
      const result = await adapter.verify(await vectorRequest(), config, frozenAt(1531420618 + offset));
      expect(result.kind, `offset ${offset}`).toBe("verified");
    }
  });

  it("refuses it 301 seconds later or earlier (timestamp checked before the MAC)", async () => {
    for (const offset of [301, -301]) {
      const result = await adapter.verify(await vectorRequest(), config, frozenAt(1531420618 + offset));
      expect(result).toMatchObject({ kind: "rejected", status: 401 });
    }
  });

  it("refuses a tampered body, a flipped signature byte, a wrong secret and a shifted timestamp", async () => {
    const io = frozenAt(1531420618);
    const flipped = vector.signature.slice(0, -1) + (vector.signature.endsWith("3") ? "4" : "3");
    const cases = [
      await vectorRequest({ body: vector.body.replace("roadrunner", "roadrunnes") }),
      await vectorRequest({ signature: flipped }),
      await vectorRequest({ timestamp: "1531420619" }),
      await vectorRequest({ signature: vector.signature.toUpperCase() }),
      await vectorRequest({ signature: "" }),
    ];
    for (const request of cases) expect((await adapter.verify(request, config, io)).kind).toBe("rejected");
    const wrongSecret = await adapter.verify(await vectorRequest(), { ...config, signingSecret: "8f742231b10e8888abcd99yyyzzz85a6" }, io);
    expect(wrongSecret.kind).toBe("rejected");
  });

  it("refuses GET and a non-numeric timestamp without throwing", async () => {
    const io = frozenAt(1531420618);
    const get = await readInbound(new Request(webhookUrl, { method: "GET" }));
    expect(await adapter.verify(get, config, io)).toMatchObject({ kind: "rejected", status: 400 });
    expect((await adapter.verify(await vectorRequest({ timestamp: "1531420618.5" }), config, io)).kind).toBe("rejected");
  });

  it("takes a slash command as verified but draws no chat message from it", async () => {
    const result = await adapter.verify(await vectorRequest(), config, frozenAt(1531420618));
    if (result.kind !== "verified") throw new Error("not verified");
    expect(result.payload).toMatchObject({ command: "/webhook-collect", user_id: "U2CERLKJA" });
    expect(await adapter.parse(result.payload, config, frozenAt(1531420618))).toEqual([]);
  });
});

describe("Slack events", () => {
  async function withFake(test: (fake: SlackFake, io: AdapterIO) => Promise<void>) {
    const fake = await startSlackFake();
    try {
      await test(fake, memoryIO(fake.apiBase));
    } finally {
      await fake.close();
    }
  }

  function signedEvent(fake: SlackFake, event: Record<string, unknown>, eventId = `Ev${Math.random().toString(36).slice(2)}`) {
    const body = JSON.stringify({
      type: "event_callback",
      team_id: "T0FAKETEAM",
      event,
      event_id: eventId,
      event_time: 1700000000,
      authorizations: [{ team_id: "T0FAKETEAM", user_id: fake.botUserId, is_bot: true }],
    });
    const timestamp = String(Math.floor(Date.now() / 1000));
    return readInbound(
      new Request(webhookUrl, {
        method: "POST",
        body,
        headers: {
          "content-type": "application/json",
          "x-slack-request-timestamp": timestamp,
          "x-slack-signature": slackSignature(fake.config.signingSecret as string, timestamp, body),
        },
      }),
    );
  }

  async function parsed(fake: SlackFake, io: AdapterIO, event: Record<string, unknown>) {
    const result = await adapter.verify(await signedEvent(fake, event), fake.config, io);
    if (result.kind !== "verified") throw new Error(`not verified: ${JSON.stringify(result)}`);
    return adapter.parse(result.payload, fake.config, io);
  }

  it("strips the bot mention from an app_mention and keeps other people's", () =>
    withFake(async (fake, io) => {
      const [message] = await parsed(fake, io, {
        type: "app_mention",
        user: "U0PERSON01",
        text: `<@${fake.botUserId}> ask <@U0OTHER22|grace> about &lt;order&gt; at <https://example.com/o/1|the shop>`,
        ts: "1700000000.000100",
        channel: "C0GENERAL1",
      });
      expect(message?.text).toBe("ask @grace about <order> at the shop");
      expect(message?.conversation).toEqual({ id: "C0GENERAL1", isGroup: true });
      expect(message?.sentAt).toBe(1700000000000);
      expect(message?.reply).toMatchObject({ channel: "C0GENERAL1", threadTs: null });
    }));

  it("ignores bot messages, edits, channel messages that are not mentions, and the bot's own user", () =>
    withFake(async (fake, io) => {
      const base = { type: "message", channel_type: "im", user: "U0PERSON01", text: "hi", ts: "1700000000.000100", channel: "D0PERSON01" };
      expect(await parsed(fake, io, { ...base, bot_id: "B0OTHER" })).toEqual([]);
      expect(await parsed(fake, io, { ...base, subtype: "message_changed" })).toEqual([]);
      expect(await parsed(fake, io, { ...base, subtype: "bot_message" })).toEqual([]);
      expect(await parsed(fake, io, { ...base, channel_type: "channel", channel: "C0GENERAL1" })).toEqual([]);
      expect(await parsed(fake, io, { ...base, user: fake.botUserId })).toEqual([]);
      expect(await parsed(fake, io, { type: "reaction_added", user: "U0PERSON01", reaction: "tada" })).toEqual([]);
      expect(await parsed(fake, io, base)).toHaveLength(1);
    }));

  it("takes a shared file as an attachment", () =>
    withFake(async (fake, io) => {
      const [message] = await parsed(fake, io, {
        type: "message",
        subtype: "file_share",
        channel_type: "im",
        user: "U0PERSON01",
        text: "",
        ts: "1700000000.000100",
        channel: "D0PERSON01",
        files: [{ id: "F01", name: "label.png", mimetype: "image/png", url_private: "https://files.slack.com/files-pri/T0-F01/label.png" }],
      });
      expect(message?.attachments).toEqual([
        { kind: "image", ref: "https://files.slack.com/files-pri/T0-F01/label.png", mime: "image/png", name: "label.png" },
      ]);
    }));

  it("answers in the thread a message was written in", () =>
    withFake(async (fake, io) => {
      const [inChannel] = await fake.delivery(webhookUrl, { text: "start", isGroup: true }).then(async (request) => {
        const result = await adapter.verify(await readInbound(request), fake.config, io);
        if (result.kind !== "verified") throw new Error("not verified");
        return adapter.parse(result.payload, fake.config, io);
      });
      const [inThread] = await parsed(fake, io, {
        type: "app_mention",
        user: "U0PERSON01",
        text: `<@${fake.botUserId}> and this?`,
        ts: "1700000050.000200",
        thread_ts: "1700000000.000100",
        channel: "C0GENERAL1",
      });
      if (!inChannel || !inThread) throw new Error("no message");
      await adapter.send(inChannel.reply, "in the channel", fake.config, io);
      const { ids } = await adapter.send(inThread.reply, "in the thread", fake.config, io);
      expect(ids).toHaveLength(1);
      expect(fake.sent.map(({ to, text, threadTs }) => ({ to, text, threadTs }))).toEqual([
        { to: "C0GENERAL1", text: "in the channel", threadTs: undefined },
        { to: "C0GENERAL1", text: "in the thread", threadTs: "1700000000.000100" },
      ]);
    }));

  it("refuses an unsigned or wrongly signed url_verification", () =>
    withFake(async (fake, io) => {
      const { request } = (await fake.handshake?.(webhookUrl)) ?? { request: undefined };
      if (!request) throw new Error("no handshake");
      const body = await request.clone().text();
      const unsigned = new Request(webhookUrl, { method: "POST", body, headers: { "content-type": "application/json" } });
      expect((await adapter.verify(await readInbound(unsigned), fake.config, io)).kind).toBe("rejected");
      const wrong = await adapter.verify(await readInbound(request), { ...fake.config, signingSecret: "0".repeat(32) }, io);
      expect(wrong.kind).toBe("rejected");
    }));

  it("gives a retried delivery (X-Slack-Retry-Num) the same dedupe key", () =>
    withFake(async (fake, io) => {
      const keys: string[] = [];
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const request = await fake.delivery(webhookUrl, { text: "again", id: "Ev0FIXED01" });
        if (attempt === 1) expect(request.headers.get("x-slack-retry-num")).toBe("1");
        const result = await adapter.verify(await readInbound(request), fake.config, io);
        if (result.kind !== "verified") throw new Error("not verified");
        const [message] = await adapter.parse(result.payload, fake.config, io);
        keys.push(message?.dedupeKey ?? "");
      }
      expect(keys).toEqual(["Ev0FIXED01", "Ev0FIXED01"]);
    }));

  it("classifies Slack's Web API errors", () =>
    withFake(async (fake, io) => {
      const request = await fake.delivery(webhookUrl, { text: "hello" });
      const result = await adapter.verify(await readInbound(request), fake.config, io);
      if (result.kind !== "verified") throw new Error("not verified");
      const [message] = await adapter.parse(result.payload, fake.config, io);
      if (!message) throw new Error("no message");
      const cases = [
        ["ratelimited", true],
        ["invalid_auth", false],
        ["token_revoked", false],
        ["channel_not_found", false],
        ["not_in_channel", false],
        ["internal_error", true],
      ] as const;
      for (const [error, retryable] of cases) {
        fake.failNextWithError(error);
        const caught = await adapter.send(message.reply, "x", fake.config, io).catch((reason: unknown) => reason);
        expect(caught, error).toBeInstanceOf(ChannelError);
        expect((caught as ChannelError).retryable, error).toBe(retryable);
        expect((caught as ChannelError).platformCode, error).toBe(error);
      }
      fake.failNext("rate-limited");
      const limited = await adapter.send(message.reply, "x", fake.config, io).catch((reason: unknown) => reason);
      expect(limited).toMatchObject({ retryable: true, retryAfterMs: 1000 });
      expect(fake.sent).toHaveLength(0);
    }));

  it("is refused with invalid_auth under a wrong bot token, and probe says so", () =>
    withFake(async (fake, io) => {
      const wrong = { ...fake.config, botToken: "xoxb-0-wrong" };
      const request = await fake.delivery(webhookUrl, { text: "hello" });
      const result = await adapter.verify(await readInbound(request), fake.config, io);
      if (result.kind !== "verified") throw new Error("not verified");
      const [message] = await adapter.parse(result.payload, fake.config, io);
      if (!message) throw new Error("no message");
      const caught = await adapter.send(message.reply, "x", wrong, io).catch((reason: unknown) => reason);
      expect(caught).toMatchObject({ retryable: false, platformCode: "invalid_auth" });
      expect(fake.sent.every((sent) => !sent.authorized)).toBe(true);
      await expect(adapter.probe?.(wrong, io)).rejects.toMatchObject({ platformCode: "invalid_auth" });
      await expect(adapter.probe?.(fake.config, io)).resolves.toBeUndefined();
      expect(fake.tokensIssued).toBe(0);
    }));

  it("fails retryably when Slack cannot be reached", async () => {
    const io = memoryIO("http://127.0.0.1:9");
    const caught = await adapter.send({ channel: "C1", threadTs: null }, "x", config, io).catch((reason: unknown) => reason);
    expect(caught).toMatchObject({ retryable: true });
  });
});

describe("Slack media", () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);

  it("downloads a shared file from url_private with the bot token, refuses without access, and uploads an image", async () => {
    const fake = await startSlackFake();
    try {
      const io = memoryIO(fake.apiBase);
      const request = await fake.delivery("https://parley.example/api/v1/channels/hooks/slack", {
        text: "what is this?",
        media: [{ kind: "image", bytes: png, mime: "image/png", name: "shot.png" }],
      });
      const verified = await adapter.verify(await readInbound(request), fake.config, io);
      if (verified.kind !== "verified") throw new Error("not verified");
      const [message] = await adapter.parse(verified.payload, fake.config, io);
      const attachment = message!.attachments[0]!;
      expect(attachment).toMatchObject({ kind: "image", mime: "image/png", name: "shot.png" });
      expect(await adapter.fetchMedia!(attachment, message!, fake.config, io)).toEqual({ bytes: png, mime: "image/png", name: "shot.png" });
      // A file id is looked up with files.info.
      const fileId = /T0FAKETEAM-(F[A-Z0-9]+)/.exec(attachment.ref)![1]!;
      expect((await adapter.fetchMedia!({ kind: "image", ref: fileId }, message!, fake.config, io)).bytes).toEqual(png);
      await expect(adapter.fetchMedia!({ kind: "image", ref: "FNOSUCHFILE" }, message!, fake.config, io)).rejects.toMatchObject({
        retryable: false,
        platformCode: "file_not_found",
      });
      const wrongToken = { ...fake.config, botToken: "xoxb-0-wrong" };
      await expect(adapter.fetchMedia!(attachment, message!, wrongToken, io)).rejects.toMatchObject({ retryable: false, platformCode: "file_access_refused" });
      // The token never goes to another host.
      await expect(adapter.fetchMedia!({ kind: "image", ref: "https://evil.example/x.png" }, message!, fake.config, io)).rejects.toMatchObject({
        platformCode: "untrusted_file_url",
      });
      await adapter.sendImage!(message!.reply, { bytes: png, mime: "image/png", name: "answer.png" }, fake.config, io);
      expect(fake.sent).toEqual([
        expect.objectContaining({ to: message!.conversation.id, authorized: true, image: { bytes: png, mime: "image/png", name: "answer.png" } }),
      ]);
    } finally {
      await fake.close();
    }
  });
});
