import { useSyncExternalStore } from "react";
import { clearAllStorage, readJson, readString, writeJson, writeString } from "./storage";
import type { Privileges, Session, SpaceEntry, User } from "./types";

/** Who is signed in, in which space, with which menus. */
export interface SessionState {
  token: string | undefined;
  user: User | undefined;
  /** Every space the user belongs to (the spec's userList). */
  userList: SpaceEntry[];
  /** The current space (the spec's nowSelect). */
  nowSelect: SpaceEntry | undefined;
  privileges: Privileges | undefined;
}

function load(): SessionState {
  return {
    token: readString("token"),
    user: readJson<User>("user"),
    userList: readJson<SpaceEntry[]>("userList") ?? [],
    nowSelect: readJson<SpaceEntry>("nowSelect"),
    privileges: undefined,
  };
}

let state: SessionState = load();
const listeners = new Set<() => void>();

function update(next: Partial<SessionState>): void {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
}

/**
 * The session, kept in memory and mirrored to local storage under spec §3's names
 * (token, user, userList, nowSelect). Readable outside React (the request layer needs it).
 */
export const sessionStore = {
  get: (): SessionState => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Starts a session from a sign-in answer. */
  signIn(session: Session): void {
    writeString("token", session.token);
    writeJson("user", session.user);
    update({ token: session.token, user: session.user, privileges: undefined });
  },
  /** Replaces the stored user (after GET /me, a profile edit or a space switch). */
  setUser(user: User): void {
    writeJson("user", user);
    update({ user });
  },
  /** Replaces the space list; the entry marked current becomes nowSelect. */
  setSpaces(userList: SpaceEntry[]): void {
    const nowSelect = userList.find((space) => space.current);
    writeJson("userList", userList);
    writeJson("nowSelect", nowSelect);
    update({ userList, nowSelect });
  },
  setPrivileges(privileges: Privileges | undefined): void {
    update({ privileges });
  },
  /** Ends the session: token, user, local and session storage all go (spec §8). */
  clear(): void {
    clearAllStorage();
    update({ token: undefined, user: undefined, userList: [], nowSelect: undefined, privileges: undefined });
  },
};

/** The session, re-rendering on change. */
export function useSession(): SessionState {
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.get, sessionStore.get);
}

/**
 * Whether the member's role in the current space holds a grant (decision 0019), such as
 * `customers.edit`: edit controls show only then. False until the privileges are read.
 */
export function useGrant(grant: string): boolean {
  return useSession().privileges?.grants?.includes(grant) ?? false;
}
