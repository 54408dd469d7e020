/** Spec §5's cut and the math sniff: light enough for eager code (the reply's loading fallback). */

/** Spec §5: replies longer than this are cut and end in an ellipsis. */
export const REPLY_MAX_CHARS = 2000;
/** What a cut reply ends in. */
export const ELLIPSIS = "…";

/** Cuts text longer than `max` characters (code points, so emoji stay whole) and adds '…'. */
export function truncateReply(text: string, max: number = REPLY_MAX_CHARS): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  return `${chars.slice(0, max).join("")}${ELLIPSIS}`;
}

/**
 * Whether a reply may hold math (a `$`, a `\(` or `\[` delimiter, or a ```math fence): such a
 * reply is rendered by the renderer that loads KaTeX. A false positive only costs that load.
 */
export function mayHoldMath(text: string): boolean {
  return /\$|\\[([]|^ {0,3}(`{3,}|~{3,})\s*math\b/m.test(text);
}
