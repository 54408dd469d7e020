import { and, asc, count, desc, eq, gte, inArray, lt, lte, or, type SQL, sql } from "drizzle-orm";
import { decodeCursor, encodeCursor } from "../db/query-helpers";
import { followsClient } from "../access/follow";
import { getAppForChat } from "../apps/service/index";
import { apps, channelClients, conversations, customers, customerTags, tagGroups, tags, webClients } from "../db/schema/index";
import { fail, ServiceError } from "../errors";
import type { Language } from "../i18n/language";
import { messageText } from "../i18n/catalogue";
import type { Auth, Deps } from "../kernel";
import { latestConversationOf, tagCustomerByAi } from "./ai-tags";
import { pushTagMapping, recordSync } from "./sync";
import { customerKeywordMatch, SELECTIVE_MATCHES } from "./search";

type CustomerRow = typeof customers.$inferSelect;

/** The longest time range a customer filter spans (spec §7 bad input: ten years is refused). */
export const CUSTOMER_RANGE_MAX_DAYS = 366;
/** Customers one export holds at most. */
export const CUSTOMER_EXPORT_MAX = 10_000;

/** Filters of the customers list and its export. */
export interface CustomerFilter {
  tagIds?: string[] | undefined;
  channel?: string | undefined;
  clientId?: string | undefined;
  /** Over the last conversation time: an ISO date (a whole day) or date-time. */
  from?: string | undefined;
  to?: string | undefined;
  keyword?: string | undefined;
}

/** A customer's tag as answered. */
export interface CustomerTagView {
  id: string;
  name: string;
  groupId: string;
  groupName: string;
  source: "manual" | "ai";
}

/** A customer as answered (spec §3 Customer). */
export interface CustomerView {
  id: string;
  nickname: string;
  avatarUrl: string;
  channel: string;
  clientId: string;
  clientName: string;
  company: string;
  wechat: string;
  gender: string;
  remark: string;
  type: string;
  tags: CustomerTagView[];
  createdAt: string;
  lastConversationAt: string | null;
}

const DAY_MS = 86_400_000;
const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

function instant(value: string, field: string, endOfDay: boolean): Date {
  const parsed = new Date(isDay(value) ? `${value}T00:00:00.000Z` : value);
  if (Number.isNaN(parsed.getTime())) throw new ServiceError("validation", "validation_failed", { field, reason: "not a date or date-time" }, { field });
  return isDay(value) && endOfDay ? new Date(parsed.getTime() + DAY_MS) : parsed;
}

/** The time bounds of a filter, checked: `to` not before `from`, and at most {@link CUSTOMER_RANGE_MAX_DAYS} days. */
export function timeBounds(filter: Pick<CustomerFilter, "from" | "to">): { from?: string; to?: string; toExclusive: boolean } {
  const from = filter.from ? instant(filter.from, "from", false) : undefined;
  const to = filter.to ? instant(filter.to, "to", true) : undefined;
  if (from && to) {
    if (to.getTime() < from.getTime()) throw fail.invalid("customer_range_inverted", "to", { field: "to" });
    const span = to.getTime() - from.getTime();
    if (span > CUSTOMER_RANGE_MAX_DAYS * DAY_MS) throw fail.invalid("customer_range_too_long", "to", { field: "to", days: CUSTOMER_RANGE_MAX_DAYS });
  }
  return { ...(from ? { from: from.toISOString() } : {}), ...(to ? { to: to.toISOString() } : {}), toExclusive: Boolean(filter.to && isDay(filter.to)) };
}

/**
 * The conditions of a filter: the space, the caller's data range (customers follow their client)
 * and the filters. A keyword or tag held by few customers is read from its own index (the
 * matches, then sorted); a common one is checked row by row along the list's order index, which
 * fills a page early (see search.ts).
 */
async function conditionsOf(deps: Pick<Deps, "db">, auth: Auth, filter: CustomerFilter): Promise<SQL[]> {
  const conditions: SQL[] = [eq(customers.spaceId, auth.spaceId)];
  const range = followsClient(auth, customers.clientId);
  if (range) conditions.push(range);
  if (filter.channel) conditions.push(eq(customers.channel, filter.channel));
  if (filter.clientId) conditions.push(eq(customers.clientId, filter.clientId));
  const bounds = timeBounds(filter);
  if (bounds.from) conditions.push(gte(customers.lastConversationAt, bounds.from));
  if (bounds.to) conditions.push(bounds.toExclusive ? lt(customers.lastConversationAt, bounds.to) : lte(customers.lastConversationAt, bounds.to));
  const keyword = await customerKeywordMatch(deps, filter.keyword);
  if (keyword) conditions.push(keyword);
  if (filter.tagIds?.length) {
    const tagged = and(eq(customerTags.spaceId, auth.spaceId), inArray(customerTags.tagId, filter.tagIds));
    const [found] = await deps.db.all<{ n: number }>(
      sql`SELECT count(*) AS n FROM (SELECT 1 FROM ${customerTags} WHERE ${tagged} LIMIT ${SELECTIVE_MATCHES + 1})`,
    );
    conditions.push(
      Number(found?.n ?? 0) > SELECTIVE_MATCHES
        ? sql`exists (select 1 from ${customerTags} where ${customerTags.customerId} = ${customers.id} and ${inArray(customerTags.tagId, filter.tagIds)})`
        : inArray(customers.id, deps.db.select({ id: customerTags.customerId }).from(customerTags).where(tagged)),
    );
  }
  return conditions;
}

/** Rows after a cursor in the order last conversation (newest first; SQLite sorts nulls, the never-talked, last in descending order), then id descending. */
function afterCursor(cursor: string): SQL {
  const [at, id] = decodeCursor(cursor);
  if (!at) return and(sql`${customers.lastConversationAt} is null`, lt(customers.id, id))!;
  return or(
    lt(customers.lastConversationAt, at),
    and(eq(customers.lastConversationAt, at), lt(customers.id, id)),
    sql`${customers.lastConversationAt} is null`,
  )!;
}

async function clientNames(deps: Pick<Deps, "db">, spaceId: string): Promise<Map<string, string>> {
  const [web, channel] = await Promise.all([
    deps.db.select({ id: webClients.id, name: webClients.name }).from(webClients).where(eq(webClients.spaceId, spaceId)),
    deps.db.select({ id: channelClients.id, name: channelClients.name }).from(channelClients).where(eq(channelClients.spaceId, spaceId)),
  ]);
  return new Map([...web, ...channel].map((row) => [row.id, row.name]));
}

async function tagsOf(deps: Pick<Deps, "db">, customerIds: string[]): Promise<Map<string, CustomerTagView[]>> {
  const result = new Map<string, CustomerTagView[]>();
  if (customerIds.length === 0) return result;
  // Chunks stay below SQLite's variable limit on exports.
  for (let start = 0; start < customerIds.length; start += 500) {
    const rows = await deps.db
      .select({
        customerId: customerTags.customerId,
        id: tags.id,
        name: tags.name,
        groupId: tags.groupId,
        groupName: tagGroups.name,
        source: customerTags.source,
      })
      .from(customerTags)
      .innerJoin(tags, eq(tags.id, customerTags.tagId))
      .innerJoin(tagGroups, eq(tagGroups.id, tags.groupId))
      .where(inArray(customerTags.customerId, customerIds.slice(start, start + 500)))
      .orderBy(asc(tagGroups.name), asc(tags.name));
    for (const { customerId, ...tag } of rows) {
      const list = result.get(customerId) ?? [];
      list.push(tag);
      result.set(customerId, list);
    }
  }
  return result;
}

function viewOf(row: CustomerRow, names: Map<string, string>, tagMap: Map<string, CustomerTagView[]>): CustomerView {
  return {
    id: row.id,
    nickname: row.nickname,
    avatarUrl: row.avatarUrl,
    channel: row.channel,
    clientId: row.clientId,
    clientName: names.get(row.clientId) ?? "",
    company: row.company,
    wechat: row.wechat,
    gender: row.gender,
    remark: row.remark,
    type: row.type,
    tags: tagMap.get(row.id) ?? [],
    createdAt: row.createdAt,
    lastConversationAt: row.lastConversationAt,
  };
}

/** Customers of the space the caller reaches, latest conversation first, a page at a time. */
export async function listCustomers(deps: Pick<Deps, "db">, auth: Auth, filter: CustomerFilter & { limit: number; cursor?: string | undefined }) {
  const conditions = await conditionsOf(deps, auth, filter);
  if (filter.cursor) conditions.push(afterCursor(filter.cursor));
  const rows = await deps.db
    .select()
    .from(customers)
    .where(and(...conditions))
    .orderBy(desc(customers.lastConversationAt), desc(customers.id))
    .limit(filter.limit + 1);
  const page = rows.slice(0, filter.limit);
  const [names, tagMap] = await Promise.all([
    clientNames(deps, auth.spaceId),
    tagsOf(
      deps,
      page.map((row) => row.id),
    ),
  ]);
  return {
    items: page.map((row) => viewOf(row, names, tagMap)),
    nextCursor: rows.length > filter.limit ? encodeCursor(page.at(-1)!.lastConversationAt, page.at(-1)!.id) : null,
  };
}

async function customerOf(deps: Pick<Deps, "db">, auth: Auth, customerId: string): Promise<CustomerRow> {
  const range = followsClient(auth, customers.clientId);
  const row = await deps.db
    .select()
    .from(customers)
    .where(and(eq(customers.id, customerId), eq(customers.spaceId, auth.spaceId), ...(range ? [range] : [])))
    .get();
  if (!row) throw fail.notFound("customer");
  return row;
}

async function customerView(deps: Pick<Deps, "db">, auth: Auth, row: CustomerRow): Promise<CustomerView> {
  const [names, tagMap] = await Promise.all([clientNames(deps, auth.spaceId), tagsOf(deps, [row.id])]);
  return viewOf(row, names, tagMap);
}

/** One customer with their conversations (sessions), latest first. */
export async function getCustomer(deps: Pick<Deps, "db">, auth: Auth, customerId: string) {
  const row = await customerOf(deps, auth, customerId);
  const sessions = await deps.db
    .select({
      sessionId: conversations.id,
      appId: conversations.appId,
      appName: apps.name,
      clientId: conversations.clientId,
      channel: conversations.channel,
      lastMessage: conversations.lastMessage,
      lastMessageAt: conversations.lastMessageAt,
      serviceMode: conversations.serviceMode,
      tags: conversations.tags,
      createdAt: conversations.createdAt,
    })
    .from(conversations)
    .innerJoin(apps, eq(apps.id, conversations.appId))
    .where(and(eq(conversations.spaceId, auth.spaceId), eq(conversations.customerId, row.id)))
    .orderBy(desc(conversations.lastMessageAt), desc(conversations.id))
    .limit(100);
  return {
    ...(await customerView(deps, auth, row)),
    conversations: sessions.map((session) => ({ ...session, lastMessage: session.lastMessage ?? "", tags: JSON.parse(session.tags) as string[] })),
  };
}

/** The fields a member may change on a customer. */
export interface CustomerPatch {
  nickname?: string | undefined;
  company?: string | undefined;
  wechat?: string | undefined;
  gender?: string | undefined;
  remark?: string | undefined;
  type?: string | undefined;
}

/** Edits a customer's own fields (not their identity on the platform). */
export async function updateCustomer(deps: Pick<Deps, "db">, auth: Auth, customerId: string, patch: CustomerPatch): Promise<CustomerView> {
  const row = await customerOf(deps, auth, customerId);
  const set = Object.fromEntries(
    Object.entries(patch)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => [key, String(value).trim()]),
  );
  if (Object.keys(set).length) await deps.db.update(customers).set(set).where(eq(customers.id, row.id));
  return customerView(deps, auth, (await customerOf(deps, auth, customerId))!);
}

function foreign(field: string, id: string): never {
  throw fail.invalid("customer_foreign_ids", field, { field, id });
}

/**
 * Gives customers tags and takes others away, all or nothing: every customer must be one the
 * caller reaches and every tag one of the space, else a 400 naming the field and nothing is written.
 * Mirrored tags are marked on the platform first (customers whose identity is there); when the
 * platform refuses, nothing is written here and the tags record the failure.
 */
export async function mapTags(
  deps: Pick<Deps, "config" | "db" | "logger" | "now" | "secrets">,
  auth: Auth,
  input: { customerIds: string[]; addTagIds: string[]; removeTagIds: string[] },
) {
  const customerIds = [...new Set(input.customerIds)];
  const addTagIds = [...new Set(input.addTagIds)];
  const removeTagIds = [...new Set(input.removeTagIds)];
  const both = addTagIds.find((id) => removeTagIds.includes(id));
  if (both)
    throw new ServiceError("validation", "validation_failed", { field: "removeTagIds", reason: `${both} is also in addTagIds` }, { field: "removeTagIds" });
  const range = followsClient(auth, customers.clientId);
  const reached = new Set(
    (
      await deps.db
        .select({ id: customers.id })
        .from(customers)
        .where(and(eq(customers.spaceId, auth.spaceId), inArray(customers.id, customerIds), ...(range ? [range] : [])))
    ).map((row) => row.id),
  );
  const missingCustomer = customerIds.find((id) => !reached.has(id));
  if (missingCustomer) foreign("customerIds", missingCustomer);
  const tagIds = [...addTagIds, ...removeTagIds];
  const known = new Set(
    tagIds.length
      ? (
          await deps.db
            .select({ id: tags.id })
            .from(tags)
            .where(and(eq(tags.spaceId, auth.spaceId), inArray(tags.id, tagIds)))
        ).map((row) => row.id)
      : [],
  );
  for (const id of addTagIds) if (!known.has(id)) foreign("addTagIds", id);
  for (const id of removeTagIds) if (!known.has(id)) foreign("removeTagIds", id);

  const pushed = await pushTagMapping(deps, { spaceId: auth.spaceId, customerIds, addTagIds, removeTagIds });
  let added = 0;
  let removed = 0;
  if (addTagIds.length) {
    // One statement, conditional on both sides still being of the space (a concurrent delete inserts nothing).
    const result = await deps.db.run(sql`insert or ignore into ${customerTags} (customer_id, tag_id, space_id, source, created_by)
      select c.id, t.id, ${auth.spaceId}, 'manual', ${auth.userId} from ${customers} c, ${tags} t
      where c.space_id = ${auth.spaceId} and t.space_id = ${auth.spaceId}
      and c.id in (${sql.join(
        customerIds.map((id) => sql`${id}`),
        sql`, `,
      )}) and t.id in (${sql.join(
        addTagIds.map((id) => sql`${id}`),
        sql`, `,
      )})`);
    added = Number((result as { changes?: number; rowsAffected?: number }).changes ?? (result as { rowsAffected?: number }).rowsAffected ?? 0);
  }
  if (removeTagIds.length) {
    const gone = await deps.db
      .delete(customerTags)
      .where(and(eq(customerTags.spaceId, auth.spaceId), inArray(customerTags.customerId, customerIds), inArray(customerTags.tagId, removeTagIds)))
      .returning({ customerId: customerTags.customerId });
    removed = gone.length;
  }
  await recordSync(deps, pushed);
  return { added, removed };
}

/** Lets the model of the customer's latest conversation choose from the space's tags, on demand. */
export async function aiTagCustomer(
  deps: Pick<Deps, "config" | "db" | "logger" | "models" | "now" | "secrets">,
  auth: Auth,
  customerId: string,
  language: Language,
) {
  const row = await customerOf(deps, auth, customerId);
  const conversation = await latestConversationOf(deps, auth.spaceId, row.id);
  if (!conversation) throw fail.conflict("customer_no_conversation");
  const app = await getAppForChat(deps, { appId: conversation.appId, spaceId: auth.spaceId });
  let outcome: Awaited<ReturnType<typeof tagCustomerByAi>>;
  try {
    outcome = await tagCustomerByAi(deps, app, conversation, language);
  } catch (error) {
    throw new ServiceError("external", "customer_ai_failed", { reason: error instanceof Error ? error.message : String(error) });
  }
  if (outcome.kind === "no-tags") throw fail.conflict("customer_no_tags");
  if (outcome.kind === "offline") throw fail.conflict("customer_ai_offline");
  return { chosenTagIds: outcome.tagIds, customer: await customerView(deps, auth, row) };
}

/** The columns of an export, in order. */
const exportColumns = [
  "nickname",
  "company",
  "tags",
  "wechat",
  "gender",
  "remark",
  "type",
  "channel",
  "client",
  "createdAt",
  "lastConversationAt",
  "id",
] as const;

/** Customers matching the filters as a CSV (UTF-8 with BOM) or XLSX file; at most {@link CUSTOMER_EXPORT_MAX}. */
export async function exportCustomers(
  deps: Pick<Deps, "db" | "now">,
  auth: Auth,
  input: { filters: CustomerFilter; format: "csv" | "xlsx" },
  language: Language,
) {
  const conditions = await conditionsOf(deps, auth, input.filters);
  const total = Number(
    (
      await deps.db
        .select({ n: count() })
        .from(customers)
        .where(and(...conditions))
        .get()
    )?.n ?? 0,
  );
  if (total > CUSTOMER_EXPORT_MAX)
    throw new ServiceError("validation", "customer_export_too_many", { count: total, max: CUSTOMER_EXPORT_MAX }, { field: "filters" });
  const rows = await deps.db
    .select()
    .from(customers)
    .where(and(...conditions))
    .orderBy(desc(customers.lastConversationAt), desc(customers.id));
  const [names, tagMap] = await Promise.all([
    clientNames(deps, auth.spaceId),
    tagsOf(
      deps,
      rows.map((row) => row.id),
    ),
  ]);
  const header = exportColumns.map((column) => messageText(language, `customer_column_${column}`));
  const body = rows.map((row) => {
    const view = viewOf(row, names, tagMap);
    return [
      view.nickname,
      view.company,
      view.tags.map((tag) => `${tag.groupName}/${tag.name}`).join("; "),
      view.wechat,
      view.gender,
      view.remark,
      view.type,
      view.channel,
      view.clientName,
      view.createdAt,
      view.lastConversationAt ?? "",
      view.id,
    ];
  });
  const XLSX = await import("@e965/xlsx");
  const stamp = deps.now().toISOString().slice(0, 10);
  if (input.format === "csv") {
    // Cells starting with = + - @ would run as formulas when the CSV is opened in a spreadsheet.
    const safe = body.map((row) => row.map((cell) => (/^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell)));
    const sheet = XLSX.utils.aoa_to_sheet([header, ...safe]);
    return {
      filename: `customers-${stamp}.csv`,
      contentType: "text/csv; charset=utf-8",
      body: new TextEncoder().encode(`\uFEFF${XLSX.utils.sheet_to_csv(sheet, { RS: "\r\n" })}\r\n`),
    };
  }
  // XLSX cells are typed strings, never formulas.
  const sheet = XLSX.utils.aoa_to_sheet([header, ...body]);
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, "Customers");
  return {
    filename: `customers-${stamp}.xlsx`,
    contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    body: new Uint8Array(XLSX.write(book, { type: "buffer", bookType: "xlsx", compression: true }) as Buffer),
  };
}
