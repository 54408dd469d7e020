import { randomBytes } from "node:crypto";
import { adapterFor, catalogue, type ChannelAdapter, type ChannelConfig, channelKinds } from "@parley/channels";
import { and, desc, eq } from "drizzle-orm";
import { getAppForChat } from "../apps/service/index";
import { channelClients, spaces, users } from "../db/schema/index";
import { ServiceError } from "../errors";
import type { Auth, Deps } from "../kernel";
import { inRange, rangeCondition } from "../access/range";
import { adapterIO, adapterOf, type ChannelClientRow, fullConfig, openSecrets, parseJson } from "./adapters";
import { sendWechatNotices } from "./wechat-bindings";
import { messageText } from "../i18n/catalogue";
import { withQuota } from "../plans/service/quotas";

/** What an owner may set on a channel client. */
export interface ChannelClientInput {
  appId?: string | undefined;
  name?: string | undefined;
  kind?: string | undefined;
  deployType?: "self-built" | "hosting" | undefined;
  enabled?: boolean | undefined;
  offlineNotify?: "none" | "sms" | "wechat-official-account" | undefined;
  /** Field values by key. A secret field left out keeps its stored value; an empty string clears it. */
  config?: Record<string, string> | undefined;
}

/** `ch_` + 16 url-safe characters: also the path of the client's webhook. */
function newChannelClientId(): string {
  return `ch_${randomBytes(12).toString("base64url")}`;
}

/** Where the platform delivers for this client. */
export function webhookUrl(deps: Pick<Deps, "config">, id: string): string {
  return `${deps.config.publicUrl}/api/v1/channels/${id}/webhook`;
}

/** Required fields still empty, by key. */
function missingFields(adapter: ChannelAdapter, config: ChannelConfig): string[] {
  return adapter.descriptor.fields.filter((field) => field.required && !config[field.key]).map((field) => field.key);
}

/** The owner's view: never a secret value, only which secrets are set. */
export function channelClientView(deps: Pick<Deps, "config" | "logger" | "secrets">, row: ChannelClientRow) {
  const adapter = adapterFor(row.kind);
  const plain = parseJson(row.config);
  const secrets = openSecrets(deps, row);
  const complete = adapter ? missingFields(adapter, { ...plain, ...secrets }).length === 0 : false;
  const failing = Boolean(row.lastErrorAt && (!row.lastActiveAt || row.lastErrorAt > row.lastActiveAt));
  return {
    id: row.id,
    appId: row.appId,
    name: row.name,
    kind: row.kind,
    deployType: row.deployType,
    enabled: row.enabled,
    status: (row.enabled && complete && !failing ? "online" : "offline") as "online" | "offline",
    configured: complete,
    config: plain,
    secretsSet: Object.keys(secrets).filter((key) => secrets[key]),
    offlineNotify: row.offlineNotify,
    webhookUrl: webhookUrl(deps, row.id),
    lastActiveAt: row.lastActiveAt,
    lastError: failing ? row.lastError : null,
    lastErrorAt: row.lastErrorAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Splits submitted values into plain and secret ones, checking each against the form. */
function applyConfig(adapter: ChannelAdapter, current: { plain: Record<string, string>; secrets: Record<string, string> }, submitted: Record<string, string>) {
  const plain = { ...current.plain };
  const secrets = { ...current.secrets };
  const fields = new Map(adapter.descriptor.fields.map((field) => [field.key, field]));
  for (const [key, raw] of Object.entries(submitted)) {
    const field = fields.get(key);
    if (!field) throw new ServiceError("validation", "channel_config_field_unknown", { field: key }, { field: `config.${key}` });
    const value = raw.trim();
    if (value.length > 4000) throw new ServiceError("validation", "channel_config_invalid", { field: key }, { field: `config.${key}` });
    if (value && field.options && !field.options.some((option) => option.value === value)) {
      throw new ServiceError("validation", "channel_config_invalid", { field: key }, { field: `config.${key}` });
    }
    if (value && field.pattern && !new RegExp(field.pattern).test(value)) {
      throw new ServiceError("validation", "channel_config_invalid", { field: key }, { field: `config.${key}` });
    }
    const target = field.secret ? secrets : plain;
    if (value) target[key] = value;
    else delete target[key];
  }
  for (const field of adapter.descriptor.fields) {
    if (!field.secret && plain[field.key] === undefined && field.default !== undefined) plain[field.key] = field.default;
  }
  return { plain, secrets };
}

/** The app a client answers with: an app of the caller's space in their data range (400 naming `appId` otherwise). */
async function checkApp(deps: Pick<Deps, "db" | "secrets">, auth: Auth, appId: string) {
  const app = await getAppForChat(deps, { appId, spaceId: auth.spaceId }).catch(() => undefined);
  if (!app || !inRange(auth, "app", app)) throw new ServiceError("validation", "not_found", { what: "app" }, { field: "appId" });
}

async function loadOwned(deps: Pick<Deps, "db">, auth: Auth, id: string): Promise<ChannelClientRow> {
  const row = await deps.db
    .select()
    .from(channelClients)
    .where(and(eq(channelClients.id, id), eq(channelClients.spaceId, auth.spaceId), rangeCondition(auth, "client", channelClients)))
    .get();
  if (!row) throw new ServiceError("not_found", "channel_client_not_found");
  return row;
}

/** The channels that can be connected, with their forms (names and labels in both languages). */
export function channelCatalogue() {
  return catalogue().map((descriptor) => ({
    kind: descriptor.kind,
    name: descriptor.name,
    fields: descriptor.fields.map((field) => ({
      key: field.key,
      label: field.label,
      ...(field.help ? { help: field.help } : {}),
      secret: field.secret,
      required: field.required,
      ...(field.options ? { options: field.options } : {}),
      ...(field.default !== undefined ? { default: field.default } : {}),
      ...(field.pattern ? { pattern: field.pattern } : {}),
    })),
    capabilities: adapterFor(descriptor.kind)!.capabilities,
  }));
}

export async function listChannelClients(deps: Pick<Deps, "config" | "db" | "logger" | "secrets">, auth: Auth) {
  const rows = await deps.db
    .select()
    .from(channelClients)
    .where(and(eq(channelClients.spaceId, auth.spaceId), rangeCondition(auth, "client", channelClients)))
    .orderBy(desc(channelClients.createdAt), desc(channelClients.id));
  return rows.map((row) => channelClientView(deps, row));
}

export async function getChannelClient(deps: Pick<Deps, "config" | "db" | "logger" | "secrets">, auth: Auth, id: string) {
  return channelClientView(deps, await loadOwned(deps, auth, id));
}

export async function createChannelClient(
  deps: Pick<Deps, "config" | "db" | "logger" | "now" | "secrets">,
  auth: Auth,
  input: ChannelClientInput & { appId: string; name: string; kind: string },
) {
  const adapter = adapterOf(input.kind);
  await checkApp(deps, auth, input.appId);
  const { plain, secrets } = applyConfig(adapter, { plain: {}, secrets: {} }, input.config ?? {});
  const now = deps.now().toISOString();
  const [row] = await withQuota(deps, auth.spaceId, { clients: 1 }, async () =>
    deps.db
      .insert(channelClients)
      .values({
        id: newChannelClientId(),
        spaceId: auth.spaceId,
        appId: input.appId,
        name: input.name,
        kind: adapter.kind,
        deployType: input.deployType ?? "self-built",
        enabled: input.enabled ?? true,
        config: JSON.stringify(plain),
        secrets: Object.keys(secrets).length ? deps.secrets.seal(JSON.stringify(secrets)) : "",
        offlineNotify: input.offlineNotify ?? "none",
        createdBy: auth.userId,
        createdAt: now,
        updatedAt: now,
      })
      .returning(),
  );
  return channelClientView(deps, row!);
}

export async function updateChannelClient(deps: Pick<Deps, "config" | "db" | "logger" | "now" | "secrets">, auth: Auth, id: string, input: ChannelClientInput) {
  const row = await loadOwned(deps, auth, id);
  if (input.kind !== undefined && input.kind !== row.kind) throw new ServiceError("validation", "channel_kind_fixed", {}, { field: "kind" });
  if (input.appId !== undefined) await checkApp(deps, auth, input.appId);
  const adapter = adapterOf(row.kind);
  const { plain, secrets } = applyConfig(adapter, { plain: parseJson(row.config), secrets: openSecrets(deps, row) }, input.config ?? {});
  const [updated] = await deps.db
    .update(channelClients)
    .set({
      ...(input.appId !== undefined ? { appId: input.appId } : {}),
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.deployType !== undefined ? { deployType: input.deployType } : {}),
      ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
      ...(input.offlineNotify !== undefined ? { offlineNotify: input.offlineNotify } : {}),
      config: JSON.stringify(plain),
      secrets: Object.keys(secrets).length ? deps.secrets.seal(JSON.stringify(secrets)) : "",
      // New credentials deserve a fresh start: an old failure no longer describes them.
      ...(input.config && Object.keys(input.config).length > 0 ? { lastError: null, lastErrorAt: null } : {}),
      updatedAt: deps.now().toISOString(),
    })
    .where(eq(channelClients.id, row.id))
    .returning();
  return channelClientView(deps, updated!);
}

export async function deleteChannelClient(deps: Pick<Deps, "db">, auth: Auth, id: string) {
  const row = await loadOwned(deps, auth, id);
  await deps.db.delete(channelClients).where(eq(channelClients.id, row.id));
  return { deleted: true as const };
}

/** Records the outcome of an exchange with the platform (drives online/offline). */
export async function markClient(
  deps: Pick<Deps, "config" | "db" | "logger" | "now" | "secrets" | "sms">,
  id: string,
  outcome: { ok: true } | { ok: false; error: string },
) {
  const now = deps.now().toISOString();
  const before = outcome.ok ? undefined : await deps.db.select().from(channelClients).where(eq(channelClients.id, id)).get();
  await deps.db
    .update(channelClients)
    .set(outcome.ok ? { lastActiveAt: now } : { lastError: outcome.error.slice(0, 500), lastErrorAt: now })
    .where(eq(channelClients.id, id));
  // Going from working to failing is what the owner asked to hear about, once per outage.
  const wasOnline = before?.enabled && (!before.lastErrorAt || (before.lastActiveAt !== null && before.lastErrorAt <= before.lastActiveAt));
  if (before && wasOnline && !outcome.ok && before.offlineNotify !== "none") {
    void notifyOffline(deps, before, outcome.error).catch((error: unknown) =>
      deps.logger.warn("offline notice failed", { clientId: id, error: String(error) }),
    );
  }
}

/**
 * Tells the space owner that a client stopped working: by SMS (template `client-offline`), or by
 * WeChat to every binding the owner has on the space's official account clients.
 */
async function notifyOffline(deps: Pick<Deps, "config" | "db" | "logger" | "now" | "secrets" | "sms">, row: ChannelClientRow, reason: string) {
  const owner = await deps.db
    .select({ id: users.id, phone: users.phone, language: users.language })
    .from(spaces)
    .innerJoin(users, eq(users.id, spaces.ownerUserId))
    .where(eq(spaces.id, row.spaceId))
    .get();
  if (!owner) return;
  const language = owner.language === "zh-CN" ? "zh-CN" : "en";
  if (row.offlineNotify === "wechat-official-account") {
    const failures = await sendWechatNotices(deps, row.spaceId, [owner.id], {
      title: messageText(language, "channel_client_offline_title", { client: row.name }),
      subject: row.name,
      text: reason.slice(0, 200),
      url: `${deps.config.publicUrl}/console/clients/config?id=${encodeURIComponent(row.id)}`,
    });
    if (failures.length) deps.logger.warn("offline notice by WeChat failed", { clientId: row.id, failures });
    return;
  }
  if (!owner.phone || !deps.sms) return;
  await deps.sms.send({
    phone: owner.phone,
    template: "client-offline",
    params: { client: row.name.slice(0, 20) },
    text: messageText(language, "channel_client_offline_notice", { client: row.name, reason: reason.slice(0, 120) }),
  });
}

/**
 * Checks the stored credentials with the platform and, where the platform is told its webhook by
 * API (Telegram), registers it. Answers the client as it is afterwards.
 */
export async function checkChannelClient(deps: Pick<Deps, "config" | "db" | "logger" | "now" | "secrets" | "sms">, auth: Auth, id: string) {
  const row = await loadOwned(deps, auth, id);
  const adapter = adapterOf(row.kind);
  const config = fullConfig(deps, row);
  const missing = missingFields(adapter, config);
  if (missing.length) throw new ServiceError("validation", "channel_config_missing", { fields: missing.join(", ") }, { field: `config.${missing[0]}` });
  const io = adapterIO(deps, adapter);
  try {
    await adapter.probe?.(config, io);
    await adapter.register?.(webhookUrl(deps, row.id), config, io);
    await markClient(deps, row.id, { ok: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await markClient(deps, row.id, { ok: false, error: message });
    throw new ServiceError("external", "channel_check_failed", { reason: message.slice(0, 200) });
  }
  return getChannelClient(deps, auth, id);
}

/** Every kind the API knows, for schemas. */
export const knownKinds = channelKinds;
