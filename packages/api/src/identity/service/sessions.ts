import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { prepared } from "../../db/prepared";
import { newId, newSecret, sha256 } from "../../crypto";
import { apiKeys, sessions, signInGrants, spaceMembers, spaceRoles, users } from "../../db/schema/index";
import { accessOf } from "../../access/member-access";
import { fail, ServiceError } from "../../errors";
import type { Auth, Deps } from "../../kernel";

/** How a session was obtained; kept for the audit trail. */
export type SignInMethod = "password" | "code" | "register" | "login-link" | "oidc" | "wechat" | "reset-password";

/** Issues a bearer session for a user. Only the token's hash is stored. */
export async function createSession(
  deps: Pick<Deps, "config" | "db" | "now">,
  input: { userId: string; method: SignInMethod; ip?: string; userAgent?: string },
): Promise<{ token: string; expiresAt: string }> {
  const token = newSecret("pst");
  const now = deps.now();
  const expiresAt = new Date(now.getTime() + deps.config.sessionTtlHours * 3_600_000).toISOString();
  await deps.db.insert(sessions).values({
    id: newId("ses"),
    userId: input.userId,
    tokenHash: sha256(token),
    method: input.method,
    ip: input.ip ?? null,
    userAgent: input.userAgent?.slice(0, 300) ?? null,
    createdAt: now.toISOString(),
    expiresAt,
  });
  return { token, expiresAt };
}

/** Ends one session. */
export async function revokeSession(deps: Pick<Deps, "db" | "now">, sessionId: string): Promise<void> {
  await deps.db.update(sessions).set({ revokedAt: deps.now().toISOString() }).where(eq(sessions.id, sessionId));
}

/** Ends every session of a user except, optionally, one. */
export async function revokeOtherSessions(deps: Pick<Deps, "db" | "now">, userId: string, keepSessionId?: string): Promise<void> {
  const rows = await deps.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
  for (const row of rows) if (row.id !== keepSessionId) await revokeSession(deps, row.id);
}

/**
 * Resolves a bearer credential (session token or API key) and the space the request acts in.
 * `requestedSpaceId` (the X-Parley-Space header) must be a space the user belongs to.
 */
export async function authenticate(deps: Pick<Deps, "db" | "now">, bearer: string, requestedSpaceId: string | undefined): Promise<Auth> {
  const hash = sha256(bearer);
  const now = deps.now().toISOString();
  let userId: string;
  let base: Pick<Auth, "via" | "sessionId" | "apiKeyId">;
  // A session follows the space chosen in the console; an API key stays in the space it was made for.
  let keySpaceId: string | undefined;
  // Session tokens carry their prefix; anything else can only be an API key.
  const session = bearer.startsWith("pst_")
    ? await prepared(deps.db, "auth.session", () =>
        deps.db
          .select()
          .from(sessions)
          .where(eq(sessions.tokenHash, sql.placeholder("hash")))
          .prepare(),
      ).get({ hash })
    : undefined;
  if (session) {
    if (session.revokedAt || session.expiresAt <= now) throw new ServiceError("session_ended", "session_ended");
    userId = session.userId;
    base = { via: "session", sessionId: session.id };
    // Touch at most once a minute to keep writes off the hot path.
    if (!session.lastUsedAt || Date.parse(now) - Date.parse(session.lastUsedAt) > 60_000) {
      await deps.db.update(sessions).set({ lastUsedAt: now }).where(eq(sessions.id, session.id));
    }
  } else {
    const key = await prepared(deps.db, "auth.apiKey", () =>
      deps.db
        .select()
        .from(apiKeys)
        .where(eq(apiKeys.keyHash, sql.placeholder("hash")))
        .prepare(),
    ).get({ hash });
    if (!key) throw new ServiceError("session_ended", "session_ended");
    userId = key.userId;
    base = { via: "api-key", apiKeyId: key.id };
    keySpaceId = key.spaceId;
    if (!key.lastUsedAt || Date.parse(now) - Date.parse(key.lastUsedAt) > 60_000) {
      await deps.db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, key.id));
    }
  }
  // One query: the user, and their role in the space the request acts in (a custom role's row too).
  const explicitSpace = requestedSpaceId ?? keySpaceId;
  const userColumns = {
    currentSpaceId: users.currentSpaceId,
    personalSpaceId: users.personalSpaceId,
    role: spaceMembers.role,
    roleId: spaceMembers.roleId,
    customGrants: spaceRoles.grants,
    customRange: spaceRoles.dataRange,
  };
  const user = await (explicitSpace
    ? prepared(deps.db, "auth.userInSpace", () =>
        deps.db
          .select(userColumns)
          .from(users)
          .leftJoin(spaceMembers, and(eq(spaceMembers.userId, users.id), eq(spaceMembers.spaceId, sql.placeholder("spaceId"))))
          .leftJoin(spaceRoles, and(eq(spaceRoles.id, spaceMembers.roleId), eq(spaceRoles.spaceId, spaceMembers.spaceId)))
          .where(eq(users.id, sql.placeholder("userId")))
          .prepare(),
      ).get({ userId, spaceId: explicitSpace })
    : prepared(deps.db, "auth.userInCurrentSpace", () =>
        deps.db
          .select(userColumns)
          .from(users)
          .leftJoin(spaceMembers, and(eq(spaceMembers.userId, users.id), eq(spaceMembers.spaceId, users.currentSpaceId)))
          .leftJoin(spaceRoles, and(eq(spaceRoles.id, spaceMembers.roleId), eq(spaceRoles.spaceId, spaceMembers.spaceId)))
          .where(eq(users.id, sql.placeholder("userId")))
          .prepare(),
      ).get({ userId }));
  if (!user) throw new ServiceError("session_ended", "session_ended");
  const spaceId = requestedSpaceId ?? keySpaceId ?? user.currentSpaceId;
  if (!user.role || !user.roleId) {
    if (requestedSpaceId) throw fail.notFound("space");
    if (keySpaceId) throw new ServiceError("session_ended", "session_ended");
    // The current space went away (left or removed): fall back to the personal space.
    await deps.db.update(users).set({ currentSpaceId: user.personalSpaceId }).where(eq(users.id, userId));
    return { userId, spaceId: user.personalSpaceId, role: "owner", ...base, access: accessOf("owner", null) };
  }
  const custom = user.customGrants === null ? null : { grants: user.customGrants, dataRange: user.customRange };
  return { userId, spaceId, role: user.role, ...base, access: accessOf(user.roleId, custom) };
}

const GRANT_TTL_MINUTES = { "login-code": 15, code: 5 } as const;

/** Issues a single-use grant (`loginCode` for sign-in links, `code` after external sign-in). */
export async function issueGrant(
  deps: Pick<Deps, "db" | "now">,
  input: { userId: string; kind: "login-code" | "code"; method: SignInMethod; ttlMinutes?: number },
): Promise<{ grant: string; expiresAt: string }> {
  const grant = newSecret(input.kind === "login-code" ? "lc" : "gc", 24);
  const now = deps.now();
  const expiresAt = new Date(now.getTime() + (input.ttlMinutes ?? GRANT_TTL_MINUTES[input.kind]) * 60_000).toISOString();
  await deps.db.insert(signInGrants).values({
    id: newId("grant"),
    kind: input.kind,
    userId: input.userId,
    grantHash: sha256(grant),
    method: input.method,
    createdAt: now.toISOString(),
    expiresAt,
  });
  return { grant, expiresAt };
}

/** Uses up a grant; the same grant never works twice. */
export async function consumeGrant(
  deps: Pick<Deps, "db" | "now">,
  input: { kind: "login-code" | "code"; grant: string },
): Promise<{ userId: string; method: SignInMethod }> {
  const now = deps.now().toISOString();
  const used = await deps.db
    .update(signInGrants)
    .set({ consumedAt: now })
    .where(
      and(eq(signInGrants.grantHash, sha256(input.grant)), eq(signInGrants.kind, input.kind), isNull(signInGrants.consumedAt), gt(signInGrants.expiresAt, now)),
    )
    .returning({ userId: signInGrants.userId, method: signInGrants.method });
  const row = used[0];
  if (!row) throw fail.invalid("grant_invalid", input.kind === "login-code" ? "loginCode" : "code");
  return { userId: row.userId, method: row.method as SignInMethod };
}
