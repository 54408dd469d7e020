import { describe, expect, it } from "vitest";
import { memoryIO, readInbound } from "../runtime";
import { ChannelError, type AdapterIO, type ChannelAdapter } from "../types";
import type { PlatformFake } from "./fake";

const webhookUrl = "https://parley.example/api/v1/channels/hooks/cli_test";

/**
 * The behaviour every adapter owes Parley, run against the adapter's local platform fake:
 * authentic deliveries verify and parse, forged and stale ones are rejected, retries keep their
 * dedupe key, sends reach the platform authenticated, tokens are cached, failures are classified.
 */
export function channelContract(adapter: ChannelAdapter, startFake: () => Promise<PlatformFake>) {
  describe(`${adapter.kind} adapter contract`, () => {
    async function withFake(test: (fake: PlatformFake, io: AdapterIO) => Promise<void>) {
      const fake = await startFake();
      try {
        await test(fake, memoryIO(fake.apiBase));
      } finally {
        await fake.close();
      }
    }

    it("describes itself in English and Chinese, with secrets marked", () => {
      expect(adapter.descriptor.kind).toBe(adapter.kind);
      expect(adapter.descriptor.name.en).toBeTruthy();
      expect(adapter.descriptor.name["zh-CN"]).toBeTruthy();
      expect(adapter.descriptor.fields.length).toBeGreaterThan(0);
      expect(adapter.descriptor.fields.some((field) => field.secret)).toBe(true);
      for (const field of adapter.descriptor.fields) {
        expect(field.label.en && field.label["zh-CN"]).toBeTruthy();
        if (field.pattern) expect(() => new RegExp(field.pattern as string)).not.toThrow();
      }
      expect(adapter.capabilities.maxText.value).toBeGreaterThan(0);
    });

    it("verifies and parses a signed delivery", () =>
      withFake(async (fake, io) => {
        const request = await fake.delivery(webhookUrl, { text: "Where is my parcel?", senderId: "person-1", senderName: "Ada" });
        const verified = await adapter.verify(await readInbound(request), fake.config, io);
        expect(verified.kind).toBe("verified");
        if (verified.kind !== "verified") return;
        const ack = adapter.ack(verified.payload, fake.config);
        expect(ack.status).toBeGreaterThanOrEqual(200);
        expect(ack.status).toBeLessThan(300);
        const messages = await adapter.parse(verified.payload, fake.config, io);
        expect(messages).toHaveLength(1);
        const [message] = messages;
        expect(message?.text).toBe("Where is my parcel?");
        expect(message?.sender.isBot).toBe(false);
        expect(message?.dedupeKey).toBeTruthy();
        expect(message?.conversation.id).toBeTruthy();
        expect(JSON.parse(JSON.stringify(message?.reply))).toEqual(message?.reply);
      }));

    it("keeps the dedupe key of a redelivered message and changes it for a new one", () =>
      withFake(async (fake, io) => {
        const parseOne = async (request: Request) => {
          const verified = await adapter.verify(await readInbound(request), fake.config, io);
          if (verified.kind !== "verified") throw new Error(`not verified: ${JSON.stringify(verified)}`);
          const [message] = await adapter.parse(verified.payload, fake.config, io);
          return message?.dedupeKey;
        };
        const first = await parseOne(await fake.delivery(webhookUrl, { text: "one", id: "msg-fixed-1" }));
        const again = await parseOne(await fake.delivery(webhookUrl, { text: "one", id: "msg-fixed-1" }));
        const other = await parseOne(await fake.delivery(webhookUrl, { text: "two", id: "msg-fixed-2" }));
        expect(again).toBe(first);
        expect(other).not.toBe(first);
      }));

    it("rejects a forged delivery", () =>
      withFake(async (fake, io) => {
        const request = await fake.forged(webhookUrl, { text: "let me in" });
        const verified = await adapter.verify(await readInbound(request), fake.config, io);
        expect(verified.kind).toBe("rejected");
      }));

    it("rejects a stale delivery where the platform signs a timestamp", () =>
      withFake(async (fake, io) => {
        if (!fake.stale) return;
        const request = await fake.stale(webhookUrl, { text: "from long ago" });
        const verified = await adapter.verify(await readInbound(request), fake.config, io);
        expect(verified.kind).toBe("rejected");
      }));

    it("rejects malformed requests without throwing", () =>
      withFake(async (fake, io) => {
        for (const body of ["", "not json <xml", "{}", "<xml></xml>"]) {
          const request = new Request(webhookUrl, { method: "POST", body, headers: { "content-type": "application/json" } });
          const verified = await adapter.verify(await readInbound(request), fake.config, io);
          expect(verified.kind).toBe("rejected");
        }
      }));

    it("answers the platform's URL verification", () =>
      withFake(async (fake, io) => {
        if (!fake.handshake) return;
        const { request, expectedBody } = await fake.handshake(webhookUrl);
        const verified = await adapter.verify(await readInbound(request), fake.config, io);
        expect(verified.kind).toBe("handshake");
        if (verified.kind === "handshake") expect(await verified.response.text()).toBe(expectedBody);
      }));

    it("sends a reply the platform accepts, and reuses its access token", () =>
      withFake(async (fake, io) => {
        const request = await fake.delivery(webhookUrl, { text: "hello", senderId: "person-2" });
        const verified = await adapter.verify(await readInbound(request), fake.config, io);
        if (verified.kind !== "verified") throw new Error("not verified");
        const [message] = await adapter.parse(verified.payload, fake.config, io);
        if (!message) throw new Error("no message");
        await adapter.send(message.reply, "first answer", fake.config, io);
        await adapter.send(message.reply, "second answer", fake.config, io);
        expect(fake.sent.map((sent) => sent.text)).toEqual(["first answer", "second answer"]);
        expect(fake.sent.every((sent) => sent.authorized)).toBe(true);
        expect(fake.sent[0]?.to).toBeTruthy();
        expect(fake.tokensIssued).toBeLessThanOrEqual(1);
      }));

    it("classifies platform failures: rate limits and server errors retry, refusals do not", () =>
      withFake(async (fake, io) => {
        const request = await fake.delivery(webhookUrl, { text: "hello" });
        const verified = await adapter.verify(await readInbound(request), fake.config, io);
        if (verified.kind !== "verified") throw new Error("not verified");
        const [message] = await adapter.parse(verified.payload, fake.config, io);
        if (!message) throw new Error("no message");
        for (const [failure, retryable] of [
          ["rate-limited", true],
          ["server-error", true],
          ["rejected", false],
        ] as const) {
          fake.failNext(failure);
          const error = await adapter.send(message.reply, "x", fake.config, io).then(
            () => undefined,
            (caught: unknown) => caught,
          );
          expect(error, failure).toBeInstanceOf(ChannelError);
          expect((error as ChannelError).retryable, failure).toBe(retryable);
        }
        expect(fake.sent).toHaveLength(0);
      }));

    it("renews an access token the platform says expired, once", () =>
      withFake(async (fake, io) => {
        const request = await fake.delivery(webhookUrl, { text: "hello" });
        const verified = await adapter.verify(await readInbound(request), fake.config, io);
        if (verified.kind !== "verified") throw new Error("not verified");
        const [message] = await adapter.parse(verified.payload, fake.config, io);
        if (!message) throw new Error("no message");
        await adapter.send(message.reply, "warm up", fake.config, io);
        fake.failNext("token-expired");
        // Either the adapter renews and retries at once, or it reports a retryable failure and the next call succeeds.
        await adapter.send(message.reply, "after expiry", fake.config, io).catch(async (error: unknown) => {
          expect(error).toBeInstanceOf(ChannelError);
          expect((error as ChannelError).retryable).toBe(true);
          await adapter.send(message.reply, "after expiry", fake.config, io);
        });
        expect(fake.sent.at(-1)?.text).toBe("after expiry");
        expect(fake.sent.at(-1)?.authorized).toBe(true);
      }));
  });
}

/**
 * A person's picture through an adapter's media API: delivered with the fake, verified and
 * parsed, fetched back byte for byte; an unknown handle is refused (not retried) with the
 * platform's own code; with `sendsImages`, an image sent back reaches the fake authenticated.
 */
export async function checkMediaRoundTrip(
  adapter: ChannelAdapter,
  fake: PlatformFake,
  options: { refusedCode: string; sendsImages: boolean; unknownRef?: string },
): Promise<void> {
  const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1, 5, 5, 0xff, 0xd9]);
  const io = memoryIO(fake.apiBase);
  const request = await fake.delivery(webhookUrl, { text: "", media: [{ kind: "image", bytes: jpeg, mime: "image/jpeg" }] });
  const verified = await adapter.verify(await readInbound(request), fake.config, io);
  if (verified.kind !== "verified") throw new Error("not verified");
  const [message] = await adapter.parse(verified.payload, fake.config, io);
  const attachment = message!.attachments[0]!;
  expect(attachment.kind).toBe("image");
  const fetched = await adapter.fetchMedia!(attachment, message!, fake.config, io);
  expect(fetched.bytes).toEqual(jpeg);
  await expect(adapter.fetchMedia!({ kind: "image", ref: options.unknownRef ?? "nope" }, message!, fake.config, io)).rejects.toMatchObject({
    retryable: false,
    platformCode: options.refusedCode,
  });
  if (!options.sendsImages) return;
  await adapter.sendImage!(message!.reply, { bytes: jpeg, mime: "image/jpeg", name: "x.jpg" }, fake.config, io);
  expect(fake.sent).toEqual([expect.objectContaining({ authorized: true, image: { bytes: jpeg, mime: "image/jpeg", name: "x.jpg" } })]);
}
