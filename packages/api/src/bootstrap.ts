import { eq } from "drizzle-orm";
import { sha256 } from "./crypto";
import { apiKeys, users } from "./db/schema/index";
import type { Deps } from "./kernel";
import { createUser } from "./identity/service/accounts";
import { issueGrant } from "./identity/service/sessions";
import { createApiKey } from "./keys/service/keys";
import { seedDemoClient } from "./clients/seed";

/** What the first start did, for the start-up banner. */
export interface BootstrapResult {
  ownerCreated: boolean;
  /** A one-time sign-in link, when the owner has no other way in yet. */
  signInUrl?: string;
  apiKeyCreated: boolean;
}

/**
 * On an empty instance, creates the owner account (no default password) and, when configured,
 * a personal API key with the operator's chosen value. While the owner has neither password nor
 * address, every start prints a fresh single-use sign-in link.
 */
export async function bootstrap(deps: Pick<Deps, "config" | "db" | "files" | "knowledge" | "now" | "secrets">): Promise<BootstrapResult> {
  let owner = await deps.db.select().from(users).where(eq(users.isInstanceOwner, true)).get();
  let ownerCreated = false;
  let apiKeyCreated = false;
  if (!owner) {
    owner = await createUser(deps, {
      name: "Owner",
      email: deps.config.ownerEmail ?? null,
      isInstanceOwner: true,
    });
    ownerCreated = true;
    if (deps.config.seedDemo) await seedDemoClient(deps, owner.id);
    const key = deps.config.bootstrapApiKey;
    if (key) {
      const taken = await deps.db
        .select({ id: apiKeys.id })
        .from(apiKeys)
        .where(eq(apiKeys.keyHash, sha256(key)))
        .get();
      if (!taken) {
        await createApiKey(deps, owner.id, { name: "Bootstrap key", value: key });
        apiKeyCreated = true;
      }
    }
  }
  const needsLink = ownerCreated || (!owner.passwordHash && !owner.email && !owner.phone);
  if (!needsLink) return { ownerCreated, apiKeyCreated };
  const { grant } = await issueGrant(deps, { userId: owner.id, kind: "login-code", method: "login-link", ttlMinutes: 60 });
  return { ownerCreated, apiKeyCreated, signInUrl: `${deps.config.publicUrl}/console/agents?loginCode=${encodeURIComponent(grant)}` };
}
