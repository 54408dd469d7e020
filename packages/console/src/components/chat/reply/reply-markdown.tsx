/**
 * An assistant reply rendered by the Markdown stack: react-markdown with GFM (tables, task
 * lists, autolinks), math parsed by remark-math, code highlighted by rehype-highlight, and
 * spec §5's reply rules as a pre-parse step ({@link prepareReply}) and remark plugins
 * ({@link remarkReplyMedia}, {@link remarkDisplayMath}). Raw HTML in a reply is shown as text,
 * never as markup, and only http(s) and site URLs are ever linked or loaded.
 *
 * This module is heavy (parser, grammars): it is loaded lazily by `ReplyContent`. Formulas are
 * typeset by KaTeX in a second chunk (reply-markdown-math.tsx), loaded only for replies with math.
 */
import { Typography } from "antd";
import { type ComponentProps, type ReactNode, useMemo } from "react";
import Markdown, { type Components, type Options } from "react-markdown";
import { Link } from "react-router";
import rehypeHighlight from "rehype-highlight";
import remarkGfm from "remark-gfm";
import remarkMath from "remark-math";
import { HIGHLIGHT_LANGUAGES } from "./highlight-languages";
import { prepareReply } from "./prepare";
import { remarkDisplayMath, remarkReplyMedia } from "./remark-reply-rules";
import { isConsolePath, isSafeUrl } from "./urls";
import "./reply-markdown.css";

const remarkPlugins: Options["remarkPlugins"] = [remarkGfm, remarkMath, remarkDisplayMath, remarkReplyMedia];
const highlight: NonNullable<Options["rehypePlugins"]>[number] = [rehypeHighlight, { languages: HIGHLIGHT_LANGUAGES }];

/** Keeps http(s) and site URLs; any other (javascript:, data:, //host) is dropped. */
const urlTransform = (url: string): string | undefined => (isSafeUrl(url) ? url : undefined);

const heading =
  (level: 3 | 4 | 5) =>
  ({ children }: { children?: ReactNode }) => (
    <Typography.Title level={level} className="pl-reply__heading">
      {children}
    </Typography.Title>
  );

const components: Components = {
  a({ href, children }) {
    if (!href) return <span>{children}</span>;
    if (isConsolePath(href)) {
      return (
        <Link to={href} data-testid="reply-console-link">
          {children}
        </Link>
      );
    }
    return (
      <a href={href} target="_blank" rel="noopener noreferrer nofollow">
        {children}
      </a>
    );
  },
  img(props: ComponentProps<"img"> & { "data-media"?: string }) {
    const { src, alt } = props;
    if (typeof src !== "string" || !src) return <span>{alt}</span>;
    if (props["data-media"] === "image") {
      return (
        <a href={src} target="_blank" rel="noopener noreferrer nofollow">
          <img src={src} alt={alt ?? ""} loading="lazy" referrerPolicy="no-referrer" className="pl-reply__image" data-testid="reply-image" />
        </a>
      );
    }
    // Not a picture by its extension: shown as a link to it.
    return (
      <a href={src} target="_blank" rel="noopener noreferrer nofollow">
        {alt || src}
      </a>
    );
  },
  video({ src }) {
    if (typeof src !== "string" || !src) return null;
    // biome-ignore lint/a11y/useMediaCaption: a video linked in an answer comes with no caption file to point a track at
    return <video src={src} controls preload="metadata" className="pl-reply__video" data-testid="reply-video" />;
  },
  pre({ children }) {
    return <pre className="pl-reply__code">{children}</pre>;
  },
  table({ children }) {
    return (
      <div className="pl-reply__table">
        <table>{children}</table>
      </div>
    );
  },
  h1: heading(3),
  h2: heading(4),
  h3: heading(5),
  h4: heading(5),
  h5: heading(5),
  h6: heading(5),
};

/** Props of a reply renderer. */
export interface ReplyMarkdownProps {
  /** The reply as written by the model (Markdown). */
  text: string;
}

/** Rehype plugins of a reply: `before` (the math chunk adds KaTeX, so formulas are typeset before code is highlighted), then the highlighter. */
export function replyRehypePlugins(before: NonNullable<Options["rehypePlugins"]> = []): NonNullable<Options["rehypePlugins"]> {
  return [...before, highlight];
}

/** Renders a reply's blocks, then its media row, through the given rehype plugins. */
export function ReplyMarkdownView({ text, rehypePlugins }: ReplyMarkdownProps & { rehypePlugins: NonNullable<Options["rehypePlugins"]> }) {
  const source = useMemo(() => prepareReply(text), [text]);
  return (
    <Markdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components} urlTransform={urlTransform}>
      {source}
    </Markdown>
  );
}

const plainPlugins = replyRehypePlugins();

/** The renderer for replies without math. */
export default function ReplyMarkdown({ text }: ReplyMarkdownProps) {
  return <ReplyMarkdownView text={text} rehypePlugins={plainPlugins} />;
}
