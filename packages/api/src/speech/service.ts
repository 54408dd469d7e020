import { newId } from "../crypto";
import { usageRecords } from "../db/schema/index";
import { releaseHold, settleHold, takeHold } from "../billing/service/holds";
import { fail, ServiceError } from "../errors";
import type { Deps } from "../kernel";
import { transcriptionCredits } from "../models/pricing";
import { estimateTokens } from "../platform/llm/tokens";
import { audioDurationSeconds, sniffAudio } from "./audio";

/** The largest recording speech input takes: the spec's limit for media and chat uploads. */
export const SPEECH_MAX_BYTES = 15 * 1024 * 1024;

/** The longest recording speech input takes: a spoken question, not a meeting (10 minutes). */
export const SPEECH_MAX_SECONDS = 10 * 60;

/** What transcribing needs of the kernel: the catalogue and the credit ledger. */
export type SpeechDeps = Pick<Deps, "config" | "db" | "logger" | "mail" | "models" | "now" | "sms">;

/** One recording to transcribe and who pays for it. */
export interface TranscribeRequest {
  spaceId: string;
  audio: Uint8Array;
  /** A transcription model of the catalogue; default the first one served. */
  model?: string;
  /** ISO-639-1 hint (`en`, `zh`); absent lets the model detect the language. */
  language?: string;
  /** Named by the usage record. */
  appId?: string | null;
  endUserId?: string | null;
  channel?: string;
}

/** What a transcription answers. */
export interface TranscribeResult {
  text: string;
  model: string;
  durationSeconds: number;
  credits: number;
}

/**
 * Checks a recording and transcribes it for a space: a served model, not empty, at most
 * {@link SPEECH_MAX_BYTES}, audio by its first bytes, a readable duration of at most
 * {@link SPEECH_MAX_SECONDS} — all before any provider call. The credits for its minutes are
 * held before the call, settled when it answered and released when it failed; the call leaves
 * a usage record (model `transcription:<id>`).
 */
export async function transcribeForSpace(deps: SpeechDeps, request: TranscribeRequest): Promise<TranscribeResult> {
  await deps.models.ready();
  const modelId = request.model ?? deps.models.transcriptionModels()[0]?.id;
  if (!modelId) throw new ServiceError("conflict", "speech_no_model");
  const resolved = deps.models.transcriber(modelId);
  if (!resolved) throw fail.invalid("speech_unknown_model", "model", { model: modelId });
  if (request.audio.byteLength === 0) throw fail.invalid("speech_empty", "file");
  if (request.audio.byteLength > SPEECH_MAX_BYTES)
    throw new ServiceError("payload_too_large", "speech_too_large", { megabytes: SPEECH_MAX_BYTES / 1024 / 1024 }, { field: "file" });
  const sniffed = sniffAudio(request.audio);
  if (!sniffed) throw fail.invalid("speech_not_audio", "file");
  const duration = await audioDurationSeconds(request.audio, sniffed);
  if (duration === undefined) throw fail.invalid("speech_duration_unknown", "file");
  if (duration > SPEECH_MAX_SECONDS) throw fail.invalid("speech_too_long", "file", { seconds: Math.round(duration), minutes: SPEECH_MAX_SECONDS / 60 });
  if (duration === 0) throw fail.invalid("speech_empty", "file");

  const credits = transcriptionCredits(modelId, duration);
  const reference = `transcription:${request.appId ?? request.spaceId}`;
  const hold = credits > 0 ? await takeHold(deps, { spaceId: request.spaceId, amount: credits, reference }) : undefined;
  let text: string;
  try {
    ({ text } = await resolved.transcriber.transcribe({
      audio: request.audio,
      fileName: `speech.${sniffed.extension}`,
      mimeType: sniffed.mimeType,
      ...(request.language ? { language: request.language } : {}),
    }));
  } catch (error) {
    if (hold) await releaseHold(deps, hold);
    deps.logger.warn("transcription failed", { spaceId: request.spaceId, model: modelId, reason: error instanceof Error ? error.message : String(error) });
    throw new ServiceError("external", "speech_failed");
  }
  const charged = hold ? (await settleHold(deps, hold, { credits, reference })).charged : 0;
  await deps.db.insert(usageRecords).values({
    id: newId("use"),
    spaceId: request.spaceId,
    appId: request.appId ?? null,
    endUserId: request.endUserId ?? null,
    channel: request.channel ?? null,
    prompt: `[audio ${duration.toFixed(1)} s]`,
    answer: text,
    model: `transcription:${modelId}`,
    promptTokens: 0,
    completionTokens: estimateTokens(text),
    credits: charged,
    createdAt: deps.now().toISOString(),
  });
  return { text, model: modelId, durationSeconds: Math.round(duration * 10) / 10, credits: charged };
}
