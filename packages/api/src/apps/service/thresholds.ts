import { type AlertChannel, getBalanceAlert, storeBalanceAlert } from "../../benefits/service/alerts";
import { fail } from "../../errors";
import type { Auth, Deps } from "../../kernel";

/** Scenes that have a threshold configuration. */
export const thresholdScenes = ["balance-alert"] as const;

/** One of {@link thresholdScenes}. */
export type ThresholdScene = (typeof thresholdScenes)[number];

/** Largest credit balance an alert may watch for. */
export const BALANCE_ALERT_MAX = 1_000_000_000;

/** The balance alert: warn when the space's credit balance falls below `threshold`. */
export interface BalanceAlertConfig {
  enabled: boolean;
  /** Credits; required (spec §5: "balance alarm needs a threshold"). */
  threshold: number;
  notify: { email: boolean; sms: boolean };
}

/** What a scene's configuration may be sent as; the rules decide what is missing. */
export interface BalanceAlertInput {
  enabled?: boolean | undefined;
  threshold?: number | null | undefined;
  notify?: { email?: boolean | undefined; sms?: boolean | undefined } | undefined;
}

/** A scene's configuration as answered: null until someone saves one. */
export interface ThresholdView {
  scene: ThresholdScene;
  config: BalanceAlertConfig | null;
  updatedAt: string | null;
}

function sceneOf(value: string): ThresholdScene {
  if (!(thresholdScenes as readonly string[]).includes(value)) throw fail.invalid("threshold_scene_unknown", "scene", { scene: value });
  return value as ThresholdScene;
}

function checkBalanceAlert(input: BalanceAlertInput): BalanceAlertConfig {
  const threshold = input.threshold;
  if (threshold === undefined || threshold === null) throw fail.invalid("threshold_required", "threshold");
  if (!Number.isInteger(threshold) || threshold < 1 || threshold > BALANCE_ALERT_MAX) {
    throw fail.invalid("app_value_range", "threshold", { field: "threshold", min: 1, max: BALANCE_ALERT_MAX });
  }
  return { enabled: input.enabled ?? true, threshold, notify: { email: input.notify?.email ?? true, sms: input.notify?.sms ?? false } };
}

/**
 * The configuration of one scene in the caller's space. The balance alert is the one the
 * balance watcher fires (`balance_alerts`, also behind `/api/v1/balance-alert`); this route shows
 * it in its older shape.
 */
export async function getThreshold(deps: Pick<Deps, "db">, auth: Auth, sceneName: string): Promise<ThresholdView> {
  const scene = sceneOf(sceneName);
  const alert = await getBalanceAlert(deps, auth);
  if (alert.threshold === null) return { scene, config: null, updatedAt: null };
  return {
    scene,
    config: { enabled: alert.enabled, threshold: alert.threshold, notify: { email: alert.channels.includes("email"), sms: alert.channels.includes("sms") } },
    updatedAt: alert.updatedAt,
  };
}

/** Saves (creates or replaces) the configuration of one scene in the caller's space: the one balance alert. */
export async function putThreshold(deps: Pick<Deps, "db" | "now">, auth: Auth, sceneName: string, input: BalanceAlertInput): Promise<ThresholdView> {
  const scene = sceneOf(sceneName);
  const config = checkBalanceAlert(input);
  // In-app notices always; e-mail and SMS as asked (an SMS goes out once a vendor is configured).
  const channels: AlertChannel[] = ["in-app", ...(config.notify.email ? (["email"] as const) : []), ...(config.notify.sms ? (["sms"] as const) : [])];
  await storeBalanceAlert(deps, auth.spaceId, { threshold: config.threshold, channels, enabled: config.enabled });
  return getThreshold(deps, auth, scene);
}
