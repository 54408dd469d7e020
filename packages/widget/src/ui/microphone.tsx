import { useEffect, useRef, useState } from "preact/hooks";
import type { ChatStore } from "../core/chat-store";
import type { en } from "../core/i18n";
import type { Recording } from "./voice/recorder";

/** The longest recording the server takes (10 minutes): recording stops there by itself. */
const MAX_MS = 600_000;

const clock = (ms: number) => {
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
};

/**
 * The microphone next to send: press to record, press again to stop; the transcript goes into
 * the input. The recorder is imported on the first press, so it is not part of the chat chunk.
 */
export function Microphone({ store, strings, disabled }: { store: ChatStore; strings: typeof en; disabled: boolean }) {
  const [state, setState] = useState<"idle" | "starting" | "recording" | "transcribing">("idle");
  const [elapsed, setElapsed] = useState(0);
  const recording = useRef<Recording | undefined>(undefined);
  const stopRef = useRef<(() => void) | undefined>(undefined);

  useEffect(() => {
    if (state !== "recording") return;
    const started = Date.now();
    setElapsed(0);
    const timer = setInterval(() => {
      setElapsed(Date.now() - started);
      if (Date.now() - started >= MAX_MS) stopRef.current?.();
    }, 250);
    return () => clearInterval(timer);
  }, [state]);
  useEffect(() => () => recording.current?.cancel(), []);

  const start = async () => {
    setState("starting");
    try {
      const { startRecording } = await import("./voice/recorder");
      recording.current = await startRecording();
      setState("recording");
    } catch (failure) {
      setState("idle");
      store.setNotice(failure === "denied" ? strings.micDenied : failure === "unsupported" ? strings.micUnsupported : strings.failed);
    }
  };
  const stop = async () => {
    const current = recording.current;
    if (!current) return;
    recording.current = undefined;
    setState("transcribing");
    const { audio, fileName } = await current.stop();
    await store.transcribe(audio, fileName);
    setState("idle");
  };
  stopRef.current = () => void stop();

  const recordingNow = state === "recording";
  return (
    <button
      type="button"
      class={recordingNow ? "ib r" : "ib"}
      aria-label={recordingNow ? strings.micStop : state === "transcribing" ? strings.micBusy : strings.mic}
      aria-pressed={recordingNow ? "true" : "false"}
      title={recordingNow ? strings.micStop : strings.mic}
      disabled={(disabled && !recordingNow) || state === "starting" || state === "transcribing"}
      onClick={() => void (recordingNow ? stop() : start())}
    >
      {recordingNow ? `■ ${clock(elapsed)}` : state === "transcribing" ? "…" : "🎤"}
    </button>
  );
}
