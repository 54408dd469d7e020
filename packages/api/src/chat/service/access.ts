import { and, eq } from "drizzle-orm";
import { type ChatApp, getAppForChat } from "../../apps/service/index";
import { spaceMembers } from "../../db/schema/index";
import { fail } from "../../errors";
import type { Auth, Deps } from "../../kernel";

/**
 * The app a signed-in person may chat with by its code: members of the app's space may chat
 * with it, anyone signed in with a public app. Any other app is not found.
 */
export async function chatAppForMember(deps: Pick<Deps, "db" | "secrets">, auth: Pick<Auth, "userId">, appCode: string): Promise<ChatApp> {
  const app = await getAppForChat(deps, { appCode });
  if (app.isPublic) return app;
  const member = await deps.db
    .select({ role: spaceMembers.role })
    .from(spaceMembers)
    .where(and(eq(spaceMembers.spaceId, app.spaceId), eq(spaceMembers.userId, auth.userId)))
    .get();
  if (!member) throw fail.notFound("app");
  return app;
}
