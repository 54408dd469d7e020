import { describe, expect, it } from "vitest";
import { memoryIO, readInbound } from "../../runtime";
import { channelContract } from "../../testing/contract";
import { metaJson, startFake, startWhatsAppFake, whatsappNotification, whatsappTextMessage } from "../../testing/whatsapp";
import { ChannelError } from "../../types";
import { adapter } from "./index";
import { hubSignature, verifyHubSignature } from "./signature";

channelContract(adapter, startFake);

const webhookUrl = "https://parley.example/api/v1/channels/hooks/wa_1";
const config = { phoneNumberId: "106540352242922", accessToken: "EAAG-token", appSecret: "parley-app-secret", verifyToken: "verify-me" };
const io = memoryIO("http://127.0.0.1:9");
const encoder = new TextEncoder();

function change(messages: unknown[], extra: Record<string, unknown> = {}, phoneNumberId = config.phoneNumberId) {
  return {
    field: "messages",
    value: {
      messaging_product: "whatsapp",
      metadata: { display_phone_number: "15550100000", phone_number_id: phoneNumberId },
      contacts: [
        { profile: { name: "Ada" }, wa_id: "15551230001" },
        { profile: { name: "Bo" }, wa_id: "15551230002" },
      ],
      messages,
      ...extra,
    },
  };
}

async function verifyAndParse(request: Request) {
  const verified = await adapter.verify(await readInbound(request), config, io);
  if (verified.kind !== "verified") throw new Error(`not verified: ${JSON.stringify(verified)}`);
  return adapter.parse(verified.payload, config, io);
}

describe("whatsapp signature", () => {
  it("matches HMAC-SHA256 computed independently (openssl dgst -sha256 -hmac)", () => {
    // No official Meta vector exists; this value comes from OpenSSL, not from our code.
    const body = '{"object":"whatsapp_business_account","entry":[]}';
    expect(hubSignature("parley-app-secret", body)).toBe("sha256=bc0a7f2be0e905f95ca9ac41b8a71615fa9f897c893907135599beda9dff7354");
  });

  it("refuses a flipped byte, a wrong secret, a missing or malformed header", () => {
    const body = encoder.encode('{"object":"whatsapp_business_account","entry":[]}');
    const good = hubSignature("parley-app-secret", body);
    expect(verifyHubSignature("parley-app-secret", body, good)).toBe(true);
    expect(verifyHubSignature("parley-app-secret", body, good.toUpperCase().replace("SHA256=", "sha256="))).toBe(true);
    const flipped = body.slice();
    flipped[5] = (flipped[5] ?? 0) ^ 1;
    expect(verifyHubSignature("parley-app-secret", flipped, good)).toBe(false);
    expect(verifyHubSignature("other-secret", body, good)).toBe(false);
    expect(verifyHubSignature("parley-app-secret", body, null)).toBe(false);
    expect(verifyHubSignature("parley-app-secret", body, good.slice(7))).toBe(false);
    expect(verifyHubSignature("parley-app-secret", body, `sha1=${good.slice(7)}`)).toBe(false);
    expect(verifyHubSignature("", body, hubSignature("", body))).toBe(false);
  });

  it("verifies the raw bytes of Meta's escaped JSON, not a re-serialisation", async () => {
    const request = whatsappNotification(webhookUrl, config.appSecret, [
      { id: "1", changes: [change([whatsappTextMessage({ text: "我的包裹在哪里？ 📦", id: "zh" })])] },
    ]);
    const raw = await request.clone().text();
    expect(raw).toContain("\\u6211");
    expect(raw).not.toBe(JSON.stringify(JSON.parse(raw)));
    const [message] = await verifyAndParse(request);
    expect(message?.text).toBe("我的包裹在哪里？ 📦");
    expect(metaJson("é")).toBe('"\\u00e9"');
  });
});

describe("whatsapp subscription check", () => {
  const check = (query: string) => readInbound(new Request(`${webhookUrl}?${query}`));

  it("echoes hub.challenge for the right verify token", async () => {
    const result = await adapter.verify(await check("hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=verify-me"), config, io);
    expect(result.kind).toBe("handshake");
    if (result.kind === "handshake") {
      expect(result.response.status).toBe(200);
      expect(await result.response.text()).toBe("1158201444");
    }
  });

  it("refuses a wrong token, another mode or a missing challenge with 403", async () => {
    for (const query of [
      "hub.mode=subscribe&hub.challenge=1&hub.verify_token=verify-mE",
      "hub.mode=subscribe&hub.challenge=1&hub.verify_token=verify-me-",
      "hub.mode=unsubscribe&hub.challenge=1&hub.verify_token=verify-me",
      "hub.mode=subscribe&hub.verify_token=verify-me",
      "",
    ]) {
      expect(await adapter.verify(await check(query), config, io), query).toMatchObject({ kind: "rejected", status: 403 });
    }
  });
});

describe("whatsapp notifications", () => {
  it("fans one POST out to every message of every entry and change", async () => {
    const request = whatsappNotification(webhookUrl, config.appSecret, [
      {
        id: "1",
        changes: [
          change([
            whatsappTextMessage({ text: "one", id: "a", senderId: "15551230001" }),
            whatsappTextMessage({ text: "two", id: "b", senderId: "15551230002" }),
          ]),
        ],
      },
      { id: "2", changes: [change([whatsappTextMessage({ text: "three", id: "c", senderId: "15551230001" })])] },
    ]);
    const messages = await verifyAndParse(request);
    expect(messages.map((message) => [message.text, message.sender.name, message.conversation.id])).toEqual([
      ["one", "Ada", "15551230001"],
      ["two", "Bo", "15551230002"],
      ["three", "Ada", "15551230001"],
    ]);
    expect(new Set(messages.map((message) => message.dedupeKey)).size).toBe(3);
    expect(messages[0]?.dedupeKey).toMatch(/^wamid\./);
    expect(messages[0]?.reply).toEqual({ phoneNumberId: config.phoneNumberId, to: "15551230001", windowUntil: (messages[0]?.sentAt ?? 0) + 24 * 3600_000 });
  });

  it("reads statuses as receipts (no messages) and skips other phone numbers and fields", async () => {
    const statuses = { statuses: [{ id: "wamid.out1", status: "delivered", timestamp: "1700000000", recipient_id: "15551230001" }] };
    expect(await verifyAndParse(whatsappNotification(webhookUrl, config.appSecret, [{ id: "1", changes: [change([], statuses)] }]))).toEqual([]);
    const other = change([whatsappTextMessage({ text: "not ours" })], {}, "999");
    expect(
      await verifyAndParse(whatsappNotification(webhookUrl, config.appSecret, [{ id: "1", changes: [other, { field: "account_update", value: {} }] }])),
    ).toEqual([]);
  });

  it("maps media, locations, buttons and ignores reactions", async () => {
    const base = { from: "15551230001", timestamp: "1700000000" };
    const messages = await verifyAndParse(
      whatsappNotification(webhookUrl, config.appSecret, [
        {
          id: "1",
          changes: [
            change([
              { ...base, id: "wamid.img", type: "image", image: { id: "media-1", mime_type: "image/jpeg", sha256: "x", caption: "the box" } },
              { ...base, id: "wamid.doc", type: "document", document: { id: "media-2", mime_type: "application/pdf", filename: "label.pdf" } },
              { ...base, id: "wamid.loc", type: "location", location: { latitude: 1.5, longitude: 2.25, name: "Depot" } },
              { ...base, id: "wamid.btn", type: "interactive", interactive: { type: "button_reply", button_reply: { id: "yes", title: "Yes" } } },
              { ...base, id: "wamid.react", type: "reaction", reaction: { message_id: "wamid.out", emoji: "👍" } },
            ]),
          ],
        },
      ]),
    );
    expect(messages.map((message) => [message.text, message.attachments])).toEqual([
      ["the box", [{ kind: "image", ref: "media-1", mime: "image/jpeg" }]],
      ["", [{ kind: "file", ref: "media-2", mime: "application/pdf", name: "label.pdf" }]],
      ["Depot", [{ kind: "location", ref: "1.5,2.25" }]],
      ["Yes", []],
    ]);
    expect(messages[0]?.sentAt).toBe(1_700_000_000_000);
  });

  it("rejects unsigned, forged and non-WhatsApp bodies", async () => {
    const unsigned = await readInbound(new Request(webhookUrl, { method: "POST", body: '{"object":"whatsapp_business_account","entry":[]}' }));
    expect(await adapter.verify(unsigned, config, io)).toMatchObject({ kind: "rejected", status: 401 });
    const page = metaJson({ object: "page", entry: [] });
    const signedPage = await readInbound(
      new Request(webhookUrl, { method: "POST", body: page, headers: { "x-hub-signature-256": hubSignature(config.appSecret, page) } }),
    );
    expect(await adapter.verify(signedPage, config, io)).toMatchObject({ kind: "rejected", status: 400 });
  });
});

describe("whatsapp send against the fake Graph API", () => {
  async function withFake(test: (fake: Awaited<ReturnType<typeof startWhatsAppFake>>, fakeIO: ReturnType<typeof memoryIO>) => Promise<void>) {
    const fake = await startWhatsAppFake();
    try {
      await test(fake, memoryIO(fake.apiBase));
    } finally {
      await fake.close();
    }
  }
  const handle = (windowUntil = Date.now() + 3600_000) => ({ phoneNumberId: "106540352242922", to: "15551230001", windowUntil });

  it("returns the wamid and refuses after the 24-hour window without calling Meta", () =>
    withFake(async (fake, fakeIO) => {
      const { ids } = await adapter.send(handle(), "hi", fake.config, fakeIO);
      expect(ids[0]).toMatch(/^wamid\./);
      const error = await adapter.send(handle(Date.now() - 1), "late", fake.config, fakeIO).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ChannelError);
      expect(error).toMatchObject({ retryable: false, platformCode: "131047" });
      expect(fake.sent).toHaveLength(1);
    }));

  it("classifies Meta's errors: 130429 with Retry-After, 131047 final, 190 expired retryable, 190 invalid final", () =>
    withFake(async (fake, fakeIO) => {
      fake.failNext("rate-limited");
      await expect(adapter.send(handle(), "x", fake.config, fakeIO)).rejects.toMatchObject({ retryable: true, platformCode: "130429", retryAfterMs: 2000 });
      fake.failNext("rejected");
      await expect(adapter.send(handle(), "x", fake.config, fakeIO)).rejects.toMatchObject({ retryable: false, platformCode: "131047" });
      fake.failNext("token-expired");
      await expect(adapter.send(handle(), "x", fake.config, fakeIO)).rejects.toMatchObject({ retryable: true, platformCode: "190" });
      const wrong = { ...fake.config, accessToken: "EAAG-wrong" };
      await expect(adapter.send(handle(), "x", wrong, fakeIO)).rejects.toMatchObject({ retryable: false, platformCode: "190" });
      expect(fake.sent).toEqual([expect.objectContaining({ authorized: false })]);
    }));

  it("probe checks the phone number with the token", () =>
    withFake(async (fake, fakeIO) => {
      await adapter.probe?.(fake.config, fakeIO);
      await expect(adapter.probe?.({ ...fake.config, accessToken: "nope" }, fakeIO)).rejects.toBeInstanceOf(ChannelError);
    }));
});

describe("whatsapp media", () => {
  const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1, 5, 5, 0xff, 0xd9]);

  it("downloads media by id then url with the bearer token, refuses an unknown id (100), and sends an image", async () => {
    const fake = await startWhatsAppFake();
    try {
      const io = memoryIO(fake.apiBase);
      const request = await fake.delivery("https://parley.example/api/v1/channels/hooks/wa", {
        text: "this one",
        media: [{ kind: "image", bytes: jpeg, mime: "image/jpeg" }],
      });
      const verified = await adapter.verify(await readInbound(request), fake.config, io);
      if (verified.kind !== "verified") throw new Error("not verified");
      const [message] = await adapter.parse(verified.payload, fake.config, io);
      expect(message?.text).toBe("this one");
      const attachment = message!.attachments[0]!;
      expect(attachment.kind).toBe("image");
      expect(await adapter.fetchMedia!(attachment, message!, fake.config, io)).toEqual({ bytes: jpeg, mime: "image/jpeg" });
      await expect(adapter.fetchMedia!({ kind: "image", ref: "999999" }, message!, fake.config, io)).rejects.toMatchObject({
        retryable: false,
        platformCode: "100",
      });
      await adapter.sendImage!(message!.reply, { bytes: jpeg, mime: "image/jpeg", name: "a.jpg" }, fake.config, io);
      expect(fake.sent).toEqual([
        expect.objectContaining({ to: message!.reply.to, authorized: true, image: { bytes: jpeg, mime: "image/jpeg", name: "a.jpg" } }),
      ]);
    } finally {
      await fake.close();
    }
  });
});
