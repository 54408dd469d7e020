import type { Humanization } from "../../apps/service/index";

/** Longest piece a split reply sends when the channel sets no limit of its own. */
export const DEFAULT_SPLIT_LENGTH = 300;

/**
 * Split reply: cuts an answer into message-sized pieces at paragraph breaks, then sentence ends
 * (Latin and CJK), then spaces, never inside a fenced code block unless the block alone is too
 * long. Pieces keep their text exactly; joining them (with the separators dropped) gives the
 * answer back.
 */
export function splitReply(text: string, maxLength = DEFAULT_SPLIT_LENGTH): string[] {
  const paragraphs = splitOutsideCode(text.trim());
  const pieces: string[] = [];
  let current = "";
  const push = (piece: string) => {
    if (piece.trim()) pieces.push(piece.trim());
  };
  for (const paragraph of paragraphs) {
    if (paragraph.length > maxLength && !paragraph.startsWith("```")) {
      push(current);
      current = "";
      for (const part of cut(paragraph, maxLength)) push(part);
      continue;
    }
    if (current && current.length + 2 + paragraph.length > maxLength) {
      push(current);
      current = paragraph;
    } else {
      current = current ? `${current}\n\n${paragraph}` : paragraph;
    }
  }
  push(current);
  return pieces;
}

/** Paragraphs, keeping each fenced code block whole. */
function splitOutsideCode(text: string): string[] {
  const out: string[] = [];
  const blocks = text.split(/(```[\s\S]*?```)/g);
  for (const block of blocks) {
    if (block.startsWith("```")) out.push(block);
    else
      out.push(
        ...block
          .split(/\n\s*\n/)
          .map((part) => part.trim())
          .filter(Boolean),
      );
  }
  return out;
}

/** Cuts a long paragraph at sentence ends, else at spaces, else hard. */
function cut(paragraph: string, maxLength: number): string[] {
  const sentences = paragraph.match(/[^.!?。！？；;]+[.!?。！？；;]*\s*/g) ?? [paragraph];
  const out: string[] = [];
  let current = "";
  for (const sentence of sentences) {
    if (current.length + sentence.length <= maxLength) {
      current += sentence;
      continue;
    }
    if (current) out.push(current);
    current = "";
    if (sentence.length <= maxLength) {
      current = sentence;
      continue;
    }
    let rest = sentence;
    while (rest.length > maxLength) {
      const space = rest.lastIndexOf(" ", maxLength);
      const at = space > maxLength / 2 ? space : maxLength;
      out.push(rest.slice(0, at));
      rest = rest.slice(at).trimStart();
    }
    current = rest;
  }
  if (current) out.push(current);
  return out.map((piece) => piece.trim()).filter(Boolean);
}

/** Delay reply: milliseconds to wait before answering (never negative). */
export function replyDelayMs(settings: Pick<Humanization, "delayReplySeconds">): number {
  return Math.max(0, Math.round(settings.delayReplySeconds * 1000));
}

/** A clock a merge buffer schedules on; tests pass one they can move. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * Merge reply: collects the messages one person sends in quick succession and hands them over
 * as one text once they stayed quiet for `mergeDelaySeconds`; each new message restarts the
 * wait. Without merge reply, every message is handed over at once.
 */
export function createMergeBuffer(
  settings: Pick<Humanization, "mergeReply" | "mergeDelaySeconds">,
  flush: (key: string, text: string) => void,
  timers: Timers = { setTimeout: (callback, ms) => setTimeout(callback, ms), clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout) },
) {
  const pending = new Map<string, { texts: string[]; handle: unknown }>();
  const delayMs = settings.mergeReply ? Math.max(0, (settings.mergeDelaySeconds ?? 0) * 1000) : 0;
  const release = (key: string) => {
    const entry = pending.get(key);
    if (!entry) return;
    pending.delete(key);
    flush(key, entry.texts.join("\n"));
  };
  return {
    /** Adds a message from `key` (a conversation or sender). */
    add(key: string, text: string): void {
      if (delayMs === 0) {
        flush(key, text);
        return;
      }
      const entry = pending.get(key) ?? { texts: [], handle: undefined };
      if (entry.handle !== undefined) timers.clearTimeout(entry.handle);
      entry.texts.push(text);
      entry.handle = timers.setTimeout(() => release(key), delayMs);
      pending.set(key, entry);
    },
    /** Hands over everything still waiting (on shutdown). */
    flushAll(): void {
      for (const [key, entry] of [...pending]) {
        timers.clearTimeout(entry.handle);
        release(key);
      }
    },
    /** How many people have messages waiting. */
    size: () => pending.size,
  };
}
