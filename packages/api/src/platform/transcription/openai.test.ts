import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toneWav } from "../../speech/audio";
import { startTranscriptionFake, type TranscriptionFake } from "../../testing/fakes/transcription";
import { createOpenAiTranscriber } from "./openai";
import { TranscriptionError } from "./types";

// The transcription port against a real local server that parses OpenAI's multipart body.
const KEY = "sk-stt-0123456789abcdef";
let fake: TranscriptionFake;
const wav = toneWav(1);

beforeAll(async () => {
  fake = await startTranscriptionFake({
    apiKey: KEY,
    models: ["whisper-1"],
    transcript: (request) => `heard ${request.container} in ${request.language ?? "auto"}`,
  });
});
afterAll(async () => fake.close());

describe("OpenAI-compatible transcriber", () => {
  it("posts file, model, language and response_format=json as multipart with the bearer key and reads { text }", async () => {
    const transcriber = createOpenAiTranscriber({ baseUrl: `${fake.url}/`, model: "whisper-1", apiKey: KEY });
    const result = await transcriber.transcribe({ audio: wav, fileName: "speech.wav", mimeType: "audio/wav", language: "en" });
    expect(result).toEqual({ text: "heard wav in en" });
    expect(fake.requests.at(-1)).toEqual({
      authorization: `Bearer ${KEY}`,
      model: "whisper-1",
      language: "en",
      responseFormat: "json",
      fileName: "speech.wav",
      fileType: "audio/wav",
      bytes: wav.length,
      container: "wav",
    });
    // Without a language the field is left out, so the model detects it.
    expect((await transcriber.transcribe({ audio: wav, fileName: "speech.wav", mimeType: "audio/wav" })).text).toBe("heard wav in auto");
    expect(fake.requests.at(-1)!.language).toBeNull();
  });

  it("reports OpenAI's error bodies, a failing server, a timeout and an unreachable host as TranscriptionError", async () => {
    const wrongKey = createOpenAiTranscriber({ baseUrl: fake.url, model: "whisper-1", apiKey: "sk-wrong" });
    await expect(wrongKey.transcribe({ audio: wav, fileName: "a.wav", mimeType: "audio/wav" })).rejects.toMatchObject({
      name: "TranscriptionError",
      status: 401,
      code: "invalid_api_key",
      message: expect.stringContaining("Incorrect API key"),
    });
    const unknownModel = createOpenAiTranscriber({ baseUrl: fake.url, model: "whisper-9", apiKey: KEY });
    await expect(unknownModel.transcribe({ audio: wav, fileName: "a.wav", mimeType: "audio/wav" })).rejects.toMatchObject({
      status: 404,
      code: "model_not_found",
    });
    const transcriber = createOpenAiTranscriber({ baseUrl: fake.url, model: "whisper-1", apiKey: KEY });
    // Text is not audio: the server refuses it with its "Invalid file format".
    await expect(
      transcriber.transcribe({ audio: new TextEncoder().encode("just some words, not sound"), fileName: "a.wav", mimeType: "audio/wav" }),
    ).rejects.toThrow(/answered 400: Invalid file format/);
    fake.setMode("fail");
    await expect(transcriber.transcribe({ audio: wav, fileName: "a.wav", mimeType: "audio/wav" })).rejects.toMatchObject({ status: 500 });
    fake.setMode("hang");
    const impatient = createOpenAiTranscriber({ baseUrl: fake.url, model: "whisper-1", apiKey: KEY, timeoutMs: 300 });
    await expect(impatient.transcribe({ audio: wav, fileName: "a.wav", mimeType: "audio/wav" })).rejects.toThrow(/timed out/);
    fake.setMode("ok");
    const unreachable = createOpenAiTranscriber({ baseUrl: "http://127.0.0.1:9", model: "whisper-1" });
    await expect(unreachable.transcribe({ audio: wav, fileName: "a.wav", mimeType: "audio/wav" })).rejects.toBeInstanceOf(TranscriptionError);
  });
});
