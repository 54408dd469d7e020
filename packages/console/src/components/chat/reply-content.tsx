import { lazy, Suspense } from 'react';
import { truncateReply } from '../../features/chat/reply/truncate';
import './chat.css';

// The Markdown stack (parser, KaTeX, grammars) is its own chunk: the chat paints without it.
const ReplyMarkdown = lazy(() => import('../../features/chat/reply/reply-markdown'));

/** Props of {@link ReplyContent}. */
export interface ReplyContentProps {
  text: string;
  /** A blinking cursor after the last block while the answer streams. */
  cursor?: boolean;
}

/**
 * An assistant reply rendered from Markdown under spec §5's rules (see
 * features/chat/reply/reply-markdown.tsx). Until the renderer's chunk has loaded, the reply
 * shows as plain text, already cut to its length. Text never becomes HTML.
 */
export function ReplyContent({ text, cursor = false }: ReplyContentProps) {
  return (
    <div className={cursor ? 'pl-reply pl-reply--streaming' : 'pl-reply'}>
      <Suspense fallback={<p>{truncateReply(text)}</p>}>
        <ReplyMarkdown text={text} />
      </Suspense>
    </div>
  );
}
