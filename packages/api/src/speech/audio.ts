import { parseBuffer } from "music-metadata";

/** The containers speech input takes: what browsers' MediaRecorder writes, and the common files. */
export type AudioContainer = "webm" | "ogg" | "wav" | "mp3" | "mp4";

/** What the first bytes of a file say it is. */
export interface SniffedAudio {
  container: AudioContainer;
  /** The media type sent on to the provider. */
  mimeType: string;
  /** The extension of the file name sent on (providers read the format from it). */
  extension: string;
}

const KINDS: Record<AudioContainer, Omit<SniffedAudio, "container">> = {
  webm: { mimeType: "audio/webm", extension: "webm" },
  ogg: { mimeType: "audio/ogg", extension: "ogg" },
  wav: { mimeType: "audio/wav", extension: "wav" },
  mp3: { mimeType: "audio/mpeg", extension: "mp3" },
  mp4: { mimeType: "audio/mp4", extension: "m4a" },
};

const ascii = (bytes: Uint8Array, start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end));

/**
 * The audio container of some bytes by their magic numbers (the declared media type is the
 * sender's word and is not trusted): EBML (WebM/Matroska), `OggS`, `RIFF…WAVE`, an MP3 ID3 tag
 * or frame sync, or an ISO-BMFF `ftyp` box (MP4/M4A). Undefined for anything else.
 */
export function sniffAudio(bytes: Uint8Array): SniffedAudio | undefined {
  if (bytes.length < 12) return undefined;
  let container: AudioContainer | undefined;
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) container = "webm";
  else if (ascii(bytes, 0, 4) === "OggS") container = "ogg";
  else if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 12) === "WAVE") container = "wav";
  else if (ascii(bytes, 4, 8) === "ftyp") container = "mp4";
  // An MPEG audio frame header: 11 sync bits, a version that is not "reserved" (01) and a layer that is not 00.
  else if (ascii(bytes, 0, 3) === "ID3" || (bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0 && (bytes[1]! & 0x18) !== 0x08 && (bytes[1]! & 0x06) !== 0)) {
    container = "mp3";
  }
  return container ? { container, ...KINDS[container] } : undefined;
}

/**
 * The playing time of an audio file in seconds, read by music-metadata, which walks the whole
 * file where the header holds no duration (browsers' live WebM recordings). Undefined when the
 * file's duration cannot be read (a damaged or truncated file).
 */
export async function audioDurationSeconds(bytes: Uint8Array, sniffed: SniffedAudio): Promise<number | undefined> {
  try {
    const metadata = await parseBuffer(bytes, { mimeType: sniffed.mimeType, size: bytes.length }, { duration: true, skipCovers: true });
    const duration = metadata.format.duration;
    return typeof duration === "number" && Number.isFinite(duration) && duration >= 0 ? duration : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A WAV file of `seconds` of a 440 Hz tone (16-bit mono PCM): real audio for tests and for the
 * fake microphone Chromium records from.
 */
export function toneWav(seconds: number, sampleRate = 16_000): Uint8Array {
  const samples = Math.round(seconds * sampleRate);
  const bytes = Buffer.alloc(44 + samples * 2);
  bytes.write("RIFF", 0, "ascii");
  bytes.writeUInt32LE(36 + samples * 2, 4);
  bytes.write("WAVEfmt ", 8, "ascii");
  bytes.writeUInt32LE(16, 16);
  bytes.writeUInt16LE(1, 20);
  bytes.writeUInt16LE(1, 22);
  bytes.writeUInt32LE(sampleRate, 24);
  bytes.writeUInt32LE(sampleRate * 2, 28);
  bytes.writeUInt16LE(2, 32);
  bytes.writeUInt16LE(16, 34);
  bytes.write("data", 36, "ascii");
  bytes.writeUInt32LE(samples * 2, 40);
  for (let index = 0; index < samples; index++) bytes.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * index) / sampleRate) * 12_000), 44 + index * 2);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
}
