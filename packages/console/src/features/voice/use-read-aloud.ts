import { playAudioStream } from "@parley/sdk";
import { useCallback, useEffect, useRef, useState } from "react";
import { voiceEndpoints } from "../../lib/api/voice";

/** Whether the page was opened with `voice=true` (spec startup URL parameter). */
export function voiceParamOn(search = typeof window === "undefined" ? "" : window.location.search): boolean {
  return new URLSearchParams(search).get("voice") === "true";
}

/**
 * Reading an app's answers aloud: `auto` (on when the page was opened with `voice=true`, or
 * turned on with the speaker toggle) reads each answer that completes; `play` reads one on
 * demand. One answer plays at a time through the returned audio element's ref. Silent on failure.
 */
export function useReadAloud(appCode: string | undefined, available: boolean) {
  const [auto, setAuto] = useState(voiceParamOn);
  const [playing, setPlaying] = useState<string>();
  const audio = useRef<HTMLAudioElement>(null);
  const current = useRef<AbortController | undefined>(undefined);
  useEffect(() => () => current.current?.abort(), []);

  const play = useCallback(
    async (id: string, text: string) => {
      const element = audio.current;
      if (!available || !appCode || !element || !text.trim()) return;
      current.current?.abort();
      element.pause();
      const controller = new AbortController();
      current.current = controller;
      setPlaying(id);
      try {
        const spoken = await voiceEndpoints.stream(appCode, text.slice(0, 4096), controller.signal);
        if (spoken && !controller.signal.aborted) await playAudioStream(element, spoken.body, spoken.contentType);
      } catch {
        // Read-aloud failures stay silent (spec §8).
      } finally {
        if (current.current === controller) setPlaying(undefined);
      }
    },
    [appCode, available],
  );

  const stop = useCallback(() => {
    current.current?.abort();
    audio.current?.pause();
    setPlaying(undefined);
  }, []);

  return { auto: available && auto, setAuto, play, stop, playing, audio };
}
