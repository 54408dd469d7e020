import { refreshPrivileges, refreshSpaces } from "../../app/startup";
import { endpoints } from "../../lib/api/endpoints";
import { invalidateSpace } from "../../lib/api/query";
import { sessionStore } from "../../lib/api/session";
import { useRealtimeEvent } from "../../lib/realtime";

/**
 * Reads who the member is in the space again after `access.changed` (decision 0019): the user
 * and the privileges first, so the menu and the route guard follow (a page the role no longer
 * opens redirects to the first one it does), then every cached answer of the space, whose data
 * range may have changed too.
 */
export async function followAccessChange(): Promise<void> {
  const me = await endpoints.me.get({ startup: true });
  if (me.ok) sessionStore.setUser(me.data);
  await Promise.all([refreshPrivileges(), refreshSpaces()]);
  await invalidateSpace([]);
}

/** Keeps the console's menus and guard in step with role changes, without a reload. */
export function useAccessFollow(): void {
  useRealtimeEvent("access.changed", () => void followAccessChange());
}
