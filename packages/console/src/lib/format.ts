/** Formats an ISO timestamp for people, in the interface language; empty input gives ''. */
export function formatDateTime(value: string | null | undefined, language: string): string {
  if (!value) return "";
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" }).format(date);
}
