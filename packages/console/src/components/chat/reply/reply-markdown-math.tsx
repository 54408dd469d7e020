/**
 * The reply renderer for replies with math: the same stack plus rehype-katex, with KaTeX's
 * styles and fonts bundled from the katex package (served by the instance, never a CDN).
 * Its own lazy chunk, so replies without formulas never load KaTeX.
 */
import 'katex/dist/katex.min.css';
import rehypeKatex from 'rehype-katex';
import { createReplyMarkdown } from './reply-markdown';

/** The renderer for replies with math. */
export default createReplyMarkdown([rehypeKatex]);
