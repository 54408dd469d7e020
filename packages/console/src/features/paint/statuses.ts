import type { TFunction } from "i18next";

/** Spec §8's image statuses, each shown as its own warning. */
export const IMAGE_STATUSES = [401, 406, 410, 461, 503, 511, 561, 599] as const;

/** The warning of an image call's status; another status shows the server's message (or 599's). */
export function imageStatusMessage(t: TFunction, code: number | undefined, fallback?: string): string {
  if (code !== undefined && (IMAGE_STATUSES as readonly number[]).includes(code)) return t(`paint.codes.${code}`);
  return fallback || t("paint.codes.599");
}
