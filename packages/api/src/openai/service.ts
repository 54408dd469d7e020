import { and, desc, eq } from "drizzle-orm";
import { inRange, rangeCondition } from "../access/range";
import { type ChatApp, getAppForChat } from "../apps/service/index";
import { sha256 } from "../crypto";
import { apps, userKeys } from "../db/schema/index";
import { ServiceError } from "../errors";
import { authenticate } from "../identity/service/sessions";
import type { Auth, Deps } from "../kernel";

/** Who may call the OpenAI-compatible API: a space, through a personal API key or a user key. */
export interface OpenAiCaller {
  spaceId: string;
  /** Stable id for usage records and conversations. */
  endUserId: string;
  /** A user key may be bound to one app. */
  onlyAppCode?: string;
  /** Set for user keys: their spending is counted against their credit limit. */
  userKeyId?: string;
  /** Set for a person's session or API key: in a team space their allocation pays first. */
  memberUserId?: string;
  /** A person's access in the space: their role's data range limits the apps they may name. */
  auth?: Pick<Auth, "userId" | "access">;
}

/**
 * The caller a bearer token names: a user key (`uk_…`, enabled, not expired, within its credit
 * limit) or a personal API key or session (in `spaceHeader`'s space when given).
 */
export async function openAiCaller(
  deps: Pick<Deps, "db" | "now">,
  bearer: string | undefined,
  spaceHeader: string | undefined,
  /** Checks a person's role in the space (user keys carry no role). */
  checkRole: (auth: Auth) => void = () => {},
): Promise<OpenAiCaller> {
  if (!bearer) throw new ServiceError("unauthenticated", "login_required");
  if (bearer.startsWith("uk_")) {
    const key = await deps.db
      .select()
      .from(userKeys)
      .where(eq(userKeys.keyHash, sha256(bearer)))
      .get();
    const now = deps.now().toISOString();
    if (!key?.enabled || (key.expiresAt && key.expiresAt <= now)) throw new ServiceError("session_ended", "session_ended");
    if (key.creditLimit !== null && key.creditsUsed >= key.creditLimit) throw new ServiceError("insufficient_credits", "insufficient_credits");
    return { spaceId: key.spaceId, endUserId: `user-key:${key.id}`, userKeyId: key.id, ...(key.appCode ? { onlyAppCode: key.appCode } : {}) };
  }
  const auth = await authenticate(deps, bearer, spaceHeader);
  checkRole(auth);
  return { spaceId: auth.spaceId, endUserId: `user:${auth.userId}`, memberUserId: auth.userId, auth };
}

/** The app a caller names as its model: one of its space's (or the one its user key is bound to), or a public app. */
export async function openAiModelApp(deps: Pick<Deps, "db" | "secrets">, caller: OpenAiCaller, code: string): Promise<ChatApp> {
  if (caller.onlyAppCode && caller.onlyAppCode !== code) throw new ServiceError("not_found", "openai_model_not_found", { model: code });
  const app = await getAppForChat(deps, { appCode: code }).catch(() => undefined);
  const reachable = app && (app.isPublic || (app.spaceId === caller.spaceId && (!caller.auth || inRange(caller.auth, "app", app))));
  if (!reachable) throw new ServiceError("not_found", "openai_model_not_found", { model: code });
  return app;
}

/** The models a caller may use: its space's apps by code in the person's data range (only the bound one for a user key), newest first. */
export async function listOpenAiModels(deps: Pick<Deps, "db">, caller: OpenAiCaller): Promise<Array<{ code: string; createdAt: string }>> {
  return deps.db
    .select({ code: apps.code, createdAt: apps.createdAt })
    .from(apps)
    .where(
      and(
        eq(apps.spaceId, caller.spaceId),
        caller.onlyAppCode ? eq(apps.code, caller.onlyAppCode) : undefined,
        caller.auth ? rangeCondition(caller.auth, "app", apps) : undefined,
      ),
    )
    .orderBy(desc(apps.createdAt));
}
