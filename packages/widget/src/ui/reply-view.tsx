import { h, type ComponentChildren } from "preact";
import type { ReplyNode } from "../core/reply";

/** Turns reply node descriptions into Preact elements (text is always text, never HTML). */
export function renderNodes(nodes: ReplyNode[]): ComponentChildren {
  return nodes.map((node, index) => {
    if (typeof node === "string") return node;
    const children = renderNodes(node.children);
    if (node.tag === "a") return h("a", { key: index, href: node.href, target: "_blank", rel: "noopener noreferrer" }, children);
    if (node.tag === "img") return h("img", { key: index, src: node.href, alt: (node.children[0] as string | undefined) ?? "", loading: "lazy" });
    if (node.tag === "video") return h("video", { key: index, src: node.href, controls: true, preload: "metadata" });
    return h(node.tag, { key: index }, children);
  });
}
