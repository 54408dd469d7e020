import { withAttachments } from "../chat/files/service";
import { appVoiceServed } from "../voice/service/voice";
import { createHmac, randomBytes } from "node:crypto";
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import { getAppForChat } from "../apps/service/index";
import { parseOpening } from "../chat/service/opening";
import { newId, safeEqual, sha256 } from "../crypto";
import { conversations, customers, messages, webClients, webClientSessions } from "../db/schema/index";
import { ServiceError } from "../errors";
import type { Auth, Deps } from "../kernel";
import { inRange, rangeCondition } from "../access/range";
import type { Language } from "../i18n/language";
import { openValue, sealValue } from "../platform/sealed";
import { checkFeature, withQuota } from "../plans/service/quotas";

type ClientRow = typeof webClients.$inferSelect;

/** A client is online when it was active within this many minutes. */
export const ONLINE_WINDOW_MINUTES = 5;
/** The conversation channel of every web-embed session. */
export const WEB_EMBED_CHANNEL = "web-embed";

/** Settings an owner may give a web client. */
export interface WebClientInput {
  appId?: string | undefined;
  name?: string | undefined;
  avatarUrl?: string | undefined;
  welcome?: string | undefined;
  slogan?: string | undefined;
  position?: "left" | "right" | undefined;
  primaryColor?: string | undefined;
  allowedOrigins?: string[] | undefined;
  manualTransfer?: boolean | undefined;
  enabled?: boolean | undefined;
}

/** A short url-safe client id (12 characters, 72 random bits). */
export function newClientId(): string {
  return randomBytes(9).toString("base64url");
}

function newIdentitySecret(): string {
  return `wcs_${randomBytes(32).toString("base64url")}`;
}

function parseOrigins(stored: string): string[] {
  try {
    const value: unknown = JSON.parse(stored);
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
  } catch {
    return [];
  }
}

/** The owner's view of a client: never the identity secret. */
export function clientView(deps: Pick<Deps, "now">, row: ClientRow) {
  const onlineSince = deps.now().getTime() - ONLINE_WINDOW_MINUTES * 60_000;
  return {
    id: row.id,
    appId: row.appId,
    name: row.name,
    avatarUrl: row.avatarUrl,
    welcome: row.welcome,
    slogan: row.slogan,
    position: row.position,
    primaryColor: row.primaryColor,
    allowedOrigins: parseOrigins(row.allowedOrigins),
    manualTransfer: row.manualTransfer,
    enabled: row.enabled,
    status: (row.lastActiveAt && Date.parse(row.lastActiveAt) >= onlineSince ? "online" : "offline") as "online" | "offline",
    lastActiveAt: row.lastActiveAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** The app a client answers with: an app of the caller's space in their data range (400 naming `appId` otherwise). */
async function checkApp(deps: Pick<Deps, "db" | "secrets">, auth: Auth, appId: string) {
  const app = await getAppForChat(deps, { appId, spaceId: auth.spaceId }).catch(() => undefined);
  if (!app || !inRange(auth, "app", app)) throw new ServiceError("validation", "not_found", { what: "app" }, { field: "appId" });
}

async function loadOwned(deps: Pick<Deps, "db">, auth: Auth, id: string): Promise<ClientRow> {
  const row = await deps.db
    .select()
    .from(webClients)
    .where(and(eq(webClients.id, id), eq(webClients.spaceId, auth.spaceId), rangeCondition(auth, "client", webClients)))
    .get();
  if (!row) throw new ServiceError("not_found", "web_client_not_found");
  return row;
}

/** Inserts a client row; used by the API and by the first-start seeding. */
export async function insertClient(
  deps: Pick<Deps, "db" | "now" | "secrets">,
  input: WebClientInput & { id?: string; spaceId: string; appId: string; name: string; createdBy?: string | null },
): Promise<{ row: ClientRow; identitySecret: string }> {
  const now = deps.now().toISOString();
  const identitySecret = newIdentitySecret();
  const values = {
    id: input.id ?? newClientId(),
    spaceId: input.spaceId,
    appId: input.appId,
    name: input.name,
    avatarUrl: input.avatarUrl ?? "",
    welcome: input.welcome ?? "",
    slogan: input.slogan ?? "",
    position: input.position ?? "right",
    primaryColor: input.primaryColor ?? "#2563eb",
    allowedOrigins: JSON.stringify(input.allowedOrigins ?? []),
    manualTransfer: input.manualTransfer ?? false,
    enabled: input.enabled ?? true,
    identitySecret: sealValue(deps.secrets, identitySecret),
    lastActiveAt: null,
    createdBy: input.createdBy ?? null,
    createdAt: now,
    updatedAt: now,
  };
  const [row] = await deps.db.insert(webClients).values(values).returning();
  return { row: row!, identitySecret };
}

export async function listClients(deps: Pick<Deps, "db" | "now">, auth: Auth) {
  const rows = await deps.db
    .select()
    .from(webClients)
    .where(and(eq(webClients.spaceId, auth.spaceId), rangeCondition(auth, "client", webClients)))
    .orderBy(desc(webClients.createdAt), desc(webClients.id));
  return rows.map((row) => clientView(deps, row));
}

export async function createClient(deps: Pick<Deps, "db" | "now" | "secrets">, auth: Auth, input: WebClientInput & { appId: string; name: string }) {
  await checkApp(deps, auth, input.appId);
  if (input.manualTransfer) await checkFeature(deps, auth.spaceId, "manualTransfer");
  const { row, identitySecret } = await withQuota(deps, auth.spaceId, { clients: 1 }, () =>
    insertClient(deps, { ...input, spaceId: auth.spaceId, createdBy: auth.userId }),
  );
  return { ...clientView(deps, row), identitySecret };
}

export async function getClient(deps: Pick<Deps, "db" | "now">, auth: Auth, id: string) {
  return clientView(deps, await loadOwned(deps, auth, id));
}

export async function updateClient(deps: Pick<Deps, "db" | "now" | "secrets">, auth: Auth, id: string, input: WebClientInput) {
  const current = await loadOwned(deps, auth, id);
  // Turning manual transfer on needs the plan; one already on stays editable after a downgrade.
  if (input.manualTransfer && !current.manualTransfer) await checkFeature(deps, auth.spaceId, "manualTransfer");
  if (input.appId !== undefined) await checkApp(deps, auth, input.appId);
  const changes = Object.fromEntries(
    Object.entries({ ...input, allowedOrigins: input.allowedOrigins === undefined ? undefined : JSON.stringify(input.allowedOrigins) }).filter(
      ([, value]) => value !== undefined,
    ),
  );
  const [row] = await deps.db
    .update(webClients)
    .set({ ...changes, updatedAt: deps.now().toISOString() })
    .where(and(eq(webClients.id, id), eq(webClients.spaceId, auth.spaceId)))
    .returning();
  if (!row) throw new ServiceError("not_found", "web_client_not_found");
  return clientView(deps, row);
}

export async function deleteClient(deps: Pick<Deps, "db">, auth: Auth, id: string) {
  await loadOwned(deps, auth, id);
  await deps.db.delete(webClients).where(and(eq(webClients.id, id), eq(webClients.spaceId, auth.spaceId)));
  return { deleted: true as const };
}

export async function rotateSecret(deps: Pick<Deps, "db" | "now" | "secrets">, auth: Auth, id: string) {
  await loadOwned(deps, auth, id);
  const identitySecret = newIdentitySecret();
  const [row] = await deps.db
    .update(webClients)
    .set({ identitySecret: sealValue(deps.secrets, identitySecret), updatedAt: deps.now().toISOString() })
    .where(and(eq(webClients.id, id), eq(webClients.spaceId, auth.spaceId)))
    .returning();
  return { ...clientView(deps, row!), identitySecret };
}

// ---------------------------------------------------------------------------------------------
// Visitors

/**
 * The client a visitor talks to. Unknown → 404, disabled → 403, a browser Origin outside the
 * allowed list → 403. Requests without an Origin (same-origin GETs, servers) and the instance's
 * own origin (its /web pages) pass the origin check.
 */
export async function clientForVisitor(deps: Pick<Deps, "config" | "db">, clientId: string, origin: string | undefined): Promise<ClientRow> {
  const row = await deps.db.select().from(webClients).where(eq(webClients.id, clientId)).get();
  if (!row) throw new ServiceError("not_found", "web_client_not_found");
  if (!row.enabled) throw new ServiceError("forbidden", "web_client_disabled");
  const allowed = parseOrigins(row.allowedOrigins);
  if (origin && allowed.length > 0 && !allowed.includes(origin) && origin !== ownOrigin(deps)) {
    throw new ServiceError("forbidden", "origin_not_allowed");
  }
  return row;
}

/**
 * The id and name a client's full-page and iframe chat pages show, or undefined when no client
 * has this id (also for ids too long to be one). The page itself checks nothing more: the
 * widget it loads asks {@link clientForVisitor}.
 */
export async function clientForPage(deps: Pick<Deps, "db">, clientId: string): Promise<{ id: string; name: string } | undefined> {
  if (clientId.length > 64) return undefined;
  return deps.db.select({ id: webClients.id, name: webClients.name }).from(webClients).where(eq(webClients.id, clientId)).get();
}

function ownOrigin(deps: Pick<Deps, "config">): string | undefined {
  try {
    return new URL(deps.config.publicUrl).origin;
  } catch {
    return undefined;
  }
}

/** What the widget needs to draw itself. */
export async function widgetConfig(deps: Pick<Deps, "db" | "models" | "secrets">, row: ClientRow) {
  const app = await getAppForChat(deps, { appId: row.appId });
  await deps.models.ready();
  const opening = parseOpening(app.openingIntroduction);
  return {
    clientId: row.id,
    name: row.name,
    avatarUrl: row.avatarUrl,
    welcome: row.welcome,
    slogan: row.slogan,
    position: row.position,
    primaryColor: row.primaryColor,
    manualTransfer: row.manualTransfer,
    appName: app.name,
    openingIntroduction: opening.text,
    guidingQuestions: opening.guidingQuestions,
    speechInput: deps.models.transcriptionModels().length > 0,
    voice: appVoiceServed({ models: deps.models }, app),
  };
}

async function touch(deps: Pick<Deps, "db" | "now">, clientId: string) {
  await deps.db.update(webClients).set({ lastActiveAt: deps.now().toISOString() }).where(eq(webClients.id, clientId));
}

/** hex HMAC-SHA256(secret, userId). */
export function identityHash(secret: string, userId: string): string {
  return createHmac("sha256", secret).update(userId).digest("hex");
}

const endUserOf = (clientId: string, visitorId: string, userId: string | null) =>
  userId ? `web:${clientId}:user:${userId}` : `web:${clientId}:visitor:${visitorId}`;

/** Starts a visitor session: a new conversation with the client's app and a bearer token for it. */
export async function createSession(
  deps: Pick<Deps, "db" | "now" | "secrets">,
  row: ClientRow,
  input: { visitorId?: string | undefined; language?: Language | undefined; identity?: { userId: string; hash: string } | undefined },
) {
  let userId: string | null = null;
  if (input.identity) {
    // A secret that no longer opens (another instance key) must not become an empty HMAC key anyone can use.
    const secret = openValue(deps.secrets, row.identitySecret);
    if (!secret || !safeEqual(identityHash(secret, input.identity.userId), input.identity.hash.toLowerCase()))
      throw new ServiceError("unauthenticated", "identity_invalid");
    userId = input.identity.userId;
  }
  const visitorId = input.visitorId ?? `v_${randomBytes(12).toString("base64url")}`;
  const app = await getAppForChat(deps, { appId: row.appId });
  const now = deps.now().toISOString();
  const conversationId = newId("conv");
  await deps.db.insert(conversations).values({
    id: conversationId,
    spaceId: app.spaceId,
    appId: app.id,
    endUserId: endUserOf(row.id, visitorId, userId),
    channel: WEB_EMBED_CHANNEL,
    title: null,
    // Inbox fields: the session shows under this client, named after the verified user or the visitor.
    clientId: row.id,
    externalConversationId: visitorId,
    customerId: await webCustomer(deps, row, userId ?? visitorId, now),
    senderName: userId ?? `Visitor ${visitorId.slice(-6)}`,
    createdAt: now,
    updatedAt: now,
  });
  const visitorToken = `wvt_${randomBytes(32).toString("base64url")}`;
  const sessionId = newId("wcs");
  await deps.db.insert(webClientSessions).values({
    id: sessionId,
    clientId: row.id,
    conversationId,
    visitorId,
    identityUserId: userId,
    language: input.language ?? "en",
    tokenHash: sha256(visitorToken),
    createdAt: now,
  });
  await touch(deps, row.id);
  return { sessionId, visitorToken, visitorId };
}

/** The customer record of a web visitor (one per verified user, else per visitor id). */
async function webCustomer(deps: Pick<Deps, "db">, row: ClientRow, externalId: string, now: string): Promise<string> {
  const match = and(eq(customers.spaceId, row.spaceId), eq(customers.clientId, row.id), eq(customers.externalId, externalId));
  const existing = await deps.db.select({ id: customers.id }).from(customers).where(match).get();
  if (existing) {
    await deps.db.update(customers).set({ lastConversationAt: now }).where(eq(customers.id, existing.id));
    return existing.id;
  }
  const id = newId("cus");
  await deps.db
    .insert(customers)
    .values({
      id,
      spaceId: row.spaceId,
      channel: "web",
      clientId: row.id,
      externalId,
      nickname: externalId.startsWith("v_") ? "" : externalId,
      lastConversationAt: now,
    })
    .onConflictDoNothing();
  return (await deps.db.select({ id: customers.id }).from(customers).where(match).get())!.id;
}

/** The session a bearer token opens; anything else is 401. */
export async function sessionForVisitor(deps: Pick<Deps, "db" | "now">, row: ClientRow, sessionId: string, authorization: string | undefined) {
  const token = authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
  if (!token) throw new ServiceError("unauthenticated", "visitor_token_invalid");
  const session = await deps.db
    .select()
    .from(webClientSessions)
    .where(and(eq(webClientSessions.id, sessionId), eq(webClientSessions.clientId, row.id)))
    .get();
  if (!session || !safeEqual(session.tokenHash, sha256(token))) throw new ServiceError("unauthenticated", "visitor_token_invalid");
  const conversation = await deps.db.select().from(conversations).where(eq(conversations.id, session.conversationId)).get();
  if (!conversation) throw new ServiceError("unauthenticated", "visitor_token_invalid");
  await touch(deps, row.id);
  return { session, conversation };
}

/** The session's messages (the visitor's, the app's answers and operators'), oldest first. */
export async function sessionMessages(deps: Pick<Deps, "db" | "secrets" | "now">, conversationId: string) {
  const rows = await deps.db
    .select({
      id: messages.id,
      role: messages.role,
      content: messages.content,
      senderName: messages.senderName,
      status: messages.status,
      createdAt: messages.createdAt,
    })
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), inArray(messages.role, ["user", "assistant", "operator"])))
    .orderBy(asc(messages.createdAt), asc(messages.id));
  return withAttachments(deps, rows);
}
