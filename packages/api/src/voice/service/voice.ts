import { releaseHold, settleHold, takeHold } from "../../billing/service/holds";
import { newId } from "../../crypto";
import { usageRecords } from "../../db/schema/index";
import { fail, ServiceError } from "../../errors";
import type { Language } from "../../i18n/language";
import type { Deps } from "../../kernel";
import type { ResolvedSpeech } from "../../models/catalog";
import { speechCredits } from "../../models/pricing";
import type { SpeechSynthesizer, SpeechTone } from "../../platform/speech/types";

/** The most characters one call reads aloud (OpenAI's own limit per `/audio/speech` request). */
export const VOICE_TEXT_MAX = 4096;

/** How long a model's tone list is kept before it is asked again. */
const TONES_TTL_MS = 10 * 60_000;

// Keyed by the client: a catalogue reload builds new clients, so a changed provider is asked afresh.
const toneCache = new WeakMap<SpeechSynthesizer, { at: number; tones: Promise<SpeechTone[]> }>();
const demoCache = new WeakMap<SpeechSynthesizer, Map<string, Promise<{ contentType: string; bytes: Uint8Array<ArrayBuffer> }>>>();

/** The fixed sentence a demo reads, in the request's language. */
export const DEMO_SENTENCES: Record<Language, string> = {
  en: "Hello! This is how I sound when I read your answers aloud.",
  "zh-CN": "你好！我会用这个声音为你朗读回答。",
};

type SpeechDeps = Pick<Deps, "models" | "now">;

/** A speech model the catalogue serves, or a validation error on `field` saying none is configured or this one is not served. */
export async function speechModel(deps: Pick<Deps, "models">, modelId: string, field = "model"): Promise<ResolvedSpeech> {
  await deps.models.ready();
  const resolved = deps.models.speech(modelId);
  if (resolved) return resolved;
  if (deps.models.speechModels().length === 0) throw fail.invalid("voice_not_configured", field);
  throw fail.invalid("voice_model_unknown", field, { id: modelId });
}

/** The tones of a speech model, cached for ten minutes; a provider that cannot list them is an external error. */
export async function tonesOf(deps: SpeechDeps, resolved: ResolvedSpeech): Promise<SpeechTone[]> {
  const now = deps.now().getTime();
  const cached = toneCache.get(resolved.synthesizer);
  if (cached && now - cached.at < TONES_TTL_MS) return cached.tones;
  const tones = resolved.synthesizer.tones();
  toneCache.set(resolved.synthesizer, { at: now, tones });
  try {
    return await tones;
  } catch {
    toneCache.delete(resolved.synthesizer);
    throw new ServiceError("external", "voice_failed");
  }
}

/** Checks that `tone` is one of the model's tones (validation error on `field` otherwise). */
export async function checkTone(deps: SpeechDeps, resolved: ResolvedSpeech, tone: string, field = "tone"): Promise<void> {
  const tones = await tonesOf(deps, resolved);
  if (!tones.some((entry) => entry.id === tone)) throw fail.invalid("voice_tone_unknown", field, { id: tone, model: resolved.model.id });
}

/**
 * The demo of a tone: the fixed sentence of the language read with it, synthesized once per
 * client, tone and language and then served from memory. Demos are not charged (one short sentence each).
 */
export async function demoOf(deps: SpeechDeps, modelId: string, tone: string, language: Language) {
  const resolved = await speechModel(deps, modelId);
  await checkTone(deps, resolved, tone);
  let byTone = demoCache.get(resolved.synthesizer);
  if (!byTone) demoCache.set(resolved.synthesizer, (byTone = new Map()));
  const key = `${tone}\u0000${language}`;
  let demo = byTone.get(key);
  if (!demo) {
    demo = resolved.synthesizer.synthesize({ text: DEMO_SENTENCES[language], tone }).then(async (audio) => ({
      contentType: audio.contentType,
      bytes: new Uint8Array(await new Response(audio.body).arrayBuffer()),
    }));
    byTone.set(key, demo);
  }
  try {
    return await demo;
  } catch {
    byTone.delete(key);
    throw new ServiceError("external", "voice_failed");
  }
}

/** Whether an app's voice can be used now: a served model and a tone set. */
export function appVoiceServed(deps: Pick<Deps, "models">, app: { voice: string | null; voiceModel: string | null }): boolean {
  return !!app.voice && !!app.voiceModel && !!deps.models.speech(app.voiceModel);
}

/** Checks the text to read aloud: not blank, at most {@link VOICE_TEXT_MAX} characters. */
export function checkVoiceText(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) throw fail.invalid("voice_text_empty", "text");
  if ([...trimmed].length > VOICE_TEXT_MAX) throw fail.invalid("voice_text_too_long", "text", { max: VOICE_TEXT_MAX });
  return trimmed;
}

/** Who asks an app to read aloud, and for what. */
export interface SpeakRequest {
  app: { id: string; spaceId: string; voice: string | null; voiceModel: string | null };
  text: string;
  /** A tone of the app's model other than the app's own. */
  tone?: string | undefined;
  /** The member whose allocation pays first (signed-in callers). */
  memberUserId?: string | null;
  endUserId?: string | null;
  channel: string;
  signal?: AbortSignal;
}

/**
 * Reads text aloud with an app's voice, charging the app's space per character: the credits are
 * held before the call, settled once the audio was all sent (ledger reason `usage`, reference
 * `voice:<appId>`, a usage record with model `speech:<id>`) and released when the provider
 * refused or the audio broke off. The audio is answered as the provider streams it.
 */
export async function speak(deps: Pick<Deps, "config" | "db" | "logger" | "mail" | "models" | "now" | "sms">, request: SpeakRequest) {
  const text = checkVoiceText(request.text);
  const { app } = request;
  if (!app.voiceModel || !app.voice) {
    await deps.models.ready();
    throw fail.invalid(deps.models.speechModels().length === 0 ? "voice_not_configured" : "voice_app_silent", "voice");
  }
  const resolved = await speechModel(deps, app.voiceModel, "voice");
  const tone = request.tone ?? app.voice;
  if (request.tone !== undefined) await checkTone(deps, resolved, request.tone);
  const characters = [...text].length;
  const credits = speechCredits(resolved.model.id, characters);
  const reference = `voice:${app.id}`;
  const hold = await takeHold(deps, { spaceId: app.spaceId, amount: credits, reference, memberUserId: request.memberUserId ?? null });
  let audio;
  try {
    audio = await resolved.synthesizer.synthesize({ text, tone, ...(request.signal ? { signal: request.signal } : {}) });
  } catch (error) {
    await releaseHold(deps, hold);
    deps.logger.warn("speech failed", { appId: app.id, model: resolved.model.id, reason: error instanceof Error ? error.message : String(error) });
    throw new ServiceError("external", "voice_failed");
  }
  let finished = false;
  const settle = async () => {
    if (finished) return;
    finished = true;
    const { charged } = await settleHold(deps, hold, { credits, reference });
    await deps.db.insert(usageRecords).values({
      id: newId("use"),
      spaceId: app.spaceId,
      appId: app.id,
      endUserId: request.endUserId ?? null,
      channel: request.channel,
      prompt: text,
      answer: "",
      model: `speech:${resolved.model.id}`,
      promptTokens: characters,
      completionTokens: 0,
      credits: charged,
      createdAt: deps.now().toISOString(),
    });
  };
  const release = async (reason: unknown) => {
    if (finished) return;
    finished = true;
    await releaseHold(deps, hold);
    deps.logger.warn("speech broke off", { appId: app.id, model: resolved.model.id, reason: reason instanceof Error ? reason.message : String(reason) });
  };
  const reader = audio.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          await settle();
          controller.close();
          return;
        }
        controller.enqueue(value);
      } catch (error) {
        await release(error);
        controller.error(error);
      }
    },
    async cancel(reason) {
      // The listener left: what the provider already read is paid for.
      await reader.cancel(reason).catch(() => undefined);
      await settle().catch(() => undefined);
    },
  });
  return { contentType: audio.contentType, body, credits, model: resolved.model.id, tone };
}
