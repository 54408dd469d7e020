import { lazy, Suspense } from "react";
import { mayHoldMath, truncateReply } from "./reply/truncate";
import "./chat.css";

// The Markdown stack (parser, grammars) is its own chunk, so the chat paints without it; KaTeX
// is a further chunk, loaded only for a reply that may hold math.
const ReplyMarkdown = lazy(() => import("./reply/reply-markdown"));
const ReplyMarkdownMath = lazy(() => import("./reply/reply-markdown-math"));

/** Props of {@link ReplyContent}. */
export interface ReplyContentProps {
  text: string;
  /** A blinking cursor after the last block while the answer streams. */
  cursor?: boolean;
}

/**
 * An assistant reply rendered from Markdown under spec §5's rules (see
 * components/chat/reply/reply-markdown.tsx). Until the renderer's chunk has loaded, the reply
 * shows as plain text, already cut to its length. Text never becomes HTML.
 */
export function ReplyContent({ text, cursor = false }: ReplyContentProps) {
  const Renderer = mayHoldMath(text) ? ReplyMarkdownMath : ReplyMarkdown;
  return (
    <div className={cursor ? "pl-reply pl-reply--streaming" : "pl-reply"}>
      <Suspense fallback={<p>{truncateReply(text)}</p>}>
        <Renderer text={text} />
      </Suspense>
    </div>
  );
}
