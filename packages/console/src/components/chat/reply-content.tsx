import { Typography } from 'antd';
import { Fragment, useMemo, type ReactNode } from 'react';
import { Link } from 'react-router';
import { formatReply, isConsolePath, type Block, type Inline } from '../../features/chat/reply-format';
import './chat.css';

function renderInline(nodes: Inline[], keyPrefix = ''): ReactNode[] {
  return nodes.map((node, index) => {
    const key = `${keyPrefix}${index}`;
    switch (node.type) {
      case 'text':
        return <Fragment key={key}>{node.text}</Fragment>;
      case 'strong':
        return <strong key={key}>{renderInline(node.children, `${key}-`)}</strong>;
      case 'em':
        return <em key={key}>{renderInline(node.children, `${key}-`)}</em>;
      case 'code':
        return <code key={key} className="pl-reply__code-inline">{node.text}</code>;
      case 'math':
        return <span key={key} className="pl-reply__math" data-math="inline">{node.text}</span>;
      case 'link':
        if (isConsolePath(node.href)) {
          return (
            <Link key={key} to={node.href} data-testid="reply-console-link">
              {renderInline(node.children, `${key}-`)}
            </Link>
          );
        }
        return (
          <a key={key} href={node.href} target="_blank" rel="noopener noreferrer nofollow">
            {renderInline(node.children, `${key}-`)}
          </a>
        );
      default:
        return null;
    }
  });
}

function renderBlock(block: Block, index: number): ReactNode {
  switch (block.type) {
    case 'paragraph':
      return <p key={index}>{renderInline(block.inlines)}</p>;
    case 'heading': {
      const level = Math.min(Math.max(block.level + 2, 3), 5) as 3 | 4 | 5;
      return <Typography.Title key={index} level={level} className="pl-reply__heading">{renderInline(block.inlines)}</Typography.Title>;
    }
    case 'code':
      return (
        <pre key={index} className="pl-reply__code" data-language={block.language || undefined}>
          <code>{block.text}</code>
        </pre>
      );
    case 'math':
      return <div key={index} className="pl-reply__math pl-reply__math--display" data-math="display">{block.text}</div>;
    case 'quote':
      return <blockquote key={index}>{renderInline(block.inlines)}</blockquote>;
    case 'list': {
      const items = block.items.map((item, itemIndex) => <li key={itemIndex}>{renderInline(item)}</li>);
      return block.ordered ? <ol key={index}>{items}</ol> : <ul key={index}>{items}</ul>;
    }
    case 'rule':
      return <hr key={index} />;
    default:
      return null;
  }
}

/** Props of {@link ReplyContent}. */
export interface ReplyContentProps {
  text: string;
  /** A blinking cursor after the last block while the answer streams. */
  cursor?: boolean;
}

/**
 * An assistant reply rendered from Markdown-ish text under spec §5's rules (see
 * reply-format.ts). Only React elements are produced: text never becomes HTML.
 */
export function ReplyContent({ text, cursor = false }: ReplyContentProps) {
  const reply = useMemo(() => formatReply(text), [text]);
  return (
    <div className={cursor ? 'pl-reply pl-reply--streaming' : 'pl-reply'}>
      {reply.blocks.map(renderBlock)}
      {reply.media.length > 0 ? (
        <div className="pl-reply__media">
          {reply.media.map((item) =>
            item.kind === 'video' ? (
              <video key={item.url} src={item.url} controls preload="metadata" className="pl-reply__video" data-testid="reply-video" />
            ) : (
              <a key={item.url} href={item.url} target="_blank" rel="noopener noreferrer nofollow">
                <img src={item.url} alt={item.alt} loading="lazy" referrerPolicy="no-referrer" className="pl-reply__image" data-testid="reply-image" />
              </a>
            ),
          )}
        </div>
      ) : null}
    </div>
  );
}
