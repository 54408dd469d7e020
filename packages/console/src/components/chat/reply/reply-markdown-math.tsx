/**
 * The reply renderer for replies with math: the same stack plus rehype-katex, with KaTeX's
 * styles and fonts bundled from the katex package (served by the instance, never a CDN).
 * Its own lazy chunk, so replies without formulas never load KaTeX.
 */
import "katex/dist/katex.min.css";
import rehypeKatex from "rehype-katex";
import { type ReplyMarkdownProps, ReplyMarkdownView, replyRehypePlugins } from "./reply-markdown";

const mathPlugins = replyRehypePlugins([rehypeKatex]);

/** The renderer for replies with math. */
export default function ReplyMarkdownMath({ text }: ReplyMarkdownProps) {
  return <ReplyMarkdownView text={text} rehypePlugins={mathPlugins} />;
}
