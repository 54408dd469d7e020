/**
 * Recording a question from the microphone in a browser, for speech input: the console chat and
 * the widget share it (the widget loads it in a chunk of its own, on the first press only).
 */

/** Why recording could not start: no media support here, or the microphone was refused. */
export type RecorderFailure = "unsupported" | "denied";

/** A recording under way. */
export interface Recording {
  /** Stops and answers the audio (WebM or Ogg in Chromium and Firefox, MP4 in Safari) with a file name of its kind. */
  stop(): Promise<{ audio: Blob; fileName: string }>;
  /** Stops and throws the audio away. */
  cancel(): void;
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
      new Promise((resolve) => {
        recorder.onstop = () => {
          release();
          const type = recorder.mimeType || "audio/webm";
          resolve({ audio: new Blob(parts, { type }), fileName: `speech.${/ogg/.test(type) ? "ogg" : /mp4/.test(type) ? "m4a" : "webm"}` });
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
