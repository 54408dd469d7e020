import { and, eq } from "drizzle-orm";
import { accessOf } from "../../access/member-access";
import { inRange } from "../../access/range";
import { type ChatApp, getAppForChat } from "../../apps/service/index";
import { spaceMembers, spaceRoles } from "../../db/schema/index";
import { fail } from "../../errors";
import type { Auth, Deps } from "../../kernel";

/**
 * The app a signed-in person may chat with by its code: members of the app's space may chat
 * with it when it is in their data range there, anyone signed in with a public app. Any other
 * app is not found.
 */
export async function chatAppForMember(deps: Pick<Deps, "db" | "secrets">, auth: Pick<Auth, "userId">, appCode: string): Promise<ChatApp> {
  const app = await getAppForChat(deps, { appCode });
  if (app.isPublic) return app;
  const member = await deps.db
    .select({ roleId: spaceMembers.roleId, grants: spaceRoles.grants, dataRange: spaceRoles.dataRange })
    .from(spaceMembers)
    .leftJoin(spaceRoles, and(eq(spaceRoles.id, spaceMembers.roleId), eq(spaceRoles.spaceId, spaceMembers.spaceId)))
    .where(and(eq(spaceMembers.spaceId, app.spaceId), eq(spaceMembers.userId, auth.userId)))
    .get();
  if (!member) throw fail.notFound("app");
  // The range is the one the member has in the app's space, whichever space they are signed in to.
  const access = accessOf(member.roleId, member.grants === null ? null : { grants: member.grants, dataRange: member.dataRange });
  if (!inRange({ userId: auth.userId, access }, "app", app)) throw fail.notFound("app");
  return app;
}
