import { and, asc, count, eq, ne, sql } from "drizzle-orm";
import { newId } from "../crypto";
import { customerTags, tagGroups, tags, users } from "../db/schema/index";
import { fail } from "../errors";
import type { Auth, Deps } from "../kernel";
import { deleteRemoteTag, ensureRemoteTag, pushTagMapping, recordSync, remoteIdsOf, type SyncPlatform } from "./sync";

type SyncDeps = Pick<Deps, "config" | "db" | "logger" | "now" | "secrets">;

/** Where a tag is mirrored (spec §3 Tag: sync to WeChat Work or WeChat). */
export type SyncTarget = "none" | "wecom" | "wechat";

/** A tag group as answered. */
export interface TagGroupView {
  id: string;
  name: string;
  tagCount: number;
  createdBy: string | null;
  creatorName: string | null;
  createdAt: string;
}

/** A tag as answered. */
export interface TagView {
  id: string;
  name: string;
  description: string;
  groupId: string;
  groupName: string;
  syncTarget: SyncTarget;
  /** The last sync with the platform: `none` (not mirrored), `synced`, or `failed` with `syncError`. */
  syncState: "none" | "synced" | "failed";
  syncedAt: string | null;
  syncError: string | null;
  customerCount: number;
  createdBy: string | null;
  creatorName: string | null;
  createdAt: string;
}

const trimmed = (value: string) => value.trim();

/** Groups of the space by name, with how many tags each holds. */
export async function listTagGroups(deps: Pick<Deps, "db">, auth: Auth): Promise<TagGroupView[]> {
  const rows = await deps.db
    .select({
      id: tagGroups.id,
      name: tagGroups.name,
      createdBy: tagGroups.createdBy,
      creatorName: users.name,
      createdAt: tagGroups.createdAt,
      tagCount: sql<number>`(select count(*) from ${tags} where ${tags.groupId} = ${tagGroups.id})`,
    })
    .from(tagGroups)
    .leftJoin(users, eq(users.id, tagGroups.createdBy))
    .where(eq(tagGroups.spaceId, auth.spaceId))
    .orderBy(asc(tagGroups.name));
  return rows.map((row) => ({ ...row, tagCount: Number(row.tagCount) }));
}

async function groupOf(deps: Pick<Deps, "db">, auth: Auth, groupId: string, field?: string) {
  const row = await deps.db
    .select()
    .from(tagGroups)
    .where(and(eq(tagGroups.id, groupId), eq(tagGroups.spaceId, auth.spaceId)))
    .get();
  if (!row) {
    if (field) throw fail.invalid("customer_foreign_ids", field, { field, id: groupId });
    throw fail.notFound("tagGroup");
  }
  return row;
}

async function groupView(deps: Pick<Deps, "db">, auth: Auth, groupId: string): Promise<TagGroupView> {
  return (await listTagGroups(deps, auth)).find((group) => group.id === groupId)!;
}

async function groupNameFree(deps: Pick<Deps, "db">, auth: Auth, name: string, except?: string) {
  const clash = await deps.db
    .select({ id: tagGroups.id })
    .from(tagGroups)
    .where(and(eq(tagGroups.spaceId, auth.spaceId), eq(tagGroups.name, name), ...(except ? [ne(tagGroups.id, except)] : [])))
    .get();
  if (clash) throw fail.conflict("tag_group_name_taken", { name });
}

/** Creates a tag group; its name is unique in the space. */
export async function createTagGroup(deps: Pick<Deps, "db" | "now">, auth: Auth, input: { name: string }): Promise<TagGroupView> {
  const name = trimmed(input.name);
  if (!name) throw fail.invalid("tag_group_name_required", "name");
  await groupNameFree(deps, auth, name);
  const id = newId("tgg");
  const inserted = await deps.db
    .insert(tagGroups)
    .values({ id, spaceId: auth.spaceId, name, createdBy: auth.userId, updatedAt: deps.now().toISOString() })
    .onConflictDoNothing()
    .returning({ id: tagGroups.id });
  if (inserted.length === 0) throw fail.conflict("tag_group_name_taken", { name });
  return groupView(deps, auth, id);
}

/** Renames a tag group. */
export async function updateTagGroup(deps: Pick<Deps, "db" | "now">, auth: Auth, groupId: string, input: { name?: string | undefined }): Promise<TagGroupView> {
  await groupOf(deps, auth, groupId);
  if (input.name !== undefined) {
    const name = trimmed(input.name);
    if (!name) throw fail.invalid("tag_group_name_required", "name");
    await groupNameFree(deps, auth, name, groupId);
    await deps.db.update(tagGroups).set({ name, updatedAt: deps.now().toISOString() }).where(eq(tagGroups.id, groupId));
  }
  return groupView(deps, auth, groupId);
}

/** Deletes a tag group that holds no tags (a group in use is a 409, and nothing changes). */
export async function deleteTagGroup(deps: Pick<Deps, "db">, auth: Auth, groupId: string): Promise<{ deleted: true }> {
  const group = await groupOf(deps, auth, groupId);
  // One conditional statement: the group goes only while no tag uses it.
  const deleted = await deps.db
    .delete(tagGroups)
    .where(and(eq(tagGroups.id, groupId), sql`not exists (select 1 from ${tags} where ${tags.groupId} = ${groupId})`))
    .returning({ id: tagGroups.id });
  if (deleted.length === 0) {
    const used = await deps.db.select({ n: count() }).from(tags).where(eq(tags.groupId, groupId)).get();
    throw fail.conflict("tag_group_in_use", { name: group.name, count: Number(used?.n ?? 0) });
  }
  return { deleted: true };
}

/** Tags of the space, by group then name; optionally of one group. */
export async function listTags(deps: Pick<Deps, "db">, auth: Auth, filter: { groupId?: string | undefined } = {}): Promise<TagView[]> {
  const rows = await deps.db
    .select({
      id: tags.id,
      name: tags.name,
      description: tags.description,
      groupId: tags.groupId,
      groupName: tagGroups.name,
      syncTarget: tags.syncTarget,
      syncState: tags.syncState,
      syncedAt: tags.syncedAt,
      syncError: tags.syncError,
      createdBy: tags.createdBy,
      creatorName: users.name,
      createdAt: tags.createdAt,
      customerCount: sql<number>`(select count(*) from ${customerTags} where ${customerTags.tagId} = ${tags.id})`,
    })
    .from(tags)
    .innerJoin(tagGroups, eq(tagGroups.id, tags.groupId))
    .leftJoin(users, eq(users.id, tags.createdBy))
    .where(and(eq(tags.spaceId, auth.spaceId), ...(filter.groupId ? [eq(tags.groupId, filter.groupId)] : [])))
    .orderBy(asc(tagGroups.name), asc(tags.name));
  return rows.map((row) => ({ ...row, customerCount: Number(row.customerCount) }));
}

async function tagOf(deps: Pick<Deps, "db">, auth: Auth, tagId: string) {
  const row = await deps.db
    .select()
    .from(tags)
    .where(and(eq(tags.id, tagId), eq(tags.spaceId, auth.spaceId)))
    .get();
  if (!row) throw fail.notFound("customer_tag");
  return row;
}

async function tagView(deps: Pick<Deps, "db">, auth: Auth, tagId: string): Promise<TagView> {
  return (await listTags(deps, auth)).find((tag) => tag.id === tagId)!;
}

async function tagNameFree(deps: Pick<Deps, "db">, groupId: string, name: string, except?: string) {
  const clash = await deps.db
    .select({ id: tags.id })
    .from(tags)
    .where(and(eq(tags.groupId, groupId), eq(tags.name, name), ...(except ? [ne(tags.id, except)] : [])))
    .get();
  if (clash) throw fail.conflict("tag_name_taken", { name });
}

/** What a new tag carries. */
export interface TagInput {
  name: string;
  groupId: string;
  description?: string | undefined;
  syncTarget?: SyncTarget | undefined;
}

/**
 * Creates a tag in one of the space's groups; its name is unique within the group. A mirrored tag
 * is created on the platform first: when the platform refuses, nothing is written here. Without a
 * connection of the platform yet, it is kept as not synced.
 */
export async function createTag(deps: SyncDeps, auth: Auth, input: TagInput): Promise<TagView> {
  const name = trimmed(input.name);
  if (!name) throw fail.invalid("tag_name_required", "name");
  const group = await groupOf(deps, auth, input.groupId, "groupId");
  await tagNameFree(deps, input.groupId, name);
  const syncTarget = input.syncTarget ?? "none";
  const remoteIds =
    syncTarget === "none" ? {} : await ensureRemoteTag(deps, auth.spaceId, syncTarget, { name, groupName: group.name, remoteIds: {}, rename: false });
  const id = newId("tag");
  const inserted = await deps.db
    .insert(tags)
    .values({
      id,
      spaceId: auth.spaceId,
      groupId: input.groupId,
      name,
      description: input.description?.trim() ?? "",
      syncTarget,
      remoteIds: JSON.stringify(remoteIds),
      syncState: Object.keys(remoteIds).length ? "synced" : "none",
      syncedAt: Object.keys(remoteIds).length ? deps.now().toISOString() : null,
      createdBy: auth.userId,
      updatedAt: deps.now().toISOString(),
    })
    .onConflictDoNothing()
    .returning({ id: tags.id });
  if (inserted.length === 0) {
    if (syncTarget !== "none") await deleteRemoteTag(deps, auth.spaceId, syncTarget, remoteIds).catch(() => undefined);
    throw fail.conflict("tag_name_taken", { name });
  }
  return tagView(deps, auth, id);
}

/**
 * Changes a tag: name, description, group or sync target. A mirrored tag changes on the platform
 * first (renamed, created on a new target, deleted from the old one; WeCom cannot move a tag
 * between groups, so a group change re-creates it there and marks its customers again). When
 * the platform refuses, the tag keeps its fields and records the failed sync.
 */
export async function updateTag(deps: SyncDeps, auth: Auth, tagId: string, input: Partial<TagInput>): Promise<TagView> {
  const tag = await tagOf(deps, auth, tagId);
  const name = input.name === undefined ? tag.name : trimmed(input.name);
  if (!name) throw fail.invalid("tag_name_required", "name");
  const groupId = input.groupId ?? tag.groupId;
  const group = await groupOf(deps, auth, groupId, input.groupId !== undefined ? "groupId" : undefined);
  await tagNameFree(deps, groupId, name, tagId);
  const before = tag.syncTarget;
  const after = input.syncTarget ?? before;
  const moved = groupId !== tag.groupId && after === "wecom";
  let remoteIds = before === after && !moved ? remoteIdsOf(tag) : {};
  let remarks = false;
  try {
    if (after !== "none") {
      const rename = name !== tag.name || tag.syncState !== "synced";
      remoteIds = await ensureRemoteTag(deps, auth.spaceId, after, { name, groupName: group.name, remoteIds, rename });
      remarks = before !== after || moved;
    }
    if (before !== "none" && (before !== after || moved)) {
      try {
        await deleteRemoteTag(deps, auth.spaceId, before, remoteIdsOf(tag));
      } catch (error) {
        // The tag stays where it was: what this call created on the new target goes again.
        if (after !== "none") await deleteRemoteTag(deps, auth.spaceId, after, remoteIds).catch(() => undefined);
        throw error;
      }
    }
  } catch (error) {
    if (before !== "none") await recordSync(deps, [tagId], { error });
    throw error;
  }
  await deps.db
    .update(tags)
    .set({
      name,
      groupId,
      ...(input.description !== undefined ? { description: input.description.trim() } : {}),
      syncTarget: after,
      remoteIds: JSON.stringify(remoteIds),
      ...(Object.keys(remoteIds).length
        ? { syncState: "synced" as const, syncedAt: deps.now().toISOString(), syncError: null }
        : { syncState: "none" as const, syncedAt: null, syncError: null }),
      updatedAt: deps.now().toISOString(),
    })
    .where(eq(tags.id, tagId));
  if (remarks) await remarkCustomers(deps, auth.spaceId, tagId);
  return tagView(deps, auth, tagId);
}

/** Marks a tag again on its customers after it moved to a new platform tag (a failure is recorded on the tag, not thrown: the tag itself changed). */
async function remarkCustomers(deps: SyncDeps, spaceId: string, tagId: string) {
  const holders = await deps.db.select({ id: customerTags.customerId }).from(customerTags).where(eq(customerTags.tagId, tagId));
  if (!holders.length) return;
  await pushTagMapping(deps, { spaceId, customerIds: holders.map((row) => row.id), addTagIds: [tagId], removeTagIds: [] }).catch((error: unknown) =>
    deps.logger.warn("marking a moved tag on its customers failed", { tagId, error: String(error) }),
  );
}

/** Deletes a tag; customers lose it. A mirrored tag is deleted on the platform first; when the platform refuses, it stays and records the failure. */
export async function deleteTag(deps: SyncDeps, auth: Auth, tagId: string): Promise<{ deleted: true }> {
  const tag = await tagOf(deps, auth, tagId);
  if (tag.syncTarget !== "none") {
    try {
      await deleteRemoteTag(deps, auth.spaceId, tag.syncTarget as SyncPlatform, remoteIdsOf(tag));
    } catch (error) {
      await recordSync(deps, [tagId], { error });
      throw error;
    }
  }
  await deps.db.delete(tags).where(and(eq(tags.id, tagId), eq(tags.spaceId, auth.spaceId)));
  return { deleted: true };
}
