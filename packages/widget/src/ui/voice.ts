/** Reading answers aloud in the widget (issue 21): a speaker toggle and a play button per answer. */
import { playAudioStream } from "@parley/sdk";
import type { WidgetSession } from "../core/protocol";

/** The widget's read-aloud state; `changed` redraws the panel. */
export interface Voice {
  /** Read each new answer aloud: on when the page was opened with `voice=true`, or turned on. */
  auto: boolean;
  /** The message being read. */
  playing?: string | undefined;
  toggle(): void;
  play(id: string, text: string): void;
  stop(): void;
}

/** Creates the read-aloud state over `${api}/api/v1/widget/{clientId}/sessions/{id}/voice/stream`; failures stay silent. */
export function createVoice(
  api: string,
  clientId: string,
  session: () => WidgetSession | undefined,
  language: () => string,
  audio: HTMLAudioElement,
  changed: () => void,
): Voice {
  let controller: AbortController | undefined;
  const voice: Voice = {
    auto: new URLSearchParams(location.search).get("voice") === "true",
    toggle() {
      voice.auto = !voice.auto;
      if (!voice.auto) voice.stop();
      changed();
    },
    stop() {
      controller?.abort();
      audio.pause();
      voice.playing = undefined;
      changed();
    },
    play(id, text) {
      const current = session();
      if (!current || !text.trim()) return;
      controller?.abort();
      audio.pause();
      const mine = (controller = new AbortController());
      voice.playing = id;
      changed();
      const url = `${api}/api/v1/widget/${encodeURIComponent(clientId)}/sessions/${encodeURIComponent(current.sessionId)}/voice/stream`;
      fetch(url, {
        method: "POST",
        credentials: "omit",
        signal: mine.signal,
        headers: { "Content-Type": "application/json", "Accept-Language": language(), Authorization: `Bearer ${current.visitorToken}` },
        body: JSON.stringify({ text: text.slice(0, 4096) }),
      })
        .then((response) =>
          response.ok && response.body ? playAudioStream(audio, response.body, response.headers.get("content-type") || "audio/mpeg") : undefined,
        )
        .catch(() => undefined)
        .finally(() => {
          if (controller === mine) {
            voice.playing = undefined;
            changed();
          }
        });
    },
  };
  return voice;
}
