/** Which visitor session an `identify` call leaves in place. No Preact, no DOM. */
import type { StoredSession, VisitorIdentity } from "./protocol";

/**
 * `keep`: the stored session stays (none yet — the next one is created for the user — or it
 * already belongs to this user, so a repeated identify is a no-op). `restart`: the session
 * belongs to an anonymous visitor or another user; it is dropped and the identified user's
 * conversation starts anew, without the old messages.
 */
export function identifyAction(session: Pick<StoredSession, "userId"> | undefined, identity: VisitorIdentity | undefined): "keep" | "restart" {
  if (!session || !isIdentity(identity)) return "keep";
  return session.userId === identity.userId ? "keep" : "restart";
}

/** A usable `identify` argument: a non-empty userId and a hash, both strings. */
export function isIdentity(value: unknown): value is VisitorIdentity {
  const identity = value as VisitorIdentity | undefined;
  return !!identity && typeof identity.userId === "string" && identity.userId !== "" && typeof identity.hash === "string" && identity.hash !== "";
}
