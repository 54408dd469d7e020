import { useLayoutEffect, useRef } from "react";
import { sanitizeHtml } from "../lib/sanitize-html";

/** Props of {@link SafeHtml}. */
export interface SafeHtmlProps {
  /** Untrusted HTML, e.g. a server message with code 440. */
  html: string;
  className?: string;
  "data-testid"?: string;
}

/**
 * Shows untrusted HTML after passing it through the allow-list sanitizer. The raw string
 * never reaches the DOM; only the sanitizer's output is assigned.
 */
export function SafeHtml({ html, className, "data-testid": testId }: SafeHtmlProps) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (ref.current) ref.current.innerHTML = sanitizeHtml(html);
  }, [html]);
  return <div ref={ref} className={className} data-testid={testId} />;
}
