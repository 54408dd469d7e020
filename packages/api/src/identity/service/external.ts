import { and, eq, gt } from "drizzle-orm";
import { newId, newSecret } from "../../crypto";
import { externalIdentities, oauthStates, users } from "../../db/schema/index";
import { fail, ServiceError } from "../../errors";
import type { Deps } from "../../kernel";
import type { Language } from "../../i18n/language";
import { type ExternalIdentity, ExternalProviderError } from "../../platform/ports";
import { consumeCode } from "./codes";
import { type Channel, normalizeTarget } from "./contact";
import { createUser, findUserByContact, signedIn } from "./accounts";
import { issueGrant } from "./sessions";

const STATE_TTL_MINUTES = 10;

/** Only same-site paths may be returned to after sign-in. */
export function safeReturnTo(value: string | undefined): string {
  if (!value?.startsWith("/") || value.startsWith("//") || value.includes("\\")) return "/console/agents";
  return value;
}

function withParam(base: string, name: string, value: string): string {
  const url = new URL(base, "http://placeholder");
  url.searchParams.set(name, value);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Finds the user linked to an external identity, links one by verified e-mail, or creates one. */
async function userForIdentity(deps: Pick<Deps, "db" | "now">, identity: ExternalIdentity, language: Language): Promise<string> {
  const link = await deps.db
    .select({ userId: externalIdentities.userId })
    .from(externalIdentities)
    .where(and(eq(externalIdentities.provider, identity.provider), eq(externalIdentities.subject, identity.subject)))
    .get();
  if (link) return link.userId;
  const email = identity.email && identity.emailVerified ? identity.email.toLowerCase() : undefined;
  let userId = email ? (await findUserByContact(deps, "email", email))?.id : undefined;
  if (!userId) {
    const user = await createUser(deps, {
      name: identity.name?.slice(0, 60) || email?.split("@")[0] || "user",
      email: email ?? null,
      language,
    });
    if (identity.avatarUrl) await deps.db.update(users).set({ avatarUrl: identity.avatarUrl }).where(eq(users.id, user.id));
    userId = user.id;
  }
  await linkIdentity(deps, userId, identity);
  return userId;
}

async function linkIdentity(deps: Pick<Deps, "db">, userId: string, identity: ExternalIdentity): Promise<void> {
  await deps.db
    .insert(externalIdentities)
    .values({ id: newId("ext"), provider: identity.provider, subject: identity.subject, userId, email: identity.email ?? null })
    .onConflictDoNothing();
}

async function takeState(deps: Pick<Deps, "db" | "now">, state: string, provider: string) {
  const row = await deps.db
    .select()
    .from(oauthStates)
    .where(and(eq(oauthStates.state, state), eq(oauthStates.provider, provider), gt(oauthStates.expiresAt, deps.now().toISOString())))
    .get();
  if (!row) throw fail.invalid("oauth_state_invalid", "state");
  return row;
}

function providerError(provider: string, error: unknown): ServiceError {
  if (error instanceof ServiceError) return error;
  const reason = error instanceof ExternalProviderError ? error.message : "unexpected answer";
  return new ServiceError("external", "provider_failed", { provider, reason });
}

/** Starts an OpenID Connect sign-in: where to send the browser. */
export async function startOidc(deps: Pick<Deps, "config" | "db" | "now" | "oidc">, input: { returnTo?: string }): Promise<string> {
  if (!deps.oidc) throw new ServiceError("not_found", "provider_disabled", { provider: "OIDC" });
  const redirectUri = `${deps.config.publicUrl}/api/v1/auth/oidc/callback`;
  const { url, state, nonce, codeVerifier } = await deps.oidc.authorizationUrl({ redirectUri }).catch((error: unknown) => {
    throw providerError("OIDC", error);
  });
  await deps.db.insert(oauthStates).values({
    state,
    provider: "oidc",
    status: "pending",
    nonce,
    codeVerifier,
    returnTo: safeReturnTo(input.returnTo),
    expiresAt: new Date(deps.now().getTime() + STATE_TTL_MINUTES * 60_000).toISOString(),
  });
  return url;
}

/**
 * Finishes an OIDC sign-in from the provider's callback and answers where the browser goes:
 * the console with a single-use `code` to exchange, or the login page with the error.
 */
export async function finishOidc(
  deps: Pick<Deps, "config" | "db" | "logger" | "now" | "oidc">,
  input: { callbackUrl: string; language: Language },
): Promise<string> {
  const state = new URL(input.callbackUrl).searchParams.get("state") ?? "";
  try {
    if (!deps.oidc) throw new ServiceError("not_found", "provider_disabled", { provider: "OIDC" });
    const row = await takeState(deps, state, "oidc");
    if (row.status !== "pending") throw fail.invalid("oauth_state_invalid", "state");
    await deps.db.update(oauthStates).set({ status: "consumed" }).where(eq(oauthStates.state, state));
    const identity = await deps.oidc
      .finish({
        callbackUrl: input.callbackUrl,
        redirectUri: `${deps.config.publicUrl}/api/v1/auth/oidc/callback`,
        state,
        nonce: row.nonce ?? "",
        codeVerifier: row.codeVerifier ?? "",
      })
      .catch((error: unknown) => {
        throw providerError("OIDC", error);
      });
    const userId = await userForIdentity(deps, identity, input.language);
    const { grant } = await issueGrant(deps, { userId, kind: "code", method: "oidc" });
    return withParam(row.returnTo ?? "/console/agents", "code", grant);
  } catch (error) {
    const reason = error instanceof ServiceError ? error.messageId : "failed";
    if (!(error instanceof ServiceError)) deps.logger.warn("oidc sign-in failed", { error: String(error) });
    return withParam("/login", "authError", reason);
  }
}

/** Starts a WeChat QR sign-in: the QR page to show and the state to poll. */
export async function startWechatQr(deps: Pick<Deps, "config" | "db" | "now" | "wechat">) {
  if (!deps.wechat) throw new ServiceError("not_found", "provider_disabled", { provider: "WeChat" });
  const state = newSecret("wxs", 18);
  const expiresAt = new Date(deps.now().getTime() + STATE_TTL_MINUTES * 60_000).toISOString();
  await deps.db.insert(oauthStates).values({ state, provider: "wechat", status: "pending", expiresAt });
  const qrUrl = deps.wechat.qrConnectUrl({ redirectUri: `${deps.config.publicUrl}/api/v1/auth/wechat/callback`, state });
  return { state, qrUrl, expiresAt };
}

/** WeChat calls back (on the phone's confirmation) with a code: resolve the person behind it. */
export async function wechatCallback(deps: Pick<Deps, "db" | "now" | "wechat">, input: { code: string; state: string; language: Language }) {
  if (!deps.wechat) throw new ServiceError("not_found", "provider_disabled", { provider: "WeChat" });
  const row = await takeState(deps, input.state, "wechat");
  if (row.status !== "pending") throw fail.invalid("oauth_state_invalid", "state");
  const identity = await deps.wechat.exchangeCode(input.code).catch((error: unknown) => {
    throw providerError("WeChat", error);
  });
  const link = await deps.db
    .select({ userId: externalIdentities.userId })
    .from(externalIdentities)
    .where(and(eq(externalIdentities.provider, "wechat"), eq(externalIdentities.subject, identity.subject)))
    .get();
  if (link) {
    const { grant } = await issueGrant(deps, { userId: link.userId, kind: "login-code", method: "wechat", ttlMinutes: 5 });
    await deps.db.update(oauthStates).set({ status: "confirmed", loginCode: grant }).where(eq(oauthStates.state, input.state));
    return { status: "confirmed" as const };
  }
  await deps.db
    .update(oauthStates)
    .set({ status: "bind_required", identity: JSON.stringify(identity) })
    .where(eq(oauthStates.state, input.state));
  return { status: "bind_required" as const };
}

/** What the browser showing the QR code learns when it polls. */
export async function pollWechat(deps: Pick<Deps, "db" | "now">, state: string) {
  const row = await deps.db
    .select()
    .from(oauthStates)
    .where(and(eq(oauthStates.state, state), eq(oauthStates.provider, "wechat")))
    .get();
  if (!row) throw fail.notFound("oauth_state");
  if (row.expiresAt <= deps.now().toISOString() || row.status === "consumed") return { status: "expired" as const };
  if (row.status === "confirmed") {
    // The login code goes out once; the poller exchanges it right away.
    await deps.db.update(oauthStates).set({ status: "consumed" }).where(eq(oauthStates.state, state));
    return { status: "confirmed" as const, loginCode: row.loginCode ?? undefined };
  }
  return { status: row.status };
}

/** Binds a scanned WeChat identity to the account owning an e-mail or phone (created if new). */
export async function bindWechat(
  deps: Pick<Deps, "config" | "db" | "now">,
  input: { state: string; channel: Channel; target: string; code: string; language: Language },
  client: { ip?: string; userAgent?: string },
) {
  const row = await takeState(deps, input.state, "wechat");
  if (row.status !== "bind_required" || !row.identity) throw fail.invalid("oauth_state_invalid", "state");
  const target = normalizeTarget(input.channel, input.target);
  await consumeCode(deps, { channel: input.channel, target, purpose: "bind", code: input.code });
  const identity = JSON.parse(row.identity) as ExternalIdentity;
  let user = await findUserByContact(deps, input.channel, target);
  if (!user) {
    user = await createUser(deps, { name: identity.name?.slice(0, 60) || "WeChat user", [input.channel]: target, language: input.language });
    if (identity.avatarUrl) await deps.db.update(users).set({ avatarUrl: identity.avatarUrl }).where(eq(users.id, user.id));
  }
  await linkIdentity(deps, user.id, identity);
  await deps.db.update(oauthStates).set({ status: "consumed" }).where(eq(oauthStates.state, input.state));
  return signedIn(deps, user.id, "wechat", client);
}
