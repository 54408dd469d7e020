/**
 * Local storage under the names spec §3 gives them. Every access tolerates a browser that
 * refuses storage (private mode, quotas) and values that are not valid JSON.
 */

export const STORAGE_KEYS = [
  "token",
  "user",
  "userList",
  "nowSelect",
  "chatData",
  "allPluginUser",
  "shareId",
  "shareCode",
  "source",
  "sourceDetail",
  "inviteParam",
  "teamInviteParam",
  "clientId",
  "selectchannel",
  "language",
] as const;
/** A local storage name the console uses. */
export type StorageKey = (typeof STORAGE_KEYS)[number];

function storage(): Storage | undefined {
  try {
    return typeof window === "undefined" ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

/** Reads a plain string value. */
export function readString(key: StorageKey): string | undefined {
  try {
    return storage()?.getItem(key) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Writes a plain string value; `undefined` removes it. */
export function writeString(key: StorageKey, value: string | undefined): void {
  try {
    if (value === undefined) storage()?.removeItem(key);
    else storage()?.setItem(key, value);
  } catch {
    // Storage refused: the value lives in memory only for this visit.
  }
}

/** Reads a JSON value, `undefined` when absent or unreadable. */
export function readJson<T>(key: StorageKey): T | undefined {
  const raw = readString(key);
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return undefined;
  }
}

/** Writes a JSON value; `undefined` removes it. */
export function writeJson(key: StorageKey, value: unknown): void {
  writeString(key, value === undefined ? undefined : JSON.stringify(value));
}

/** Spec §8 (code 401): the session ends by wiping local and session storage alike. */
export function clearAllStorage(): void {
  try {
    const language = readString("language");
    const teamInvite = readString("teamInviteParam");
    window.localStorage.clear();
    window.sessionStorage.clear();
    // The interface language is a device preference, not part of the session.
    if (language !== undefined) writeString("language", language);
    // A team link opened before signing in waits for the next session.
    if (teamInvite !== undefined) writeString("teamInviteParam", teamInvite);
  } catch {
    // Nothing stored that we could reach.
  }
}
