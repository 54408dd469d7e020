import { refreshPrivileges, refreshSpaces } from "../../app/startup";
import { forgetSpace } from "../../lib/api/query";
import { sessionStore } from "../../lib/api/session";
import type { User } from "../../lib/api/types";

/**
 * Makes the space `user` is answered in the console's current one, as switching spaces does:
 * the previous space's cached answers go, then the spaces and menus are read again.
 */
export async function enterSpace(user: User, previousSpaceId: string | undefined): Promise<void> {
  sessionStore.setUser(user);
  if (previousSpaceId !== user.spaceId) void forgetSpace(previousSpaceId);
  sessionStore.setPrivileges(undefined);
  await Promise.all([refreshSpaces(), refreshPrivileges()]);
}
