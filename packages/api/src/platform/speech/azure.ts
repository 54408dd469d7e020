import { audioOf, SpeechError, type SpeechSynthesizer, type SpeechTone, speechFetch } from "./types";

/** The output format asked of Azure: MP3 plays everywhere and streams through MediaSource. */
export const AZURE_OUTPUT_FORMAT = "audio-24khz-48kbitrate-mono-mp3";

/** Settings of an Azure Speech text-to-speech endpoint. */
export interface AzureSpeechOptions {
  /**
   * The regional endpoint root, e.g. `https://westeurope.tts.speech.microsoft.com`; the voices
   * are at `/cognitiveservices/voices/list`, synthesis at `/cognitiveservices/v1`.
   */
  baseUrl: string;
  /** The model id apps name (Azure has one neural engine per region; the id tells providers apart). */
  model: string;
  /** The resource key, sent as `Ocp-Apim-Subscription-Key`. */
  apiKey?: string;
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
}

/** Escapes text for an XML text node or attribute. */
export function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (char) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[char]!);
}

/** The SSML document Azure reads: the voice's own locale as the document language. */
export function azureSsml(text: string, voice: string): string {
  const locale = /^[a-z]{2,3}-[A-Z]{2}/.exec(voice)?.[0] ?? "en-US";
  return `<speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="${locale}"><voice name="${escapeXml(voice)}">${escapeXml(text)}</voice></speak>`;
}

const genders: Record<string, SpeechTone["gender"]> = { Female: "female", Male: "male", Neutral: "neutral" };

/**
 * A speech model over Azure Speech REST: `GET /cognitiveservices/voices/list` for the voices
 * (`ShortName`, `DisplayName`, `Locale`, `Gender`) and `POST /cognitiveservices/v1` with an SSML
 * body and `X-Microsoft-OutputFormat`; the resource key goes in `Ocp-Apim-Subscription-Key`.
 */
export function createAzureSpeech(options: AzureSpeechOptions): SpeechSynthesizer {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const root = options.baseUrl.replace(/\/+$/, "");
  const key: Record<string, string> = options.apiKey ? { "Ocp-Apim-Subscription-Key": options.apiKey } : {};
  const timeoutMs = options.timeoutMs ?? 30_000;
  return {
    model: options.model,
    async tones(signal) {
      const url = `${root}/cognitiveservices/voices/list`;
      const response = await speechFetch(fetchImpl, url, { headers: key, timeoutMs, signal });
      const rows: unknown = await response.json().catch(() => undefined);
      if (!Array.isArray(rows)) throw new SpeechError(`voice list of ${url} is not a JSON list`);
      return rows.flatMap((row: { ShortName?: unknown; DisplayName?: unknown; LocalName?: unknown; Locale?: unknown; Gender?: unknown } | null) =>
        typeof row?.ShortName === "string" && row.ShortName
          ? [
              {
                id: row.ShortName,
                name: typeof row.LocalName === "string" ? row.LocalName : typeof row.DisplayName === "string" ? row.DisplayName : row.ShortName,
                locale: typeof row.Locale === "string" ? row.Locale : null,
                gender: typeof row.Gender === "string" ? (genders[row.Gender] ?? null) : null,
              },
            ]
          : [],
      );
    },
    async synthesize({ text, tone, signal }) {
      const url = `${root}/cognitiveservices/v1`;
      const response = await speechFetch(fetchImpl, url, {
        method: "POST",
        headers: { ...key, "Content-Type": "application/ssml+xml", "X-Microsoft-OutputFormat": AZURE_OUTPUT_FORMAT, "User-Agent": "parley" },
        body: azureSsml(text, tone),
        timeoutMs,
        signal,
      });
      return audioOf(response, url, "audio/mpeg");
    },
  };
}
