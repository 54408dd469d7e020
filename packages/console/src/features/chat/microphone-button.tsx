import { AudioOutlined, LoadingOutlined, StopOutlined } from "@ant-design/icons";
import { App, Button, Tooltip } from "antd";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { type Recording, startRecording } from "@parley/sdk/recorder";
import { useSpaceQuery } from "../../lib/api/query";
import { speechEndpoints } from "../../lib/api/speech";

/** Cache key of the served transcription models. */
export const TRANSCRIPTION_MODELS = ["transcription-models"];

/** The longest recording the server takes (10 minutes): recording stops there by itself. */
const MAX_RECORDING_MS = 10 * 60 * 1000;

const clock = (ms: number) => {
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
};

/** Props of {@link MicrophoneButton}. */
export interface MicrophoneButtonProps {
  /** Gets the transcript, for the chat input (the person can edit it before sending). */
  onText: (text: string) => void;
  disabled?: boolean;
  /** Test ids: `${prefix}-mic`. */
  testIdPrefix?: string;
}

/**
 * Speech input next to the chat's send button: press to record, press again to stop; the
 * recording is transcribed by the instance's transcription model and the text goes into the
 * input. Shows the recording time. Without a served model the button is disabled and its tooltip
 * says where to add one; a refused microphone or a browser without media support is explained (spec §8).
 */
export function MicrophoneButton({ onText, disabled = false, testIdPrefix = "chat" }: MicrophoneButtonProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const models = useSpaceQuery({
    key: TRANSCRIPTION_MODELS,
    fetch: (signal) => speechEndpoints.transcriptionModels({ silent: true, signal }),
    staleTime: 60_000,
  });
  const [state, setState] = useState<"idle" | "starting" | "recording" | "transcribing">("idle");
  const [elapsed, setElapsed] = useState(0);
  const recording = useRef<Recording | undefined>(undefined);

  useEffect(() => {
    if (state !== "recording") return;
    const started = Date.now();
    setElapsed(0);
    const timer = window.setInterval(() => {
      setElapsed(Date.now() - started);
      if (Date.now() - started >= MAX_RECORDING_MS) void stopRef.current();
    }, 250);
    return () => window.clearInterval(timer);
  }, [state]);
  // A recording left running when the chat goes away releases the microphone.
  useEffect(() => () => recording.current?.cancel(), []);

  const start = async () => {
    setState("starting");
    try {
      recording.current = await startRecording();
      setState("recording");
    } catch (failure) {
      setState("idle");
      void message.warning(failure === "denied" ? t("speech.permissionNeeded") : t("speech.unsupported"));
    }
  };
  const stop = async () => {
    const current = recording.current;
    if (!current) return;
    recording.current = undefined;
    setState("transcribing");
    const { audio, fileName } = await current.stop();
    const result = await speechEndpoints.transcribe(audio, fileName);
    setState("idle");
    if (!result.ok) return;
    if (result.data.text) onText(result.data.text);
    else void message.info(t("speech.nothingHeard"));
  };
  // The timer stops a recording at the server's limit; it reads the latest stop.
  const stopRef = useRef(stop);
  stopRef.current = stop;

  if (models.data === undefined) return null;
  if (models.data.length === 0) {
    return (
      <Tooltip title={t("speech.noModel")}>
        <Button type="text" icon={<AudioOutlined />} disabled aria-label={t("speech.noModel")} data-testid={`${testIdPrefix}-mic`} />
      </Tooltip>
    );
  }
  if (state === "recording") {
    return (
      <Button
        danger
        icon={<StopOutlined />}
        onClick={() => void stop()}
        aria-label={t("speech.stop")}
        data-testid={`${testIdPrefix}-mic`}
        data-state="recording"
      >
        <span data-testid={`${testIdPrefix}-mic-elapsed`}>{clock(elapsed)}</span>
      </Button>
    );
  }
  const busy = state === "starting" || state === "transcribing";
  return (
    <Tooltip title={state === "transcribing" ? t("speech.transcribing") : t("speech.record")}>
      <Button
        type="text"
        icon={busy ? <LoadingOutlined /> : <AudioOutlined />}
        disabled={disabled || busy}
        onClick={() => void start()}
        aria-label={t("speech.record")}
        data-testid={`${testIdPrefix}-mic`}
        data-state={state}
      />
    </Tooltip>
  );
}
