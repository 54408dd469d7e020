/** Why recording could not start: no media support in this browser, or the microphone was refused. */
export type RecorderFailure = "unsupported" | "denied";

/** A recording under way. */
export interface Recording {
  /** Stops and answers what was recorded (the browser's own container: WebM or Ogg in Chromium and Firefox, MP4 in Safari). */
  stop(): Promise<Blob>;
  /** Stops and throws the audio away. */
  cancel(): void;
}

/** The file name a recording is uploaded under, by its media type. */
export function recordingFileName(blob: Blob): string {
  const type = blob.type.toLowerCase();
  return `speech.${type.includes("ogg") ? "ogg" : type.includes("mp4") ? "m4a" : "webm"}`;
}

/** Whether this browser can record from a microphone at all (secure context, getUserMedia, MediaRecorder). */
export function canRecord(): boolean {
  return typeof navigator !== "undefined" && !!navigator.mediaDevices?.getUserMedia && typeof MediaRecorder !== "undefined";
}

/**
 * Asks for the microphone and starts recording. Rejects with a {@link RecorderFailure}:
 * `unsupported` without media support, `denied` when the person or the browser refused the microphone.
 */
export async function startRecording(): Promise<Recording> {
  if (!canRecord()) throw "unsupported" satisfies RecorderFailure;
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ audio: true });
  } catch (error) {
    const name = (error as DOMException | undefined)?.name;
    throw (name === "NotFoundError" || name === "NotSupportedError" ? "unsupported" : "denied") satisfies RecorderFailure;
  }
  const recorder = new MediaRecorder(stream);
  const parts: Blob[] = [];
  recorder.ondataavailable = (event) => {
    if (event.data.size > 0) parts.push(event.data);
  };
  const release = () => stream.getTracks().forEach((track) => track.stop());
  recorder.start();
  return {
    stop: () =>
      new Promise<Blob>((resolve) => {
        recorder.onstop = () => {
          release();
          resolve(new Blob(parts, { type: recorder.mimeType || "audio/webm" }));
        };
        recorder.stop();
      }),
    cancel: () => {
      recorder.onstop = release;
      if (recorder.state !== "inactive") recorder.stop();
      else release();
    },
  };
}
