/**
 * The transcription port: turns recorded speech into text. The speech area sends it audio it
 * has already checked (container, size, duration); implementations speak a vendor's wire format.
 */

/** One audio file to transcribe. */
export interface TranscriptionInput {
  audio: Uint8Array;
  /** The file name sent along (vendors read the format from its extension), e.g. `speech.webm`. */
  fileName: string;
  /** The audio's media type, e.g. `audio/webm`. */
  mimeType: string;
  /** ISO-639-1 language hint (`en`, `zh`); omitted lets the model detect it. */
  language?: string;
  signal?: AbortSignal;
}

/** What one transcription answers. */
export interface TranscriptionResult {
  text: string;
}

/** A model that transcribes speech. */
export interface Transcriber {
  /** The model id as the catalogue names it. */
  readonly model: string;
  transcribe(input: TranscriptionInput): Promise<TranscriptionResult>;
}

/** A transcription that failed: the server refused, timed out, or answered something unreadable. */
export class TranscriptionError extends Error {
  override name = "TranscriptionError";
  constructor(
    message: string,
    readonly status?: number,
    /** The vendor's error code (`invalid_api_key`, …) when its error body named one. */
    readonly code?: string,
  ) {
    super(message);
  }
}
