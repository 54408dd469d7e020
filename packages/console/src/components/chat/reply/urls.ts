/**
 * URL rules of a rendered reply, kept apart from the Markdown stack so that eager code (an
 * avatar, the reply's loading fallback) can use them without loading it.
 */

export { isSafeUrl } from "../../../lib/safe-url";

const IMAGE_EXTENSIONS: readonly string[] = ["png", "jpg", "jpeg", "webp", "gif"];
const VIDEO_EXTENSIONS: readonly string[] = ["mp4"];

/** A picture or a video taken out of a reply (spec §5). */
export interface MediaLink {
  kind: "image" | "video";
  url: string;
  alt: string;
}

/** Whether a link points inside the console (e.g. the offline answer's API access → Models): followed in place, not in a new tab. */
export function isConsolePath(url: string): boolean {
  return /^\/console(?:[/?#]|$)/.test(url);
}

/** Whether a link points at media, and which kind, by its path's extension. */
export function mediaKind(url: string): MediaLink["kind"] | undefined {
  const path = url.split(/[?#]/)[0] ?? "";
  const dot = path.lastIndexOf(".");
  const extension = dot < 0 ? "" : path.slice(dot + 1).toLowerCase();
  if (IMAGE_EXTENSIONS.includes(extension)) return "image";
  if (VIDEO_EXTENSIONS.includes(extension)) return "video";
  return undefined;
}
