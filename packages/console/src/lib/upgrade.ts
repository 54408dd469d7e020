/**
 * What a 701 answer names (spec §8: the client handles it without showing the server's text as
 * an error): the quota or the feature refused, its limit and the plan the space runs on. The
 * request layer hands it here; the upgrade dialog shows it.
 */
export interface UpgradeDetail {
  message: string;
  quota?: string;
  feature?: string;
  limit?: number;
  plan?: string;
}

type Listener = (detail: UpgradeDetail) => void;
const listeners = new Set<Listener>();

/** Reads the detail of a 701 answer's `data` (anything unexpected is left out). */
export function upgradeDetailOf(message: string, data: unknown): UpgradeDetail {
  const detail: UpgradeDetail = { message };
  if (typeof data !== "object" || data === null) return detail;
  const { quota, feature, limit, plan } = data as Record<string, unknown>;
  if (typeof quota === "string") detail.quota = quota;
  if (typeof feature === "string") detail.feature = feature;
  if (typeof limit === "number") detail.limit = limit;
  if (typeof plan === "string") detail.plan = plan;
  return detail;
}

/** The upgrade prompt: the request layer raises it, the dialog listens. */
export const upgradePrompt = {
  show(detail: UpgradeDetail): void {
    for (const listener of listeners) listener(detail);
  },
  /** Answers the function that stops listening. */
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/** i18n keys of the dialog's lines for a detail: what was refused, and on which plan. */
export function upgradeTextKeys(detail: UpgradeDetail): { what: string; whatParams: Record<string, unknown>; plan?: string } {
  const plan = detail.plan ? `quota.plans.${detail.plan}` : undefined;
  if (detail.feature) return { what: "upgrade.feature", whatParams: { feature: `quota.features.${detail.feature}` }, ...(plan ? { plan } : {}) };
  if (detail.quota) return { what: "upgrade.quota", whatParams: { quota: `quota.names.${detail.quota}`, limit: detail.limit ?? 0 }, ...(plan ? { plan } : {}) };
  return { what: "upgrade.generic", whatParams: {}, ...(plan ? { plan } : {}) };
}
