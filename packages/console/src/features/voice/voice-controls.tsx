import { PauseCircleOutlined, SoundFilled, SoundOutlined } from "@ant-design/icons";
import { Button, Tooltip } from "antd";
import type { RefObject } from "react";
import { useTranslation } from "react-i18next";

/** The header's speaker toggle: read every answer aloud, or not. */
export function SpeakerToggle({ on, onChange }: { on: boolean; onChange: (on: boolean) => void }) {
  const { t } = useTranslation();
  return (
    <Tooltip title={on ? t("voice.autoOff") : t("voice.autoOn")}>
      <Button
        type={on ? "primary" : "default"}
        shape="circle"
        icon={on ? <SoundFilled /> : <SoundOutlined />}
        aria-pressed={on}
        aria-label={t("voice.toggle")}
        onClick={() => onChange(!on)}
        data-testid="voice-toggle"
      />
    </Tooltip>
  );
}

/** An answer's play button (stop while it plays). */
export function PlayAnswerButton({ playing, onPlay, onStop }: { playing: boolean; onPlay: () => void; onStop: () => void }) {
  const { t } = useTranslation();
  return (
    <Button type="text" size="small" icon={playing ? <PauseCircleOutlined /> : <SoundOutlined />} onClick={playing ? onStop : onPlay} data-testid="voice-play">
      {playing ? t("voice.stop") : t("voice.play")}
    </Button>
  );
}

/** The hidden element answers play through. */
export function VoiceAudio({ audio }: { audio: RefObject<HTMLAudioElement | null> }) {
  return (
    // biome-ignore lint/a11y/useMediaCaption: what it reads is the answer's text, shown on the page
    <audio ref={audio} hidden data-testid="voice-audio" />
  );
}
