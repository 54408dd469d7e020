import { eq } from "drizzle-orm";
import { hashPassword, newId, verifyPassword } from "../../crypto";
import { users } from "../../db/schema/index";
import { fail, ServiceError } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import type { Language } from "../../i18n/language";
import { insertSpace, userView } from "../../spaces/service/spaces";
import { rewardInvitation } from "../../benefits/service/invitations";
import { isTeamInvite, joinByInvitation } from "../../teams/service/invitations";
import { consumeCode, issueCode, type CodePurpose } from "./codes";
import { assertPasswordStrength, type Channel, channelOf, normalizeTarget } from "./contact";
import { admitCodeAttempt, admitPasswordAttempt, verifyOrPretend } from "./login-guard";
import { createSession, revokeOtherSessions, type SignInMethod } from "./sessions";

/** Where a sign-up came from (spec: share, source, sourceDetail). */
export interface Attribution {
  share?: string;
  source?: string;
  sourceDetail?: string;
}

/** Finds the user that owns an e-mail address or phone number. */
export async function findUserByContact(deps: Pick<Deps, "db">, channel: Channel, target: string) {
  const column = channel === "email" ? users.email : users.phone;
  return deps.db.select().from(users).where(eq(column, target)).get();
}

/** Creates a user with a personal space. */
export async function createUser(
  deps: Pick<Deps, "db" | "now">,
  input: {
    name: string;
    email?: string | null;
    phone?: string | null;
    password?: string;
    isInstanceOwner?: boolean;
    language?: Language;
    attribution?: Attribution;
  },
) {
  const id = newId("usr");
  const spaceId = newId("spc");
  const now = deps.now().toISOString();
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  // The user row and its personal space point at each other; foreign keys allow either order here.
  await deps.db.insert(users).values({
    id,
    name: input.name,
    email: input.email ?? null,
    phone: input.phone ?? null,
    passwordHash,
    language: input.language ?? "en",
    personalSpaceId: spaceId,
    currentSpaceId: spaceId,
    isInstanceOwner: input.isInstanceOwner ?? false,
    share: input.attribution?.share ?? null,
    source: input.attribution?.source ?? null,
    sourceDetail: input.attribution?.sourceDetail ?? null,
    createdAt: now,
    updatedAt: now,
  });
  await insertSpace(deps, { id: spaceId, name: input.name, kind: "personal", ownerUserId: id });
  return (await deps.db.select().from(users).where(eq(users.id, id)).get())!;
}

/** Session plus the user view: what every sign-in answers. */
export async function signedIn(deps: Pick<Deps, "config" | "db" | "now">, userId: string, method: SignInMethod, client: { ip?: string; userAgent?: string }) {
  const session = await createSession(deps, { userId, method, ...client });
  const user = await deps.db.select({ currentSpaceId: users.currentSpaceId }).from(users).where(eq(users.id, userId)).get();
  return { ...session, user: await userView(deps, userId, user!.currentSpaceId) };
}

function defaultName(channel: Channel, target: string): string {
  return channel === "email" ? (target.split("@")[0] ?? target).slice(0, 40) : `user${target.slice(-4)}`;
}

/** Checks the purpose rules before a code is sent, then sends it. */
export async function requestCode(deps: Deps, input: { channel: Channel; target: string; purpose: CodePurpose; ip: string; language: Language; auth?: Auth }) {
  const target = normalizeTarget(input.channel, input.target);
  const existing = await findUserByContact(deps, input.channel, target);
  if (input.purpose === "register" || (input.purpose === "bind" && input.auth)) {
    // Binding while signed in adds the address to this account; without a session it is the
    // WeChat bind step, which may attach to an existing account.
    if (existing && existing.id !== input.auth?.userId) {
      throw fail.conflict(input.channel === "email" ? "email_taken" : "phone_taken");
    }
  } else if (input.purpose === "bind") {
    // WeChat bind: any address.
  } else if (input.purpose === "change-password") {
    if (!input.auth) throw fail.unauthenticated();
    if (!existing || existing.id !== input.auth.userId) throw fail.invalid("account_not_found", "target", { channel: input.channel });
  } else if (!existing) {
    throw new ServiceError("not_found", "account_not_found", { channel: input.channel }, { field: "target" });
  }
  return issueCode(deps, { ...input, target });
}

/** Registers with an e-mail or phone code and signs in. */
export async function register(
  deps: Pick<Deps, "config" | "db" | "logger" | "mail" | "now" | "sms">,
  input: { channel: Channel; target: string; code: string; password: string; name?: string; language: Language; inviteParam?: string } & Attribution,
  client: { ip?: string; userAgent?: string },
) {
  const target = normalizeTarget(input.channel, input.target);
  assertPasswordStrength(input.password);
  if (await findUserByContact(deps, input.channel, target)) {
    throw fail.conflict(input.channel === "email" ? "email_taken" : "phone_taken");
  }
  await consumeCode(deps, { channel: input.channel, target, purpose: "register", code: input.code });
  const user = await createUser(deps, {
    name: input.name?.trim() || defaultName(input.channel, target),
    [input.channel]: target,
    password: input.password,
    language: input.language,
    attribution: { share: input.share, source: input.source, sourceDetail: input.sourceDetail },
  });
  if (isTeamInvite(input.inviteParam)) {
    // A team link that cannot be used (expired, full) must not cost the person their account.
    await joinByInvitation(deps, user.id, input.inviteParam).catch((error: unknown) =>
      deps.logger.warn("team invitation at registration ignored", { userId: user.id, error: error instanceof Error ? error.message : String(error) }),
    );
  } else if (input.inviteParam) await rewardInvitation(deps, { code: input.inviteParam, inviteeUserId: user.id });
  return signedIn(deps, user.id, "register", client);
}

/**
 * Password sign-in. Counted per address, per account and address pair (with backoff) and per
 * account from all addresses, before the password is checked (see {@link admitPasswordAttempt});
 * the answer and the work done never tell whether the account exists.
 */
export async function loginWithPassword(deps: Deps, input: { username: string; password: string }, client: { ip: string; userAgent?: string }) {
  const channel = channelOf(input.username);
  const target = normalizeTarget(channel, input.username, "username");
  const attempt = await admitPasswordAttempt(deps, `${channel}:${target}`, client.ip);
  const user = await findUserByContact(deps, channel, target);
  const valid = await verifyOrPretend(input.password, user?.passwordHash);
  if (!user || !valid) {
    await attempt.failed();
    throw new ServiceError("unauthenticated", "login_failed");
  }
  await attempt.succeeded();
  return signedIn(deps, user.id, "password", client);
}

/**
 * Code sign-in: a login code sent to the account's e-mail or phone. Not held back by the
 * account's password ceiling, so the owner gets in while strangers guess the password.
 */
export async function loginWithCode(deps: Deps, input: { channel: Channel; target: string; code: string }, client: { ip: string; userAgent?: string }) {
  const target = normalizeTarget(input.channel, input.target);
  const attempt = await admitCodeAttempt(deps, `${input.channel}:${target}`, client.ip);
  try {
    await consumeCode(deps, { channel: input.channel, target, purpose: "login", code: input.code });
  } catch (error) {
    await attempt.failed();
    throw error;
  }
  const user = await findUserByContact(deps, input.channel, target);
  if (!user) throw fail.invalid("code_invalid", "code");
  await attempt.succeeded();
  return signedIn(deps, user.id, "code", client);
}

/** Forgot password: a code proves the account, then the password is replaced and other sessions end. */
export async function resetPassword(deps: Pick<Deps, "db" | "now">, input: { channel: Channel; target: string; code: string; password: string }) {
  const target = normalizeTarget(input.channel, input.target);
  assertPasswordStrength(input.password);
  await consumeCode(deps, { channel: input.channel, target, purpose: "reset-password", code: input.code });
  const user = await findUserByContact(deps, input.channel, target);
  if (!user) throw fail.invalid("code_invalid", "code");
  await deps.db
    .update(users)
    .set({ passwordHash: await hashPassword(input.password), updatedAt: deps.now().toISOString() })
    .where(eq(users.id, user.id));
  await revokeOtherSessions(deps, user.id);
  return { reset: true as const };
}

/**
 * Changes the password: the old one (unless none was ever set) and a code sent to the user's own
 * e-mail or phone. Other sessions end.
 */
export async function changePassword(
  deps: Pick<Deps, "db" | "now">,
  auth: Auth,
  input: { oldPassword?: string; newPassword: string; code: string; channel?: Channel },
) {
  // A leaked automation key must not be enough to take over the account.
  if (auth.via !== "session") throw fail.forbidden("api_key_not_allowed");
  const user = await deps.db.select().from(users).where(eq(users.id, auth.userId)).get();
  if (!user) throw fail.notFound("user");
  if (user.passwordHash) {
    if (!input.oldPassword) throw fail.invalid("password_wrong", "oldPassword");
    if (!(await verifyPassword(input.oldPassword, user.passwordHash))) throw fail.invalid("password_wrong", "oldPassword");
  }
  assertPasswordStrength(input.newPassword, "newPassword");
  const channel: Channel = input.channel ?? (user.email ? "email" : "phone");
  const target = channel === "email" ? user.email : user.phone;
  if (!target) throw fail.invalid("account_not_found", "channel", { channel });
  await consumeCode(deps, { channel, target, purpose: "change-password", code: input.code });
  await deps.db
    .update(users)
    .set({ passwordHash: await hashPassword(input.newPassword), updatedAt: deps.now().toISOString() })
    .where(eq(users.id, user.id));
  await revokeOtherSessions(deps, user.id, auth.sessionId);
  return { changed: true as const };
}

/** Adds or replaces the user's e-mail or phone, proven by a code sent to it. */
export async function bindContact(deps: Pick<Deps, "db" | "now">, auth: Auth, input: { channel: Channel; target: string; code: string }) {
  const target = normalizeTarget(input.channel, input.target);
  const existing = await findUserByContact(deps, input.channel, target);
  if (existing && existing.id !== auth.userId) throw fail.conflict(input.channel === "email" ? "email_taken" : "phone_taken");
  await consumeCode(deps, { channel: input.channel, target, purpose: "bind", code: input.code });
  await deps.db
    .update(users)
    .set({ [input.channel]: target, updatedAt: deps.now().toISOString() })
    .where(eq(users.id, auth.userId));
  return userView(deps, auth.userId, auth.spaceId);
}

/** Updates profile fields of the signed-in user. */
export async function updateProfile(deps: Pick<Deps, "db" | "now">, auth: Auth, input: { name?: string; avatarUrl?: string | null; language?: Language }) {
  const name = input.name?.trim();
  if (input.name !== undefined && !name) throw fail.invalid("validation_failed", "name", { field: "name", reason: "empty" });
  await deps.db
    .update(users)
    .set({
      ...(name ? { name } : {}),
      ...(input.avatarUrl !== undefined ? { avatarUrl: input.avatarUrl } : {}),
      ...(input.language ? { language: input.language } : {}),
      updatedAt: deps.now().toISOString(),
    })
    .where(eq(users.id, auth.userId));
  return userView(deps, auth.userId, auth.spaceId);
}
