import { and, eq, inArray } from "drizzle-orm";
import { apps, spaceMembers } from "../../db/schema/index";
import { fail } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import type { SecretBox } from "../../platform/secret-box";
import { isMaskedUrl, maskCredentialUrl, openValue, sealValue } from "../../platform/sealed";
import { checkDatabaseBinding } from "./bindings";
import { loadApp, parseJsonArray } from "./load";

/** Humanization (spec §3): how replies are shaped in time. */
export interface Humanization {
  /** Send a long answer as several messages. */
  splitReply: boolean;
  /** Wait for a person's messages to settle and answer them together. */
  mergeReply: boolean;
  /** How long to wait before merging; required when `mergeReply`. */
  mergeDelaySeconds: number | null;
  /** Delay before every reply. */
  delayReplySeconds: number;
}

/** Kinds of chat webhook the handover notice can go to. */
export const webhookKinds = ["dingtalk", "feishu", "wecom"] as const;

/** Reply modes after handover (spec §4): silent, keep replying, or reply after a delay. */
export const manualReplyModes = ["none", "continue", "delayed"] as const;

/** How a handover is triggered. */
export const manualTriggerTypes = ["keyword", "intent"] as const;

/** Manual-service (handover) configuration (spec §3). */
export interface ManualService {
  triggers: { type: (typeof manualTriggerTypes)[number]; content: string }[];
  defaultReply: string | null;
  replyMode: (typeof manualReplyModes)[number];
  /** Required when `replyMode` is `delayed`. */
  delayMinutes: number | null;
  notify: {
    email: boolean;
    sms: boolean;
    wechat: boolean;
    /** The webhook channel; needs at least one webhook when on. */
    webhook: boolean;
    webhooks: { kind: (typeof webhookKinds)[number]; url: string; secret: string }[];
  };
  /** User ids of space members to notify. */
  notifyMemberIds: string[];
  summaryTemplate: { property: string; content: string; description: string }[];
  aiTagging: boolean;
}

/** Database settings of an app; `databaseIds` is the app's bound databases. */
export interface DatabaseSettings {
  enabled: boolean;
  databaseIds: string[];
  /** Writes the model asks for wait for the user's confirmation before they run (default on). */
  confirmWrites: boolean;
}

/** The app's advanced configuration as stored and answered. */
export interface AdvancedConfig {
  humanization: Humanization;
  manualService: ManualService;
  database: DatabaseSettings;
}

/** A handover webhook as answered: the secret is never echoed, only whether one is stored. */
export type AnsweredWebhook = Omit<ManualService["notify"]["webhooks"][number], "secret"> & { secret: ""; secretSet: boolean };

/** The advanced configuration as the API answers it (webhook secrets withheld). */
export interface AdvancedConfigView {
  humanization: Humanization;
  manualService: Omit<ManualService, "notify"> & { notify: Omit<ManualService["notify"], "webhooks"> & { webhooks: AnsweredWebhook[] } };
  database: DatabaseSettings;
}

/** What a client sends: the optional delays may be left out; an empty webhook secret keeps the stored one. */
export interface AdvancedConfigInput {
  humanization: Omit<Humanization, "mergeDelaySeconds"> & { mergeDelaySeconds?: number | null | undefined };
  manualService: Omit<ManualService, "delayMinutes" | "notify"> & {
    delayMinutes?: number | null | undefined;
    notify: Omit<ManualService["notify"], "webhooks"> & { webhooks: Array<ManualService["notify"]["webhooks"][number] & { secretSet?: boolean | undefined }> };
  };
  database: Omit<DatabaseSettings, "confirmWrites"> & { confirmWrites?: boolean | undefined };
}

function mapWebhooks(config: AdvancedConfig, change: (value: string) => string): AdvancedConfig {
  const { notify } = config.manualService;
  return {
    ...config,
    manualService: {
      ...config.manualService,
      notify: { ...notify, webhooks: notify.webhooks.map((webhook) => ({ kind: webhook.kind, url: change(webhook.url), secret: change(webhook.secret) })) },
    },
  };
}

/** The configuration with its webhook URLs and secrets opened, for the server's own use (posting notices). */
export function openAdvancedConfig(box: SecretBox, config: AdvancedConfig): AdvancedConfig {
  return mapWebhooks(config, (value) => openValue(box, value));
}

/** The configuration with its webhook URLs and secrets sealed, for storage (already sealed values stay). */
export function sealAdvancedConfig(box: SecretBox, config: AdvancedConfig): AdvancedConfig {
  return mapWebhooks(config, (value) => sealValue(box, value));
}

/** Withholds the webhook credentials: URLs masked, secrets answered as "" with `secretSet`. */
export function redactAdvancedConfig(box: SecretBox, stored: AdvancedConfig): AdvancedConfigView {
  const config = openAdvancedConfig(box, stored);
  return {
    ...config,
    manualService: {
      ...config.manualService,
      notify: {
        ...config.manualService.notify,
        webhooks: config.manualService.notify.webhooks.map((webhook) => ({
          kind: webhook.kind,
          url: maskCredentialUrl(webhook.url),
          secret: "" as const,
          secretSet: Boolean(webhook.secret),
        })),
      },
    },
  };
}

/**
 * The webhooks to store: a URL sent back masked stands for the stored URL it masks; a webhook sent
 * with an empty secret keeps the secret stored for the same kind and URL (the console sends back
 * what it was answered); a changed URL needs it again. `stored` is opened.
 */
function withStoredSecrets(
  sent: AdvancedConfigInput["manualService"]["notify"]["webhooks"],
  stored: ManualService["notify"]["webhooks"],
): ManualService["notify"]["webhooks"] {
  return sent.map((webhook, index) => {
    let url = webhook.url.trim();
    const kept = stored.find((old) => old.kind === webhook.kind && (old.url === url || maskCredentialUrl(old.url) === url));
    if (kept) url = kept.url;
    else if (isMaskedUrl(url)) throw fail.invalid("webhook_config_required", `manualService.notify.webhooks.${index}.url`);
    const secret = webhook.secret.trim() ? webhook.secret : (stored.find((old) => old.kind === webhook.kind && old.url === url)?.secret ?? "");
    return { kind: webhook.kind, url, secret };
  });
}

/** Advanced configuration of an app that has never saved one. */
export function defaultAdvancedConfig(): AdvancedConfig {
  return {
    humanization: { splitReply: false, mergeReply: false, mergeDelaySeconds: null, delayReplySeconds: 0 },
    manualService: {
      triggers: [],
      defaultReply: null,
      replyMode: "none",
      delayMinutes: null,
      notify: { email: false, sms: false, wechat: false, webhook: false, webhooks: [] },
      notifyMemberIds: [],
      summaryTemplate: [],
      aiTagging: false,
    },
    database: { enabled: false, databaseIds: [], confirmWrites: true },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Reads the stored JSON column, filling anything missing with defaults, so that rows written
 * before a setting existed still parse.
 */
export function parseAdvancedConfig(stored: string, databaseIds: string[]): AdvancedConfig {
  const defaults = defaultAdvancedConfig();
  let raw: unknown;
  try {
    raw = JSON.parse(stored);
  } catch {
    raw = {};
  }
  const value = isRecord(raw) ? raw : {};
  const humanization = isRecord(value.humanization) ? value.humanization : {};
  const manual = isRecord(value.manualService) ? value.manualService : {};
  const notify = isRecord(manual.notify) ? manual.notify : {};
  const database = isRecord(value.database) ? value.database : {};
  return {
    humanization: { ...defaults.humanization, ...humanization } as Humanization,
    manualService: {
      ...defaults.manualService,
      ...manual,
      notify: { ...defaults.manualService.notify, ...notify },
    } as ManualService,
    database: { enabled: database.enabled === true, databaseIds, confirmWrites: database.confirmWrites !== false },
  };
}

/** Checks the rules of spec §5 that the request's shape alone cannot express. */
async function checkAdvancedConfig(deps: Pick<Deps, "db">, spaceId: string, config: AdvancedConfig) {
  const { humanization, manualService } = config;
  if (humanization.mergeReply && !(humanization.mergeDelaySeconds && humanization.mergeDelaySeconds > 0)) {
    throw fail.invalid("merge_reply_needs_delay", "humanization.mergeDelaySeconds");
  }
  if (manualService.replyMode === "delayed" && !(manualService.delayMinutes && manualService.delayMinutes > 0)) {
    throw fail.invalid("delayed_reply_needs_minutes", "manualService.delayMinutes");
  }
  manualService.triggers.forEach((trigger, index) => {
    if (!trigger.content.trim()) throw fail.invalid("manual_trigger_content_required", `manualService.triggers.${index}.content`);
  });
  const { notify } = manualService;
  // WeChat notices need each member bound to the space's official account (template messages);
  // until that binding exists the option is refused rather than silently doing nothing.
  if (notify.webhook && notify.webhooks.length === 0) throw fail.invalid("webhook_config_required", "manualService.notify.webhooks");
  notify.webhooks.forEach((webhook, index) => {
    if (!/^https?:\/\/\S+$/i.test(webhook.url.trim())) throw fail.invalid("webhook_config_required", `manualService.notify.webhooks.${index}.url`);
    if (!webhook.secret.trim()) throw fail.invalid("webhook_config_required", `manualService.notify.webhooks.${index}.secret`);
  });
  manualService.summaryTemplate.forEach((entry, index) => {
    if (!entry.property.trim()) throw fail.invalid("summary_property_required", `manualService.summaryTemplate.${index}.property`);
  });
  const memberIds = [...new Set(manualService.notifyMemberIds)];
  if (memberIds.length > 0) {
    const found = await deps.db
      .select({ userId: spaceMembers.userId })
      .from(spaceMembers)
      .where(and(eq(spaceMembers.spaceId, spaceId), inArray(spaceMembers.userId, memberIds)));
    const known = new Set(found.map((row) => row.userId));
    const index = manualService.notifyMemberIds.findIndex((id) => !known.has(id));
    if (index >= 0) throw fail.invalid("notify_member_unknown", `manualService.notifyMemberIds.${index}`);
  }
}

/** The advanced configuration of an app of the caller's space, webhook credentials withheld. */
export async function getAdvancedConfig(deps: Pick<Deps, "db" | "secrets">, auth: Auth, appId: string): Promise<AdvancedConfigView> {
  const row = await loadApp(deps, auth, appId);
  return redactAdvancedConfig(deps.secrets, parseAdvancedConfig(row.advancedConfig, parseJsonArray(row.databaseIds)));
}

/** Replaces the advanced configuration after checking it; answers what was stored (secrets withheld). */
export async function putAdvancedConfig(
  deps: Pick<Deps, "db" | "now" | "secrets">,
  auth: Auth,
  appId: string,
  input: AdvancedConfigInput,
): Promise<AdvancedConfigView> {
  const row = await loadApp(deps, auth, appId);
  const current = openAdvancedConfig(deps.secrets, parseAdvancedConfig(row.advancedConfig, parseJsonArray(row.databaseIds)));
  const config: AdvancedConfig = {
    humanization: { ...input.humanization, mergeDelaySeconds: input.humanization.mergeDelaySeconds ?? null },
    manualService: {
      ...input.manualService,
      notify: { ...input.manualService.notify, webhooks: withStoredSecrets(input.manualService.notify.webhooks, current.manualService.notify.webhooks) },
      triggers: input.manualService.triggers.map((trigger) => ({ type: trigger.type, content: trigger.content.trim() })),
      defaultReply: input.manualService.defaultReply?.trim() || null,
      delayMinutes: input.manualService.replyMode === "delayed" ? (input.manualService.delayMinutes ?? null) : null,
      notifyMemberIds: [...new Set(input.manualService.notifyMemberIds)],
    },
    database: { enabled: input.database.enabled, databaseIds: [...new Set(input.database.databaseIds)], confirmWrites: input.database.confirmWrites ?? true },
  };
  await checkAdvancedConfig(deps, auth.spaceId, config);
  await checkDatabaseBinding(deps, auth, config.database.databaseIds, current.database.databaseIds);
  const { databaseIds, ...databaseRest } = config.database;
  const sealed = sealAdvancedConfig(deps.secrets, config);
  const stored = { humanization: sealed.humanization, manualService: sealed.manualService, database: databaseRest };
  await deps.db
    .update(apps)
    .set({ advancedConfig: JSON.stringify(stored), databaseIds: JSON.stringify(databaseIds), updatedAt: deps.now().toISOString() })
    .where(and(eq(apps.id, appId), eq(apps.spaceId, auth.spaceId)));
  return getAdvancedConfig(deps, auth, appId);
}
