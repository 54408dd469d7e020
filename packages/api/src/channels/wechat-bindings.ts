import { type AdapterIO, type InboundMessage, type OfficialAccountNotice, sendOfficialAccountNotice } from "@parley/channels";
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import { newId, newNumericCode, sha256 } from "../crypto";
import { channelClients, wechatBindings } from "../db/schema/index";
import { ServiceError } from "../errors";
import type { Auth, Deps } from "../kernel";
import { rangeCondition } from "../access/range";
import { adapterIO, adapterOf, type ChannelClientRow, fullConfig } from "./adapters";
import { messageText } from "../i18n/catalogue";

/** As long as the pipeline remembers deliveries (8 days). */
const DEDUPE_TTL_SECONDS = 8 * 24 * 3600;

const officialAccount = "wechat-official-account";

/** How long a binding code can be sent to the official account. */
export const BINDING_CODE_TTL_SECONDS = 600;
/** Wrong codes one WeChat user may send to one account within a code's lifetime before codes stop being checked. */
const MAX_WRONG_CODES = 10;

/** "BIND 123456" or "绑定 123456" (a colon or no space between also do). */
const bindCommand = /^\s*(BIND|绑定)\s*[:：]?\s*(\d{6})\s*$/i;

/** Codes are stored only as a hash (the key), never as the digits. */
function codeKey(clientId: string, code: string): string {
  return `wechat-binding-code:${clientId}:${sha256(`${clientId}:${code}`)}`;
}

async function loadOfficialAccount(deps: Pick<Deps, "db">, auth: Auth, clientId: string): Promise<ChannelClientRow> {
  const row = await deps.db
    .select()
    .from(channelClients)
    .where(and(eq(channelClients.id, clientId), eq(channelClients.spaceId, auth.spaceId), rangeCondition(auth, "client", channelClients)))
    .get();
  if (!row) throw new ServiceError("not_found", "channel_client_not_found");
  if (row.kind !== officialAccount) throw new ServiceError("validation", "wechat_binding_official_account_only", {}, { field: "id" });
  return row;
}

/**
 * A 6-digit code the member sends to the official account ("BIND 123456") within 10 minutes to
 * bind their WeChat to it. A newer code replaces the member's previous one for that client.
 */
export async function createBindingCode(deps: Pick<Deps, "config" | "db" | "now">, auth: Auth, clientId: string) {
  const row = await loadOfficialAccount(deps, auth, clientId);
  const io = adapterIO(deps, adapterOf(row.kind));
  const value = JSON.stringify({ userId: auth.userId, spaceId: row.spaceId });
  const memberKey = `wechat-binding-member:${row.id}:${auth.userId}`;
  for (;;) {
    const code = newNumericCode(6);
    const key = codeKey(row.id, code);
    // Two members holding the same live code would bind each other's WeChat: draw again.
    if (!(await io.kv.setIfAbsent(key, value, BINDING_CODE_TTL_SECONDS))) continue;
    const previous = await io.kv.get(memberKey);
    if (previous && previous !== key) await io.kv.delete(previous);
    await io.kv.set(memberKey, key, BINDING_CODE_TTL_SECONDS);
    return {
      clientId: row.id,
      code,
      command: `BIND ${code}`,
      expiresAt: new Date(deps.now().getTime() + BINDING_CODE_TTL_SECONDS * 1000).toISOString(),
    };
  }
}

function bindingView(row: typeof wechatBindings.$inferSelect & { clientName: string }) {
  return {
    id: row.id,
    clientId: row.clientId,
    clientName: row.clientName,
    openid: row.openid,
    lastMessageAt: row.lastMessageAt,
    lastNoticeAt: row.lastNoticeAt,
    lastNoticeError: row.lastNoticeError,
    createdAt: row.createdAt,
  };
}

/** The signed-in member's WeChat bindings in the current space. */
export async function listMyBindings(deps: Pick<Deps, "db">, auth: Auth) {
  const rows = await deps.db
    .select({ binding: wechatBindings, clientName: channelClients.name })
    .from(wechatBindings)
    .innerJoin(channelClients, eq(channelClients.id, wechatBindings.clientId))
    .where(and(eq(wechatBindings.spaceId, auth.spaceId), eq(wechatBindings.userId, auth.userId)))
    .orderBy(desc(wechatBindings.createdAt), desc(wechatBindings.id));
  return rows.map((row) => bindingView({ ...row.binding, clientName: row.clientName }));
}

/** Removes one of the signed-in member's bindings (another member's or space's is not found). */
export async function deleteMyBinding(deps: Pick<Deps, "db">, auth: Auth, id: string) {
  const removed = await deps.db
    .delete(wechatBindings)
    .where(and(eq(wechatBindings.id, id), eq(wechatBindings.spaceId, auth.spaceId), eq(wechatBindings.userId, auth.userId)))
    .returning({ id: wechatBindings.id });
  if (!removed.length) throw new ServiceError("not_found", "wechat_binding_not_found");
  return { deleted: true as const };
}

/**
 * Before an official account message becomes a customer message: a bound member's message
 * refreshes their customer-service window, and "BIND <live code>" binds the sender's openid to
 * the member who asked for the code. Answers the reply to give for a binding, `duplicate` for a
 * platform retry of one, and nothing when the message is an ordinary one (wrong and expired
 * codes included).
 */
export async function bindByMessage(
  deps: Pick<Deps, "db" | "logger" | "now">,
  row: ChannelClientRow,
  io: AdapterIO,
  message: InboundMessage,
): Promise<{ reply: string } | "duplicate" | undefined> {
  if (row.kind !== officialAccount || message.conversation.isGroup) return undefined;
  const openid = message.sender.id;
  const now = deps.now().toISOString();
  await deps.db
    .update(wechatBindings)
    .set({ lastMessageAt: now })
    .where(and(eq(wechatBindings.clientId, row.id), eq(wechatBindings.openid, openid)));
  const command = bindCommand.exec(message.text);
  if (!command) return undefined;
  const triesKey = `wechat-binding-tries:${row.id}:${openid}`;
  const tries = Number((await io.kv.get(triesKey)) ?? "0");
  if (tries >= MAX_WRONG_CODES) return undefined;
  const key = codeKey(row.id, command[2]!);
  const stored = await io.kv.get(key);
  if (!stored) {
    await io.kv.set(triesKey, String(tries + 1), BINDING_CODE_TTL_SECONDS);
    return undefined;
  }
  const { userId, spaceId } = JSON.parse(stored) as { userId: string; spaceId: string };
  if (spaceId !== row.spaceId) return undefined;
  // The same dedupe key as a customer message: a retried delivery of this one is dropped.
  if (!(await io.kv.setIfAbsent(`dedupe:${row.id}:${message.dedupeKey}`, "1", DEDUPE_TTL_SECONDS))) return "duplicate";
  await io.kv.delete(key);
  await deps.db
    .insert(wechatBindings)
    .values({ id: newId("wxb"), spaceId, userId, clientId: row.id, openid, lastMessageAt: now, createdAt: now })
    .onConflictDoUpdate({
      target: [wechatBindings.clientId, wechatBindings.openid],
      set: { userId, lastMessageAt: now, lastNoticeAt: null, lastNoticeError: null, createdAt: now },
    });
  deps.logger.info("wechat bound for notices", { clientId: row.id, userId });
  return { reply: messageText(command[1] === "绑定" ? "zh-CN" : "en", "wechat_binding_done") };
}

/**
 * Sends `notice` to every binding of `userIds` in the space (on its enabled official account
 * clients), recording each outcome on the binding. Answers the failures; never throws for one.
 */
export async function sendWechatNotices(
  deps: Pick<Deps, "config" | "db" | "logger" | "now" | "secrets">,
  spaceId: string,
  userIds: readonly string[],
  notice: Omit<OfficialAccountNotice, "at">,
): Promise<string[]> {
  if (!userIds.length) return [];
  const rows = await deps.db
    .select({ binding: wechatBindings, client: channelClients })
    .from(wechatBindings)
    .innerJoin(channelClients, eq(channelClients.id, wechatBindings.clientId))
    .where(and(eq(wechatBindings.spaceId, spaceId), inArray(wechatBindings.userId, [...userIds]), eq(channelClients.enabled, true)))
    .orderBy(asc(wechatBindings.createdAt), asc(wechatBindings.id));
  const failures: string[] = [];
  for (const { binding, client } of rows) {
    const adapter = adapterOf(client.kind);
    let error: string | null = null;
    try {
      await sendOfficialAccountNotice(binding.openid, { ...notice, at: deps.now().getTime() }, fullConfig(deps, client), adapterIO(deps, adapter));
    } catch (caught) {
      error = (caught instanceof Error ? caught.message : String(caught)).slice(0, 500);
      failures.push(`wechat ${binding.id}: ${error}`);
    }
    await deps.db
      .update(wechatBindings)
      .set(error ? { lastNoticeError: error } : { lastNoticeAt: deps.now().toISOString(), lastNoticeError: null })
      .where(eq(wechatBindings.id, binding.id));
  }
  return failures;
}
