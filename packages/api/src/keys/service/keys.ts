import { and, desc, eq } from "drizzle-orm";
import { newId, newSecret, sha256 } from "../../crypto";
import { apiKeys, apps, userKeys, users } from "../../db/schema/index";
import { fail } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import { rangeCondition } from "../../access/range";

const PREFIX_LENGTH = 10;

function keyView(row: typeof apiKeys.$inferSelect) {
  return { id: row.id, name: row.name, prefix: row.prefix, createdAt: row.createdAt, lastUsedAt: row.lastUsedAt };
}

/** The caller's personal API keys (never the key material). */
export async function listApiKeys(deps: Pick<Deps, "db">, auth: Auth) {
  const rows = await deps.db.select().from(apiKeys).where(eq(apiKeys.userId, auth.userId)).orderBy(desc(apiKeys.createdAt));
  return rows.map(keyView);
}

/**
 * Creates a personal API key. The full key is returned once; only its hash is kept.
 * `value` lets the bootstrap create a key with a value chosen by the operator.
 */
export async function createApiKey(deps: Pick<Deps, "db" | "now">, userId: string, input: { name: string; value?: string }) {
  const user = await deps.db.select({ personalSpaceId: users.personalSpaceId }).from(users).where(eq(users.id, userId)).get();
  if (!user) throw fail.notFound("user");
  const key = input.value ?? newSecret("pk");
  const row = {
    id: newId("key"),
    spaceId: user.personalSpaceId,
    userId,
    name: input.name.trim() || "API key",
    prefix: key.slice(0, PREFIX_LENGTH),
    keyHash: sha256(key),
    createdAt: deps.now().toISOString(),
  };
  await deps.db.insert(apiKeys).values(row);
  return { ...keyView({ ...row, lastUsedAt: null }), key };
}

/** Deletes one of the caller's API keys; someone else's key does not exist for them. */
export async function deleteApiKey(deps: Pick<Deps, "db">, auth: Auth, id: string) {
  const removed = await deps.db
    .delete(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, auth.userId)))
    .returning({ id: apiKeys.id });
  if (removed.length === 0) throw fail.notFound("api_key");
  return { deleted: true as const };
}

function userKeyView(row: typeof userKeys.$inferSelect) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    appCode: row.appCode,
    enabled: row.enabled,
    creditLimit: row.creditLimit,
    creditsUsed: row.creditsUsed,
    expiresAt: row.expiresAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    lastUsedAt: row.lastUsedAt,
  };
}

/** User keys of the space the request acts in. */
export async function listUserKeys(deps: Pick<Deps, "db">, auth: Auth) {
  const rows = await deps.db.select().from(userKeys).where(eq(userKeys.spaceId, auth.spaceId)).orderBy(desc(userKeys.createdAt));
  return rows.map(userKeyView);
}

/** Input of a user key; every field optional on update. */
export interface UserKeyInput {
  name: string;
  appCode?: string | null;
  enabled?: boolean;
  creditLimit?: number | null;
  expiresAt?: string | null;
}

function keyName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw fail.invalid("validation_failed", "name", { field: "name", reason: "empty" });
  return trimmed;
}

/**
 * A key may only be bound to an app of its own space in the caller's data range: another space's
 * code, one out of range, or an unknown one, is refused.
 */
async function checkKeyApp(deps: Pick<Deps, "db">, auth: Auth, appCode: string | null | undefined) {
  if (appCode === undefined || appCode === null) return;
  const app = await deps.db
    .select({ id: apps.id })
    .from(apps)
    .where(and(eq(apps.code, appCode), eq(apps.spaceId, auth.spaceId), rangeCondition(auth, "app", apps)))
    .get();
  if (!app) throw fail.invalid("user_key_app_unknown", "appCode", { id: appCode });
}

/** Creates a user key in the current space; the key is shown once. */
export async function createUserKey(deps: Pick<Deps, "db" | "now">, auth: Auth, input: UserKeyInput) {
  const name = keyName(input.name);
  await checkKeyApp(deps, auth, input.appCode);
  const key = newSecret("uk");
  const now = deps.now().toISOString();
  const row = {
    id: newId("ukey"),
    spaceId: auth.spaceId,
    createdBy: auth.userId,
    name,
    prefix: key.slice(0, PREFIX_LENGTH),
    keyHash: sha256(key),
    appCode: input.appCode ?? null,
    enabled: input.enabled ?? true,
    creditLimit: input.creditLimit ?? null,
    expiresAt: input.expiresAt ?? null,
    createdAt: now,
    updatedAt: now,
  };
  await deps.db.insert(userKeys).values(row);
  const stored = await deps.db.select().from(userKeys).where(eq(userKeys.id, row.id)).get();
  return { ...userKeyView(stored!), key };
}

/** Updates a user key of the current space. */
export async function updateUserKey(deps: Pick<Deps, "db" | "now">, auth: Auth, id: string, input: Partial<UserKeyInput>) {
  const name = input.name === undefined ? undefined : keyName(input.name);
  if (input.appCode !== undefined && input.appCode !== null) {
    // A binding already stored is not re-checked (its app may have been deleted since): only a change is.
    const current = await deps.db
      .select({ appCode: userKeys.appCode })
      .from(userKeys)
      .where(and(eq(userKeys.id, id), eq(userKeys.spaceId, auth.spaceId)))
      .get();
    if (current && current.appCode !== input.appCode) await checkKeyApp(deps, auth, input.appCode);
  }
  const updated = await deps.db
    .update(userKeys)
    .set({
      ...(name !== undefined ? { name } : {}),
      ...(input.appCode !== undefined ? { appCode: input.appCode } : {}),
      ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
      ...(input.creditLimit !== undefined ? { creditLimit: input.creditLimit } : {}),
      ...(input.expiresAt !== undefined ? { expiresAt: input.expiresAt } : {}),
      updatedAt: deps.now().toISOString(),
    })
    .where(and(eq(userKeys.id, id), eq(userKeys.spaceId, auth.spaceId)))
    .returning();
  const row = updated[0];
  if (!row) throw fail.notFound("user_key");
  return userKeyView(row);
}

/** Deletes a user key of the current space. */
export async function deleteUserKey(deps: Pick<Deps, "db">, auth: Auth, id: string) {
  const removed = await deps.db
    .delete(userKeys)
    .where(and(eq(userKeys.id, id), eq(userKeys.spaceId, auth.spaceId)))
    .returning({ id: userKeys.id });
  if (removed.length === 0) throw fail.notFound("user_key");
  return { deleted: true as const };
}
