import { and, eq } from "drizzle-orm";
import { newId } from "../../crypto";
import { thresholdConfigs } from "../../db/schema/index";
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

/** The configuration of one scene in the caller's space. */
export async function getThreshold(deps: Pick<Deps, "db">, auth: Auth, sceneName: string): Promise<ThresholdView> {
  const scene = sceneOf(sceneName);
  const row = await deps.db
    .select()
    .from(thresholdConfigs)
    .where(and(eq(thresholdConfigs.spaceId, auth.spaceId), eq(thresholdConfigs.scene, scene)))
    .get();
  if (!row) return { scene, config: null, updatedAt: null };
  return { scene, config: JSON.parse(row.config) as BalanceAlertConfig, updatedAt: row.updatedAt };
}

/** Saves (creates or replaces) the configuration of one scene in the caller's space. */
export async function putThreshold(deps: Pick<Deps, "db" | "now">, auth: Auth, sceneName: string, input: BalanceAlertInput): Promise<ThresholdView> {
  const scene = sceneOf(sceneName);
  const config = checkBalanceAlert(input);
  const now = deps.now().toISOString();
  await deps.db
    .insert(thresholdConfigs)
    .values({ id: newId("thr"), spaceId: auth.spaceId, scene, config: JSON.stringify(config), createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: [thresholdConfigs.spaceId, thresholdConfigs.scene], set: { config: JSON.stringify(config), updatedAt: now } });
  return getThreshold(deps, auth, scene);
}
