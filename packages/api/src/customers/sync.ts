import {
  type AdapterIO,
  ChannelError,
  type ChannelConfig,
  createOfficialAccountTag,
  createWecomCorpTag,
  deleteOfficialAccountTag,
  deleteWecomCorpTags,
  markWecomTags,
  officialAccountUsers,
  renameOfficialAccountTag,
  renameWecomCorpTag,
  tagOfficialAccountUsers,
  wecomContacts,
} from "@parley/channels";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { rangeCondition } from "../access/range";
import { adapterIO, adapterOf, type ChannelClientRow, fullConfig } from "../channels/adapters";
import { newId } from "../crypto";
import { channelClients, customers, tags } from "../db/schema/index";
import { fail, ServiceError } from "../errors";
import type { Auth, Deps } from "../kernel";

/*
 * Mirroring tags to WeCom (corp customer tags) and the WeChat official account (user tags), and
 * pulling their contacts into customers. Calls are made in the request, before the local write:
 * a refusal is a 502 naming the platform's reason and the local tags and mappings stay as they
 * were (the tag records the failed sync). See README "Customers → Tag sync".
 */

/** A platform tags are mirrored to. */
export type SyncPlatform = "wecom" | "wechat";

type SyncDeps = Pick<Deps, "config" | "db" | "logger" | "now" | "secrets">;
type TagRow = typeof tags.$inferSelect;
type RemoteIds = Record<string, string>;

/** The channel kind whose connections a platform's tags go to. */
export const platformKind: Record<SyncPlatform, string> = { wecom: "wechat-work", wechat: "wechat-official-account" };

interface Connection {
  row: ChannelClientRow;
  config: ChannelConfig;
  io: AdapterIO;
}

function connectionOf(deps: SyncDeps, row: ChannelClientRow): Connection {
  return { row, config: fullConfig(deps, row), io: adapterIO(deps, adapterOf(row.kind)) };
}

/** The space's enabled connections of a platform, oldest first. */
async function connectionsOf(deps: SyncDeps, spaceId: string, platform: SyncPlatform): Promise<Connection[]> {
  const rows = await deps.db
    .select()
    .from(channelClients)
    .where(and(eq(channelClients.spaceId, spaceId), eq(channelClients.kind, platformKind[platform]), eq(channelClients.enabled, true)))
    .orderBy(asc(channelClients.createdAt), asc(channelClients.id));
  return rows.map((row) => connectionOf(deps, row));
}

/** A platform's refusal as the envelope error, or the error itself when it is not the platform's. */
function refused(platform: SyncPlatform, error: unknown): unknown {
  if (!(error instanceof ChannelError)) return error;
  return new ServiceError("external", platform === "wecom" ? "tag_sync_refused_wecom" : "tag_sync_refused_wechat", { reason: error.message });
}

/** The stored remote ids of a tag. */
export function remoteIdsOf(tag: Pick<TagRow, "remoteIds">): RemoteIds {
  try {
    const value: unknown = JSON.parse(tag.remoteIds);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as RemoteIds) : {};
  } catch {
    return {};
  }
}

/** The platform's codes for "no such tag": a tag already gone there counts as deleted. */
const unknownTagCodes = new Set(["40068", "45159"]);

async function deleteOn(platform: SyncPlatform, connection: Connection, remoteId: string): Promise<void> {
  try {
    if (platform === "wecom") await deleteWecomCorpTags(connection.config, connection.io, [remoteId]);
    else await deleteOfficialAccountTag(connection.config, connection.io, Number(remoteId));
  } catch (error) {
    if (error instanceof ChannelError && error.platformCode && unknownTagCodes.has(error.platformCode)) return;
    throw error;
  }
}

/** Deletes what was created in a failed step; its own failures are only logged. */
async function undoCreated(deps: SyncDeps, platform: SyncPlatform, connections: Connection[], created: RemoteIds) {
  for (const connection of connections) {
    const id = created[connection.row.id];
    if (id) await deleteOn(platform, connection, id).catch((error: unknown) => deps.logger.warn("undoing a tag sync failed", { error: String(error) }));
  }
}

/**
 * Makes the tag exist with `name` on every enabled connection of the platform: renames it where
 * it has a remote id, creates it elsewhere. Answers the remote ids. Throws the platform's refusal
 * (tags created by this call are deleted again first). A space with no connection of the platform
 * yet gets no remote ids: the tag is kept as not synced, and syncs when it is next changed.
 */
export async function ensureRemoteTag(
  deps: SyncDeps,
  spaceId: string,
  platform: SyncPlatform,
  tag: { name: string; groupName: string; remoteIds: RemoteIds; rename: boolean },
): Promise<RemoteIds> {
  const connections = await connectionsOf(deps, spaceId, platform);
  const result: RemoteIds = {};
  const created: RemoteIds = {};
  try {
    for (const connection of connections) {
      const id = connection.row.id;
      const existing = tag.remoteIds[id];
      if (existing) {
        if (tag.rename) {
          if (platform === "wecom") await renameWecomCorpTag(connection.config, connection.io, existing, tag.name);
          else await renameOfficialAccountTag(connection.config, connection.io, Number(existing), tag.name);
        }
        result[id] = existing;
      } else {
        created[id] =
          platform === "wecom"
            ? await createWecomCorpTag(connection.config, connection.io, { groupName: tag.groupName, name: tag.name })
            : String(await createOfficialAccountTag(connection.config, connection.io, tag.name));
        result[id] = created[id];
      }
    }
  } catch (error) {
    await undoCreated(deps, platform, connections, created);
    throw refused(platform, error);
  }
  return result;
}

/** Deletes the tag on the platform wherever it has a remote id (a tag already gone there is fine). */
export async function deleteRemoteTag(deps: SyncDeps, spaceId: string, platform: SyncPlatform, remoteIds: RemoteIds): Promise<void> {
  if (!Object.keys(remoteIds).length) return;
  const connections = await connectionsOf(deps, spaceId, platform);
  try {
    for (const connection of connections) {
      const id = remoteIds[connection.row.id];
      if (id) await deleteOn(platform, connection, id);
    }
  } catch (error) {
    throw refused(platform, error);
  }
}

/** Records a sync outcome on mirrored tags that have remote ids: synced now, or failed with the error's message. */
export async function recordSync(deps: Pick<Deps, "db" | "now">, tagIds: string[], outcome: { error?: unknown } = {}) {
  if (!tagIds.length) return;
  const error = outcome.error;
  const message = error === undefined ? null : (error instanceof ServiceError ? String(error.params.reason ?? error.messageId) : String(error)).slice(0, 500);
  await deps.db
    .update(tags)
    .set(message === null ? { syncState: "synced", syncedAt: deps.now().toISOString(), syncError: null } : { syncState: "failed", syncError: message })
    .where(and(inArray(tags.id, tagIds), sql`${tags.syncTarget} != 'none'`, sql`${tags.remoteIds} != '{}'`));
}

/** What one mapping change asks of the platforms. */
export interface TagPush {
  spaceId: string;
  customerIds: string[];
  addTagIds: string[];
  removeTagIds: string[];
}

interface PushStep {
  run: () => Promise<void>;
  undo: () => Promise<void>;
  platform: SyncPlatform;
}

/**
 * Marks (and unmarks) mirrored tags on the customers whose identity is on the tag's platform:
 * WeCom `mark_tag` for customers pulled from a member's contacts (they have a follow user), WeChat
 * `batchtagging`/`batchuntagging` for official account followers. All or nothing: when a call is
 * refused, the calls already made are reversed, the tags record the failure and the refusal is
 * thrown. Answers the mirrored tags touched.
 */
export async function pushTagMapping(deps: SyncDeps, push: TagPush): Promise<string[]> {
  const tagIds = [...push.addTagIds, ...push.removeTagIds];
  if (!tagIds.length || !push.customerIds.length) return [];
  const mirrored = await deps.db
    .select()
    .from(tags)
    .where(and(eq(tags.spaceId, push.spaceId), inArray(tags.id, tagIds), sql`${tags.syncTarget} != 'none'`, sql`${tags.remoteIds} != '{}'`));
  if (!mirrored.length) return [];
  const people = await deps.db
    .select({ id: customers.id, channel: customers.channel, clientId: customers.clientId, externalId: customers.externalId, owner: customers.platformOwner })
    .from(customers)
    .where(and(eq(customers.spaceId, push.spaceId), inArray(customers.id, push.customerIds)));
  const platforms = new Set(mirrored.map((tag) => tag.syncTarget as SyncPlatform));
  const connections = new Map<string, Connection>();
  for (const platform of platforms) for (const connection of await connectionsOf(deps, push.spaceId, platform)) connections.set(connection.row.id, connection);
  const adding = new Set(push.addTagIds);
  const steps: PushStep[] = [];

  // WeCom: one mark_tag per customer, with every mirrored tag of their connection.
  for (const person of people) {
    const connection = connections.get(person.clientId);
    if (!connection || person.channel !== platformKind.wecom || !person.owner) continue;
    const add: string[] = [];
    const remove: string[] = [];
    for (const tag of mirrored) {
      const remote = tag.syncTarget === "wecom" ? remoteIdsOf(tag)[person.clientId] : undefined;
      if (remote) (adding.has(tag.id) ? add : remove).push(remote);
    }
    if (!add.length && !remove.length) continue;
    const target = { userid: person.owner, externalUserid: person.externalId };
    steps.push({
      platform: "wecom",
      run: () => markWecomTags(connection.config, connection.io, { ...target, add, remove }),
      undo: () => markWecomTags(connection.config, connection.io, { ...target, add: remove, remove: add }),
    });
  }
  // WeChat: one batch call per tag and account, for its followers.
  for (const tag of mirrored) {
    if (tag.syncTarget !== "wechat") continue;
    for (const [clientId, remote] of Object.entries(remoteIdsOf(tag))) {
      const connection = connections.get(clientId);
      const openids = people.filter((person) => person.clientId === clientId && person.channel === platformKind.wechat).map((person) => person.externalId);
      if (!connection || !openids.length) continue;
      const untag = !adding.has(tag.id);
      steps.push({
        platform: "wechat",
        run: () => tagOfficialAccountUsers(connection.config, connection.io, Number(remote), openids, untag),
        undo: () => tagOfficialAccountUsers(connection.config, connection.io, Number(remote), openids, !untag),
      });
    }
  }

  const done: PushStep[] = [];
  for (const step of steps) {
    try {
      await step.run();
      done.push(step);
    } catch (error) {
      for (const made of done.reverse())
        await made.undo().catch((undoError: unknown) => deps.logger.warn("undoing a tag push failed", { error: String(undoError) }));
      const thrown = refused(step.platform, error);
      await recordSync(
        deps,
        mirrored.map((tag) => tag.id),
        { error: thrown },
      );
      throw thrown;
    }
  }
  return mirrored.map((tag) => tag.id);
}

/** What a contacts pull did. */
export interface CustomerSyncResult {
  clientId: string;
  platform: SyncPlatform;
  created: number;
  updated: number;
}

/** A contact in the shape customers keep. */
interface PulledContact {
  externalId: string;
  nickname: string;
  avatarUrl: string;
  gender: "" | "male" | "female";
  company: string;
  owner: string;
}

const genderOf = (code: number): PulledContact["gender"] => (code === 1 ? "male" : code === 2 ? "female" : "");

async function* pulled(platform: SyncPlatform, connection: Connection): AsyncGenerator<PulledContact[]> {
  if (platform === "wecom") {
    for await (const page of wecomContacts(connection.config, connection.io)) {
      yield page.map((contact) => ({
        externalId: contact.externalUserid,
        nickname: contact.name,
        avatarUrl: contact.avatar,
        gender: genderOf(contact.gender),
        company: contact.corpName,
        owner: contact.followUserid,
      }));
    }
    return;
  }
  for await (const page of officialAccountUsers(connection.config, connection.io)) {
    yield page.map((user) => ({
      externalId: user.openid,
      nickname: user.nickname,
      avatarUrl: user.avatar,
      gender: genderOf(user.sex),
      company: "",
      owner: "",
    }));
  }
}

/**
 * Pulls the contacts of a WeCom or official account connection the caller reaches and merges
 * them into customers by channel identity (the connection and the person's id there, as a
 * conversation through it does): new people are created, known ones get the platform's name,
 * avatar and owner. Fields a member edited (company, gender, remark…) are only filled when empty.
 */
export async function syncCustomers(deps: SyncDeps, auth: Auth, input: { clientId: string }): Promise<CustomerSyncResult> {
  const row = await deps.db
    .select()
    .from(channelClients)
    .where(and(eq(channelClients.id, input.clientId), eq(channelClients.spaceId, auth.spaceId), rangeCondition(auth, "client", channelClients)))
    .get();
  if (!row) throw fail.invalid("customer_foreign_ids", "clientId", { field: "clientId", id: input.clientId });
  const platform = (Object.keys(platformKind) as SyncPlatform[]).find((key) => platformKind[key] === row.kind);
  if (!platform) throw fail.invalid("customer_sync_kind", "clientId", { kind: row.kind });
  const connection = connectionOf(deps, row);
  let created = 0;
  let updated = 0;
  try {
    for await (const page of pulled(platform, connection)) {
      if (!page.length) continue;
      const known = new Set(
        (
          await deps.db
            .select({ externalId: customers.externalId })
            .from(customers)
            .where(
              and(
                eq(customers.spaceId, row.spaceId),
                eq(customers.clientId, row.id),
                inArray(
                  customers.externalId,
                  page.map((contact) => contact.externalId),
                ),
              ),
            )
        ).map((item) => item.externalId),
      );
      for (const contact of page) {
        await deps.db
          .insert(customers)
          .values({
            id: newId("cus"),
            spaceId: row.spaceId,
            channel: row.kind,
            clientId: row.id,
            externalId: contact.externalId,
            nickname: contact.nickname,
            avatarUrl: contact.avatarUrl,
            gender: contact.gender,
            company: contact.company,
            platformOwner: contact.owner,
          })
          .onConflictDoUpdate({
            target: [customers.spaceId, customers.clientId, customers.externalId],
            set: {
              nickname: sql`case when ${contact.nickname} != '' then ${contact.nickname} else ${customers.nickname} end`,
              avatarUrl: sql`case when ${contact.avatarUrl} != '' then ${contact.avatarUrl} else ${customers.avatarUrl} end`,
              gender: sql`case when ${customers.gender} = '' then ${contact.gender} else ${customers.gender} end`,
              company: sql`case when ${customers.company} = '' then ${contact.company} else ${customers.company} end`,
              platformOwner: sql`case when ${contact.owner} != '' then ${contact.owner} else ${customers.platformOwner} end`,
            },
          });
        if (known.has(contact.externalId)) updated += 1;
        else created += 1;
      }
    }
  } catch (error) {
    const thrown = refused(platform, error);
    if (thrown instanceof ServiceError)
      throw new ServiceError("external", platform === "wecom" ? "customer_sync_refused_wecom" : "customer_sync_refused_wechat", thrown.params);
    throw thrown;
  }
  return { clientId: row.id, platform, created, updated };
}

/** Pulls contacts from one connection (`clientId`) or from every enabled connection of a platform the caller reaches. */
export async function syncContacts(deps: SyncDeps, auth: Auth, input: { clientId?: string | undefined; platform?: SyncPlatform | undefined }) {
  let clientIds: string[];
  if (input.clientId) clientIds = [input.clientId];
  else {
    const rows = await deps.db
      .select({ id: channelClients.id })
      .from(channelClients)
      .where(
        and(
          eq(channelClients.spaceId, auth.spaceId),
          eq(channelClients.kind, platformKind[input.platform ?? "wecom"]),
          eq(channelClients.enabled, true),
          rangeCondition(auth, "client", channelClients),
        ),
      )
      .orderBy(asc(channelClients.createdAt), asc(channelClients.id));
    if (!rows.length) throw fail.conflict("customer_sync_none");
    clientIds = rows.map((row) => row.id);
  }
  const connections: CustomerSyncResult[] = [];
  for (const clientId of clientIds) connections.push(await syncCustomers(deps, auth, { clientId }));
  return {
    created: connections.reduce((sum, item) => sum + item.created, 0),
    updated: connections.reduce((sum, item) => sum + item.updated, 0),
    connections,
  };
}

/**
 * The connections the caller can pull contacts from (enabled WeCom apps and official accounts in
 * their client range), and whether their role may (customers.edit): what the console's "Sync
 * contacts" button needs.
 */
export async function syncSources(deps: Pick<Deps, "db">, auth: Auth) {
  const rows = await deps.db
    .select({ clientId: channelClients.id, name: channelClients.name, kind: channelClients.kind })
    .from(channelClients)
    .where(
      and(
        eq(channelClients.spaceId, auth.spaceId),
        inArray(channelClients.kind, Object.values(platformKind)),
        eq(channelClients.enabled, true),
        rangeCondition(auth, "client", channelClients),
      ),
    )
    .orderBy(asc(channelClients.createdAt), asc(channelClients.id));
  return {
    canSync: !auth.access || auth.access.grants.has("customers.edit"),
    sources: rows.map((row) => ({
      clientId: row.clientId,
      name: row.name,
      platform: (row.kind === platformKind.wecom ? "wecom" : "wechat") as SyncPlatform,
    })),
  };
}
