/** A translation key naming what is wrong, or undefined when the value is fine. */
export type RuleResult = string | undefined;

/** Limits the server applies to a web client (mirrored so the form speaks first). */
export const CLIENT_LIMITS = { nameMax: 50, sloganMax: 20, welcomeMax: 500 } as const;

/** Default appearance of a new client. */
export const DEFAULT_COLOR = "#2563eb";

export function checkName(value: string | undefined): RuleResult {
  const name = value?.trim() ?? "";
  if (!name) return "clients.rules.nameRequired";
  if (name.length > CLIENT_LIMITS.nameMax) return "clients.rules.nameTooLong";
  return undefined;
}

/** Counts UTF-16 units, as the server's length check does. */
export function checkSlogan(value: string | undefined): RuleResult {
  return (value ?? "").length > CLIENT_LIMITS.sloganMax ? "clients.rules.sloganTooLong" : undefined;
}

export function checkColor(value: string | undefined): RuleResult {
  return /^#[0-9a-fA-F]{6}$/.test(value ?? "") ? undefined : "clients.rules.colorInvalid";
}

/** True for a bare http(s) origin: scheme, host and optional port, nothing else. */
export function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.origin === value;
  } catch {
    return false;
  }
}

/** The origins typed one per line (blank lines ignored). */
export function parseOrigins(text: string | undefined): string[] {
  return (text ?? "")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

export function checkOrigins(text: string | undefined): RuleResult {
  return parseOrigins(text).every(isOrigin) ? undefined : "clients.rules.originInvalid";
}

/** The script tag a site pastes to show the bubble. */
export function embedSnippet(origin: string, clientId: string): string {
  return `<script src="${origin}/widget.js" data-client-id="${clientId}"></script>`;
}

/** The full-page chat address of a client. */
export function fullPageLink(origin: string, clientId: string): string {
  return `${origin}/web/agent/${encodeURIComponent(clientId)}`;
}

/** An iframe embedding the chat page of a client. */
export function iframeSnippet(origin: string, clientId: string): string {
  return `<iframe src="${origin}/web/iframe/${encodeURIComponent(clientId)}" style="width: 100%; height: 640px; border: 0" allow="clipboard-write"></iframe>`;
}
