import { eq } from "drizzle-orm";
import { storeSettings, webClients } from "../../db/schema/index";
import { fail, ServiceError } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import { requireInstanceAdmin } from "../../instance/service/instance";

/** What guests may do with store apps when the administrator has not said otherwise. */
export const DEFAULT_GUEST_LIMITS = { guestMessagesPerHour: 20, guestSessionsPerHour: 10 } as const;
const HOUR = 3600;

/** The instance's guest limits. */
export async function getStoreSettings(deps: Pick<Deps, "db">) {
  const row = await deps.db.select().from(storeSettings).where(eq(storeSettings.id, "instance")).get();
  return row ? { guestMessagesPerHour: row.guestMessagesPerHour, guestSessionsPerHour: row.guestSessionsPerHour } : { ...DEFAULT_GUEST_LIMITS };
}

/** The instance administrator sets the guest limits. */
export async function putStoreSettings(deps: Pick<Deps, "db" | "now">, auth: Auth, input: { guestMessagesPerHour: number; guestSessionsPerHour: number }) {
  await requireInstanceAdmin(deps, auth);
  const now = deps.now().toISOString();
  await deps.db
    .insert(storeSettings)
    .values({ id: "instance", ...input, updatedAt: now })
    .onConflictDoUpdate({ target: storeSettings.id, set: { ...input, updatedAt: now } });
  return getStoreSettings(deps);
}

/** Counts a guest's new session per IP; over the limit is a 429 that says what to do. */
export async function throttleGuestSession(deps: Pick<Deps, "db" | "throttle">, ip: string) {
  const { guestSessionsPerHour } = await getStoreSettings(deps);
  const wait = await deps.throttle.hit(`store-guest-sessions:${ip}`, guestSessionsPerHour, HOUR);
  if (wait > 0) throw guestLimit(wait);
}

/**
 * Counts a guest's message against both their IP and their visitor id: a new cookie does not
 * reset the IP's budget, and a new address does not reset the visitor's.
 */
export async function throttleGuestMessage(deps: Pick<Deps, "db" | "throttle">, ip: string, visitorId: string) {
  const { guestMessagesPerHour } = await getStoreSettings(deps);
  const waits = await Promise.all([
    deps.throttle.hit(`store-guest-messages-ip:${ip}`, guestMessagesPerHour, HOUR),
    deps.throttle.hit(`store-guest-messages-visitor:${visitorId}`, guestMessagesPerHour, HOUR),
  ]);
  const wait = Math.max(...waits);
  if (wait > 0) throw guestLimit(wait);
}

function guestLimit(seconds: number) {
  return new ServiceError("rate_limited", "store_guest_limit", { seconds }, { retryAfterSeconds: seconds });
}

/** The web client a listed app's guests chat through. */
export async function guestClient(deps: Pick<Deps, "db">, webClientId: string | null) {
  const row = webClientId ? await deps.db.select().from(webClients).where(eq(webClients.id, webClientId)).get() : undefined;
  if (!row) throw fail.notFound("store_app");
  return row;
}
