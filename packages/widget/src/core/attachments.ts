/**
 * Files in chat (issue 24), the part the chat chunk always carries: what the file input
 * accepts, how many files a message takes and where a file's bytes are. No Preact, no DOM.
 */

/** The files the input offers (the server checks the bytes; spec §5). */
export const ACCEPT = ".jpg,.jpeg,.png,.txt,.md,.pdf,.docx";

/** The most files one message takes. */
export const MAX_FILES = 10;

/**
 * The address of a file's bytes: the server answers it relative to the API origin, so the
 * widget's API base goes in front; an absolute http(s) address stays, anything else is "".
 */
export function fileUrl(api: string, url: string): string {
  if (/^https?:\/\//i.test(url)) return url;
  return /^\/(?!\/)/.test(url) ? api.replace(/\/+$/, "") + url : "";
}
