import { describe, expect, it } from "vitest";
import { memoryIO, readInbound } from "../../runtime";
import { channelContract } from "../../testing/contract";
import { outgoingMessageEvent, startFake, startHubSpotFake, type HubSpotFake } from "../../testing/hubspot";
import { ChannelError, type AdapterIO } from "../../types";
import { adapter } from "./index";
import { checkLegacySignature, checkSignatureV3, signatureV1, signatureV2, signatureV3, v3Uri } from "./signature";

channelContract(adapter, startFake);

const secret = "yyyyyyyy-yyyy-yyyy-yyyy-yyyyyyyyyyyy";
const encoder = new TextEncoder();

describe("HubSpot signatures: official vectors (developers.hubspot.com, v1 and v2 request validation)", () => {
  it("v1: SHA-256(client secret + body) of the contact.creation example", () => {
    const body =
      '[{"eventId":1,"subscriptionId":12345,"portalId":62515,"occurredAt":1564113600000,"subscriptionType":"contact.creation","attemptNumber":0,"objectId":123,"changeSource":"CRM","changeFlag":"NEW","appId":54321}]';
    expect(signatureV1(secret, body)).toBe("232db2615f3d666fe21a8ec971ac7b5402d33b9a925784df3ca654d05f4817de");
    expect(
      checkLegacySignature(secret, "v1", {
        method: "POST",
        uri: "https://x",
        body,
        signature: "232db2615f3d666fe21a8ec971ac7b5402d33b9a925784df3ca654d05f4817de",
      }),
    ).toBe(true);
    expect(
      checkLegacySignature(secret, "v1", {
        method: "POST",
        uri: "https://x",
        body: body.replace("123", "124"),
        signature: "232db2615f3d666fe21a8ec971ac7b5402d33b9a925784df3ca654d05f4817de",
      }),
    ).toBe(false);
  });

  it("v2: SHA-256(client secret + method + URI + body) of the GET example", () => {
    expect(signatureV2(secret, "GET", "https://www.example.com/webhook_uri", "")).toBe("eee2dddcc73c94d699f5e395f4b9d454a069a6855fbfa152e91e88823087200e");
    const request = {
      method: "GET",
      uri: "https://www.example.com/webhook_uri",
      body: "",
      signature: "eee2dddcc73c94d699f5e395f4b9d454a069a6855fbfa152e91e88823087200e",
    };
    expect(checkLegacySignature(secret, "v2", request)).toBe(true);
    expect(checkLegacySignature(secret, "v1", request)).toBe(false);
    expect(checkLegacySignature(secret, "v2", { ...request, method: "POST" })).toBe(false);
    expect(checkLegacySignature(secret, "v2", { ...request, uri: "http://www.example.com/webhook_uri" })).toBe(false);
    expect(checkLegacySignature(secret, null, request)).toBe(false);
    expect(checkLegacySignature("", "v2", request)).toBe(false);
  });

  it("v2: the POST example on the same page", () => {
    expect(signatureV2(secret, "POST", "https://www.example.com/webhook_uri", '{"example_field":"example_value"}')).toBe(
      "9569219f8ba981ffa6f6f16aa0f48637d35d728c7e4d93d0d52efaa512af7900",
    );
  });
});

describe("HubSpot v3 signature (no official vector: values from openssl dgst -sha256 -hmac … -binary | base64)", () => {
  const body = '{"example_field":"example_value"}';
  const timestamp = "1700000000000";
  const expected = "rQEKkaNUiu+1qGF//O/pw4BCzstSqO1PyUnGICmf+7o=";
  const request = (overrides: Partial<{ method: string; uri: string; body: Uint8Array; signature: string | null; timestamp: string | null }> = {}) => ({
    method: "POST",
    uri: "https://www.example.com/webhook_uri",
    body: encoder.encode(body),
    signature: expected,
    timestamp,
    ...overrides,
  });

  it("is Base64 HMAC-SHA256 of method + URI + body + timestamp", () => {
    expect(signatureV3(secret, "POST", "https://www.example.com/webhook_uri", body, timestamp)).toBe(expected);
    expect(checkSignatureV3(secret, request(), 1_700_000_000_000)).toBe("ok");
  });

  it("decodes the listed percent-escapes of the URI, and only those", () => {
    expect(v3Uri("https://parley.example/hooks/hs?next=a%3Ab%2Fc%40d&q=%20x")).toBe("https://parley.example/hooks/hs?next=a:b/c@d&q=%20x");
    expect(signatureV3(secret, "POST", "https://parley.example/hooks/hs?next=a%3Ab%2fc%40d&q=%20x", "{}", timestamp)).toBe(
      "o5suWkKBWpC8FRyznC8mWYBLtasSzUQbzodNMX4YoDo=",
    );
  });

  it("accepts 299 s of age and refuses 301 s either way, before looking at the MAC", () => {
    expect(checkSignatureV3(secret, request(), 1_700_000_299_000)).toBe("ok");
    expect(checkSignatureV3(secret, request(), 1_700_000_301_000)).toBe("stale");
    expect(checkSignatureV3(secret, request(), 1_699_999_699_000)).toBe("stale");
    expect(checkSignatureV3(secret, request({ signature: "forged" }), 1_700_000_301_000)).toBe("stale");
  });

  it("refuses a flipped body byte, another method, URI or secret, and missing headers", () => {
    const flipped = encoder.encode(body);
    flipped[3] = (flipped[3] ?? 0) ^ 1;
    const now = 1_700_000_000_000;
    expect(checkSignatureV3(secret, request({ body: flipped }), now)).toBe("mismatch");
    expect(checkSignatureV3(secret, request({ method: "PUT" }), now)).toBe("mismatch");
    expect(checkSignatureV3(secret, request({ uri: "https://www.example.com/webhook_uri?x=1" }), now)).toBe("mismatch");
    expect(checkSignatureV3(`${secret}z`, request(), now)).toBe("mismatch");
    expect(checkSignatureV3(secret, request({ signature: null }), now)).toBe("missing");
    expect(checkSignatureV3(secret, request({ timestamp: null }), now)).toBe("missing");
    expect(checkSignatureV3(secret, request({ timestamp: "17e11" }), now)).toBe("missing");
    expect(checkSignatureV3("", request(), now)).toBe("missing");
  });
});

const webhookUrl = "https://parley.example/api/v1/channels/hooks/hs_1?account=2";

async function withFake(test: (fake: HubSpotFake, io: AdapterIO) => Promise<void>) {
  const fake = await startHubSpotFake();
  try {
    await test(fake, memoryIO(fake.apiBase));
  } finally {
    await fake.close();
  }
}

describe("hubspot webhook", () => {
  const ids = { portalId: 62515, channelId: "1048576", channelAccountId: "2097152" };

  it("verifies through the adapter and rejects a stale or re-targeted delivery", () =>
    withFake(async (fake, io) => {
      const body = JSON.stringify(outgoingMessageEvent(ids, { text: "hi" }));
      expect((await adapter.verify(await readInbound(fake.signedWebhook(webhookUrl, body)), fake.config, io)).kind).toBe("verified");
      const stale = await adapter.verify(await readInbound(fake.signedWebhook(webhookUrl, body, Date.now() - 301_000)), fake.config, io);
      expect(stale).toMatchObject({ kind: "rejected", status: 401, reason: "X-HubSpot-Signature-v3 stale" });
      // Signed for one URL, replayed at another.
      const signed = fake.signedWebhook(webhookUrl, body);
      const moved = new Request("https://parley.example/api/v1/channels/hooks/hs_2?account=2", { method: "POST", headers: signed.headers, body });
      expect(await adapter.verify(await readInbound(moved), fake.config, io)).toMatchObject({ kind: "rejected", status: 401 });
    }));

  it("maps the message HubSpot sends into the thread, with what the answer needs in the handle", () =>
    withFake(async (fake, io) => {
      const event = outgoingMessageEvent(
        ids,
        { text: "Can you check order 42?", id: "m-1", senderId: "501", senderName: "Rae", conversationId: "9001" },
        1_700_000_000_000,
      );
      const [message] = await adapter.parse(event, fake.config, io);
      expect(message).toEqual({
        dedupeKey: "m-1",
        conversation: { id: "9001", isGroup: false },
        sender: { id: "A-501", name: "Rae", isBot: false },
        text: "Can you check order 42?",
        attachments: [],
        sentAt: 1_700_000_000_000,
        reply: {
          channelId: "1048576",
          channelAccountId: "2097152",
          integrationThreadId: "parley-thread-9001",
          inReplyToId: "m-1",
          agentIdentifierType: "CHANNEL_SPECIFIC_OPAQUE_ID",
          agentIdentifierValue: "parley-assistant",
          hubspotIdentifierType: null,
          hubspotIdentifierValue: null,
        },
      });
    }));

  it("ignores account events, other channel accounts, this app's own messages, bots and incoming messages", () =>
    withFake(async (fake, io) => {
      const event = outgoingMessageEvent(ids, { text: "x" });
      const cases = [
        { type: "CHANNEL_ACCOUNT_CREATED", channelAccountId: "2097152" },
        { ...event, channelAccountId: "999", message: { ...event.message, channelAccountId: "999" } },
        { ...event, message: { ...event.message, client: { clientType: "INTEGRATION", integrationAppId: 3141592 } } },
        { ...event, message: { ...event.message, senders: [{ actorId: "B-77" }], createdBy: "B-77" } },
        { ...event, message: { ...event.message, direction: "INCOMING" } },
      ];
      for (const payload of cases) expect(await adapter.parse(payload, fake.config, io), JSON.stringify(payload).slice(0, 80)).toEqual([]);
    }));

  it("reads batched events, rich text without plain text, and attachments", () =>
    withFake(async (fake, io) => {
      const first = outgoingMessageEvent(ids, { text: "one", id: "a" });
      const second = outgoingMessageEvent(ids, { text: "unused", id: "b" });
      const rich = {
        ...second,
        message: {
          ...second.message,
          text: undefined,
          richText: "<p>Tom &amp; Jerry<br/>line two</p>",
          attachments: [{ type: "FILE", fileId: "123", fileUsageType: "IMAGE", name: "shot.png", url: "https://files.hubspot.example/123" }],
        },
      };
      const messages = await adapter.parse([first, rich], fake.config, io);
      expect(messages.map((message) => [message.dedupeKey, message.text])).toEqual([
        ["a", "one"],
        ["b", "Tom & Jerry\nline two"],
      ]);
      expect(messages[1]?.attachments).toEqual([{ kind: "image", ref: "https://files.hubspot.example/123", name: "shot.png" }]);
    }));
});

describe("hubspot publish against the fake", () => {
  async function delivered(fake: HubSpotFake, io: AdapterIO) {
    const verified = await adapter.verify(await readInbound(await fake.delivery(webhookUrl, { text: "hello", id: "hs-1" })), fake.config, io);
    if (verified.kind !== "verified") throw new Error("not verified");
    const [message] = await adapter.parse(verified.payload, fake.config, io);
    if (!message) throw new Error("no message");
    return message;
  }

  it("publishes an INCOMING message from the agent's identifier into the thread, once per answer", () =>
    withFake(async (fake, io) => {
      const message = await delivered(fake, io);
      const first = await adapter.send(message.reply, "Order 42 ships today.", fake.config, io);
      const retried = await adapter.send(message.reply, "Order 42 ships today.", fake.config, io);
      expect(retried.ids).toEqual(first.ids);
      expect(fake.sent).toHaveLength(1);
      expect(fake.published[0]).toMatchObject({
        text: "Order 42 ships today.",
        messageDirection: "INCOMING",
        channelAccountId: "2097152",
        senders: [{ deliveryIdentifier: { type: "CHANNEL_SPECIFIC_OPAQUE_ID", value: "parley-assistant" }, name: "Parley" }],
        integrationThreadId: expect.stringMatching(/^parley-thread-/),
        inReplyToId: "hs-1",
        integrationIdempotencyId: expect.stringMatching(/^[0-9a-f]{40}$/),
      });
    }));

  it("classifies HubSpot's errors", () =>
    withFake(async (fake, io) => {
      const message = await delivered(fake, io);
      fake.failNext("rate-limited");
      await expect(adapter.send(message.reply, "x", fake.config, io)).rejects.toMatchObject({ retryable: true, retryAfterMs: 1000 });
      fake.failNext("token-expired");
      await expect(adapter.send(message.reply, "x", fake.config, io)).rejects.toMatchObject({ retryable: true, platformCode: "EXPIRED_AUTHENTICATION" });
      fake.failNext("rejected");
      await expect(adapter.send(message.reply, "x", fake.config, io)).rejects.toMatchObject({ retryable: false, platformCode: "VALIDATION_ERROR" });
      const wrong = { ...fake.config, accessToken: "pat-wrong" };
      await expect(adapter.send(message.reply, "x", wrong, io)).rejects.toMatchObject({ retryable: false, platformCode: "INVALID_AUTHENTICATION" });
      expect(fake.sent).toEqual([expect.objectContaining({ authorized: false })]);
    }));

  it("probe finds the channel account with the token", () =>
    withFake(async (fake, io) => {
      await adapter.probe?.(fake.config, io);
      await expect(adapter.probe?.({ ...fake.config, channelAccountId: "1" }, io)).rejects.toBeInstanceOf(ChannelError);
      await expect(adapter.probe?.({ ...fake.config, accessToken: "nope" }, io)).rejects.toBeInstanceOf(ChannelError);
    }));
});
