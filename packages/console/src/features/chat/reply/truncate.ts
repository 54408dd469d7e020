/** Spec §5's cut: light enough for eager code (the reply's loading fallback). */

/** Spec §5: replies longer than this are cut and end in an ellipsis. */
export const REPLY_MAX_CHARS = 2000;
/** What a cut reply ends in. */
export const ELLIPSIS = '…';

/** Cuts text longer than `max` characters (code points, so emoji stay whole) and adds '…'. */
export function truncateReply(text: string, max: number = REPLY_MAX_CHARS): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  return `${chars.slice(0, max).join('')}${ELLIPSIS}`;
}
