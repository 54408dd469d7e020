/**
 * Remark plugins for spec §5's reply rules, on the parsed Markdown tree (code blocks and code
 * spans have no children, so nothing inside code is ever touched).
 */
import type { Link, Nodes, Parent, Root, RootContent } from "mdast";
import type { VFile } from "vfile";
import { isSafeUrl, type MediaLink, mediaKind } from "./urls";

const plainText = (node: Nodes): string => ("value" in node ? node.value : "children" in node ? node.children.map(plainText).join("") : "");

/** Whether a link is a bare URL made into a link (GFM autolink literal or `<…>`): its text is its address. */
const isBareUrl = (link: Link): boolean => plainText(link) === link.url;

const isBlank = (node: RootContent): boolean => node.type === "paragraph" && node.children.every((child) => child.type === "text" && !child.value.trim());

/**
 * Takes image and video links out of the text: Markdown images, links and bare URLs whose path
 * ends in png, jpg, jpeg, webp or gif (a picture) or mp4 (a video), http(s) or site paths only,
 * each URL once, in order of appearance. They are shown after the text, in one media row
 * (`div.pl-reply__media` holding `img[data-media]` and `video[data-media]`).
 */
export function remarkReplyMedia() {
  return (tree: Root) => {
    const media: MediaLink[] = [];
    const seen = new Set<string>();
    const take = (url: string, alt: string): boolean => {
      const kind = mediaKind(url);
      if (!kind || !isSafeUrl(url)) return false;
      if (!seen.has(url)) {
        seen.add(url);
        media.push({ kind, url, alt });
      }
      return true;
    };
    const walk = (parent: Parent) => {
      const before = parent.children.length;
      parent.children = parent.children.filter((child) => {
        if (child.type === "image") return !take(child.url, child.alt ?? "");
        if (child.type === "link") return !take(child.url, isBareUrl(child) ? "" : plainText(child));
        if ("children" in child) walk(child);
        return true;
      }) as typeof parent.children;
      if (parent.children.length === before) return;
      // What is left of the lines whose media went: no blanks at their ends.
      const children = parent.children;
      for (const [index, child] of children.entries()) {
        if (child.type !== "text") continue;
        child.value = child.value.replace(/[ \t]+(?=\n)/g, "");
        if (index === children.length - 1) child.value = child.value.trimEnd();
        if (index === 0) child.value = child.value.trimStart();
      }
    };
    walk(tree);
    tree.children = tree.children.filter((child) => !isBlank(child));
    if (media.length === 0) return;
    const row = {
      type: "replyMedia",
      data: { hName: "div", hProperties: { className: ["pl-reply__media"] } },
      children: media.map((item) => ({
        type: "replyMediaItem",
        data: {
          hName: item.kind === "video" ? "video" : "img",
          hProperties: { src: item.url, ...(item.kind === "image" ? { alt: item.alt } : {}), dataMedia: item.kind },
        },
        children: [],
      })),
    };
    tree.children.push(row as unknown as RootContent);
  };
}

/**
 * `$$…$$` written inside a line (as the normalised `\[ … \]` is) is display math, as it was
 * meant: remark-math reads it as inline math, so its class is switched to the display one that
 * rehype-katex renders in display mode.
 */
export function remarkDisplayMath() {
  return (tree: Root, file: VFile) => {
    const source = String(file.value ?? "");
    const walk = (node: Nodes) => {
      if (node.type === "inlineMath") {
        const start = node.position?.start.offset;
        if (start !== undefined && source.startsWith("$$", start)) {
          node.data = { ...node.data, hProperties: { ...node.data?.hProperties, className: ["language-math", "math-display"] } };
        }
        return;
      }
      if ("children" in node) for (const child of node.children) walk(child);
    };
    walk(tree);
  };
}
