import { useEffect, useRef } from "react";
import type { ChatTurn } from "../../components/chat/chat-state";
import { useReadAloud } from "./use-read-aloud";

/** {@link useReadAloud} that also reads each answer completing while `auto` is on (not those loaded from history). */
export function useAutoRead(appCode: string, available: boolean, turns: ChatTurn[]) {
  const voice = useReadAloud(appCode, available);
  const streamed = useRef(new Set<string>());
  const read = useRef(new Set<string>());
  const { auto, play } = voice;
  useEffect(() => {
    for (const turn of turns) {
      if (turn.role !== "assistant") continue;
      if (turn.status === "streaming") streamed.current.add(turn.id);
      else if (turn.status === "complete" && auto && streamed.current.has(turn.id) && !read.current.has(turn.id)) {
        read.current.add(turn.id);
        void play(turn.id, turn.content);
      }
    }
  }, [turns, auto, play]);
  return voice;
}
