import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SpeechFake, startSpeechFake } from "../../testing/fakes/speech";
import { azureSsml, createAzureSpeech } from "./azure";
import { createOpenAiSpeech, OPENAI_VOICES } from "./openai";
import { SpeechError, type SpeechAudio } from "./types";

// The speech port against local servers speaking OpenAI's /audio/speech and Azure Speech REST.
const KEY = "sp-test-0123456789";
let openai: SpeechFake;
let azure: SpeechFake;

beforeAll(async () => {
  openai = await startSpeechFake({ format: "openai", apiKey: KEY });
  azure = await startSpeechFake({ format: "azure", apiKey: KEY });
});
afterAll(async () => {
  await openai.close();
  await azure.close();
});

/** Reads the audio, noting how many chunks arrived before the server finished writing. */
async function drain(audio: SpeechAudio, fake: SpeechFake) {
  const reader = audio.body.getReader();
  const chunks: Uint8Array[] = [];
  let beforeEnd = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!fake.requests.at(-1)!.finished) beforeEnd += 1;
    chunks.push(value);
  }
  return { bytes: Buffer.concat(chunks), beforeEnd };
}

describe("OpenAI-compatible speech", () => {
  it("posts model, input, voice, mp3 and speed with the bearer key and streams MP3 as it is produced", async () => {
    const speech = createOpenAiSpeech({ baseUrl: `${openai.url}/`, model: "tts-1", apiKey: KEY });
    const audio = await speech.synthesize({ text: "Hello there, how are you today?", tone: "nova" });
    expect(audio.contentType).toBe("audio/mpeg");
    const { bytes, beforeEnd } = await drain(audio, openai);
    // MPEG audio frame sync, the same bytes the server wrote.
    expect(bytes[0]).toBe(0xff);
    expect((bytes[1]! & 0xe0) === 0xe0).toBe(true);
    expect(bytes.length).toBe(openai.requests.at(-1)!.bytesSent);
    expect(beforeEnd).toBeGreaterThan(0);
    expect(openai.requests.at(-1)).toMatchObject({ text: "Hello there, how are you today?", voice: "nova" });
  });

  it("offers OpenAI's documented voices unless the provider lists its own", async () => {
    const speech = createOpenAiSpeech({ baseUrl: openai.url, model: "tts-1" });
    expect((await speech.tones()).map((tone) => tone.id)).toEqual([...OPENAI_VOICES]);
    const own = createOpenAiSpeech({ baseUrl: openai.url, model: "kokoro", voices: ["af_bella"] });
    expect(await own.tones()).toEqual([{ id: "af_bella", name: "Af_bella", locale: null, gender: null }]);
  });

  it("reports a refused key, an unknown voice, a failing server, a JSON answer and a timeout as SpeechError", async () => {
    const wrongKey = createOpenAiSpeech({ baseUrl: openai.url, model: "tts-1", apiKey: "nope" });
    await expect(wrongKey.synthesize({ text: "hi", tone: "alloy" })).rejects.toMatchObject({ name: "SpeechError", status: 401 });
    const speech = createOpenAiSpeech({ baseUrl: openai.url, model: "tts-1", apiKey: KEY });
    await expect(speech.synthesize({ text: "hi", tone: "robot" })).rejects.toThrow(/answered 400: .*Invalid value: 'robot'/);
    openai.setMode("fail");
    await expect(speech.synthesize({ text: "hi", tone: "alloy" })).rejects.toMatchObject({ status: 500 });
    openai.setMode("json");
    await expect(speech.synthesize({ text: "hi", tone: "alloy" })).rejects.toThrow(/not audio/);
    openai.setMode("hang");
    const impatient = createOpenAiSpeech({ baseUrl: openai.url, model: "tts-1", apiKey: KEY, timeoutMs: 300 });
    await expect(impatient.synthesize({ text: "hi", tone: "alloy" })).rejects.toThrow(/timed out/);
    openai.setMode("ok");
    const unreachable = createOpenAiSpeech({ baseUrl: "http://127.0.0.1:9", model: "tts-1" });
    await expect(unreachable.synthesize({ text: "hi", tone: "alloy" })).rejects.toBeInstanceOf(SpeechError);
  });
});

describe("Azure Speech REST", () => {
  it("lists the voices with the subscription key", async () => {
    const speech = createAzureSpeech({ baseUrl: azure.url, model: "azure-neural", apiKey: KEY });
    expect(await speech.tones()).toEqual([
      { id: "en-US-JennyNeural", name: "Jenny", locale: "en-US", gender: "female" },
      { id: "zh-CN-XiaoxiaoNeural", name: "晓晓", locale: "zh-CN", gender: "female" },
    ]);
    const wrongKey = createAzureSpeech({ baseUrl: azure.url, model: "azure-neural", apiKey: "nope" });
    await expect(wrongKey.tones()).rejects.toMatchObject({ status: 401 });
  });

  it("sends escaped SSML with the output format and streams the MP3", async () => {
    const speech = createAzureSpeech({ baseUrl: azure.url, model: "azure-neural", apiKey: KEY });
    const text = `Tom & Jerry say "<hi>" — it's 5 > 3`;
    const audio = await speech.synthesize({ text, tone: "en-US-JennyNeural" });
    const { bytes, beforeEnd } = await drain(audio, azure);
    expect(bytes[0]).toBe(0xff);
    expect(beforeEnd).toBeGreaterThan(0);
    // The fake read the text back out of the SSML: it was escaped, not cut.
    expect(azure.requests.at(-1)).toMatchObject({ text, voice: "en-US-JennyNeural" });
    expect(azureSsml("a<b", "zh-CN-XiaoxiaoNeural")).toBe(
      '<speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="zh-CN"><voice name="zh-CN-XiaoxiaoNeural">a&lt;b</voice></speak>',
    );
  });

  it("reports an unknown voice, a wrong key and a failing server as SpeechError", async () => {
    const speech = createAzureSpeech({ baseUrl: azure.url, model: "azure-neural", apiKey: KEY });
    await expect(speech.synthesize({ text: "hi", tone: "xx-XX-Nobody" })).rejects.toMatchObject({ status: 400 });
    const wrongKey = createAzureSpeech({ baseUrl: azure.url, model: "azure-neural", apiKey: "nope" });
    await expect(wrongKey.synthesize({ text: "hi", tone: "en-US-JennyNeural" })).rejects.toMatchObject({ status: 401 });
    azure.setMode("fail");
    await expect(speech.synthesize({ text: "hi", tone: "en-US-JennyNeural" })).rejects.toMatchObject({ status: 500 });
    azure.setMode("ok");
  });
});
