/**
 * Test support: renders a reply with the real renderer (to static HTML, inside a router) and
 * reads back the facts spec §5 is about, from the parsed HTML. Used by the tests only.
 */
import type { Element, ElementContent, Root } from "hast";
import { fromHtml } from "hast-util-from-html";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import ReplyMarkdown from "./reply-markdown";
import ReplyMarkdownMath from "./reply-markdown-math";
import { mayHoldMath } from "./truncate";

/** What a rendered reply shows. */
export interface ReplyFacts {
  html: string;
  tree: Root;
  /** Pictures and videos of the media row, in order. */
  media: { kind: "image" | "video"; url: string; alt?: string }[];
  /** Hrefs of the links in the text (not the media row's). */
  links: string[];
  /** Text of every `code` element. */
  code: string[];
  /** TeX source of every formula KaTeX rendered. */
  math: string[];
  /** The visible text, without the media row and without rendered formulas. */
  text: string;
}

const classes = (element: Element): string[] => (Array.isArray(element.properties.className) ? element.properties.className.map(String) : []);

/** Every element under `node`, in document order. */
export function elements(node: Root | Element): Element[] {
  const out: Element[] = [];
  const walk = (children: (ElementContent | Root["children"][number])[]) => {
    for (const child of children) {
      if (child.type !== "element") continue;
      out.push(child);
      walk(child.children);
    }
  };
  walk(node.children);
  return out;
}

/** The text of `node`; `skip` leaves out whole subtrees. */
export function textOf(node: Root | ElementContent, skip: (element: Element) => boolean = () => false): string {
  if (node.type === "text") return node.value;
  if (node.type === "element" && skip(node)) return "";
  if ("children" in node) return node.children.map((child) => textOf(child as ElementContent, skip)).join("");
  return "";
}

/** Renders `text` with the renderer `ReplyContent` picks for it, and reads its facts. */
export function renderReply(text: string): ReplyFacts {
  const renderer = mayHoldMath(text) ? ReplyMarkdownMath : ReplyMarkdown;
  const html = renderToStaticMarkup(createElement(MemoryRouter, null, createElement(renderer, { text })));
  const tree = fromHtml(html, { fragment: true });
  const all = elements(tree);
  const row = all.find((element) => classes(element).includes("pl-reply__media"));
  const inRow = new Set(row ? elements(row) : []);
  const media = [...inRow]
    .filter((element) => element.tagName === "img" || element.tagName === "video")
    .map((element) =>
      element.tagName === "video"
        ? { kind: "video" as const, url: String(element.properties.src) }
        : { kind: "image" as const, url: String(element.properties.src), alt: String(element.properties.alt ?? "") },
    );
  return {
    html,
    tree,
    media,
    links: all.filter((element) => element.tagName === "a" && !inRow.has(element)).map((element) => String(element.properties.href)),
    code: all.filter((element) => element.tagName === "code").map((element) => textOf(element)),
    math: all.filter((element) => element.tagName === "annotation").map((element) => textOf(element)),
    text: textOf(tree, (element) => element === row || classes(element).includes("katex")),
  };
}
