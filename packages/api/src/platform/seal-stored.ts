import { eq, sql } from "drizzle-orm";
import { parseAdvancedConfig, sealAdvancedConfig } from "../apps/service/advanced-config";
import { apps, knowledgeFeishuAuth, modelProviders, plugins, webClients } from "../db/schema/index";
import type { Deps } from "../kernel";
import { isSealed, sealValue } from "./sealed";

/** How many stored values each kind had sealed by {@link sealStoredSecrets}. */
export interface SealedCounts {
  modelProviders: number;
  plugins: number;
  feishu: number;
  webClients: number;
  apps: number;
}

/**
 * Seals the secrets that databases written before sealing hold in plain text: model provider
 * keys, plugin headers, Feishu app secrets, web client identity secrets and the handover robot
 * webhooks (URL and signing secret) of every app. Values already sealed are left alone, so it
 * runs at every start and does nothing the second time. SQL cannot seal (the key is not in the
 * database), which is why this is code at start-up rather than a migration.
 */
export async function sealStoredSecrets(deps: Pick<Deps, "db" | "secrets">): Promise<SealedCounts> {
  const { db } = deps;
  const counts: SealedCounts = { modelProviders: 0, plugins: 0, feishu: 0, webClients: 0, apps: 0 };
  // The plain values replaced must not linger in freed space of the file: zeroed as they are freed.
  await db.run(sql`PRAGMA secure_delete = ON`);
  try {
    await sealAll(deps, counts);
  } finally {
    await db.run(sql`PRAGMA secure_delete = OFF`);
  }
  // Nor in the write-ahead log: copied into the database and the log emptied.
  if (Object.values(counts).some((n) => n > 0)) await db.run(sql`PRAGMA wal_checkpoint(TRUNCATE)`);
  return counts;
}

async function sealAll(deps: Pick<Deps, "db" | "secrets">, counts: SealedCounts): Promise<void> {
  const { db, secrets } = deps;

  for (const row of await db.select({ id: modelProviders.id, apiKey: modelProviders.apiKey }).from(modelProviders).all()) {
    if (!row.apiKey || isSealed(row.apiKey)) continue;
    await db
      .update(modelProviders)
      .set({ apiKey: sealValue(secrets, row.apiKey) })
      .where(eq(modelProviders.id, row.id));
    counts.modelProviders++;
  }
  for (const row of await db.select({ id: plugins.id, headers: plugins.headers }).from(plugins).all()) {
    if (isSealed(row.headers)) continue;
    await db
      .update(plugins)
      .set({ headers: sealValue(secrets, row.headers) })
      .where(eq(plugins.id, row.id));
    counts.plugins++;
  }
  for (const row of await db.select({ spaceId: knowledgeFeishuAuth.spaceId, appSecret: knowledgeFeishuAuth.appSecret }).from(knowledgeFeishuAuth).all()) {
    if (!row.appSecret || isSealed(row.appSecret)) continue;
    await db
      .update(knowledgeFeishuAuth)
      .set({ appSecret: sealValue(secrets, row.appSecret) })
      .where(eq(knowledgeFeishuAuth.spaceId, row.spaceId));
    counts.feishu++;
  }
  for (const row of await db.select({ id: webClients.id, identitySecret: webClients.identitySecret }).from(webClients).all()) {
    if (!row.identitySecret || isSealed(row.identitySecret)) continue;
    await db
      .update(webClients)
      .set({ identitySecret: sealValue(secrets, row.identitySecret) })
      .where(eq(webClients.id, row.id));
    counts.webClients++;
  }
  for (const row of await db.select({ id: apps.id, advancedConfig: apps.advancedConfig }).from(apps).all()) {
    const config = parseAdvancedConfig(row.advancedConfig, []);
    const webhooks = config.manualService.notify.webhooks;
    if (!Array.isArray(webhooks) || webhooks.every((webhook) => (!webhook.url || isSealed(webhook.url)) && (!webhook.secret || isSealed(webhook.secret))))
      continue;
    // Only the webhooks change: the rest of the stored JSON is written back as it was.
    const stored = JSON.parse(row.advancedConfig) as { manualService: { notify: Record<string, unknown> } };
    stored.manualService.notify.webhooks = sealAdvancedConfig(secrets, config).manualService.notify.webhooks;
    await db
      .update(apps)
      .set({ advancedConfig: JSON.stringify(stored) })
      .where(eq(apps.id, row.id));
    counts.apps++;
  }
}
