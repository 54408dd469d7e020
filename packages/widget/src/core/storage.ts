/** Where the widget keeps what must outlive a reload, as JSON under string keys. No Preact, no DOM. */

/** A JSON key-value store. */
export interface Store {
  get<T>(key: string): T | undefined;
  /** Stores `value`; `undefined` removes the key. */
  set(key: string, value: unknown): void;
}

/** The first area that can be read and written: a sandboxed frame throws on access, a full one on write. */
function usable(areas: Array<() => Storage>): Storage | undefined {
  for (const area of areas) {
    try {
      const storage = area();
      storage.setItem("parley:probe", "1");
      storage.removeItem("parley:probe");
      return storage;
    } catch {
      // Refused: try the next area.
    }
  }
  return undefined;
}

/**
 * A store on the first usable of `areas` (tried in order, once), else in memory for as long as
 * the page lives. A write the area refuses later (quota) is kept in memory instead, and that
 * copy is what is read back.
 */
export function createStore(...areas: Array<() => Storage>): Store {
  const storage = usable(areas);
  const memory = new Map<string, string>();
  return {
    get(key) {
      try {
        return JSON.parse((memory.has(key) ? memory.get(key) : storage?.getItem(key)) ?? "null") ?? undefined;
      } catch {
        return undefined;
      }
    },
    set(key, value) {
      memory.delete(key);
      try {
        if (!storage) throw 0;
        if (value === undefined) storage.removeItem(key);
        else storage.setItem(key, JSON.stringify(value));
      } catch {
        if (value !== undefined) memory.set(key, JSON.stringify(value));
      }
    },
  };
}

/**
 * The visitor's session and id: in localStorage, shared by every tab of the browser on this site
 * (a second tab continues the conversation); sessionStorage, then memory, where it is refused.
 */
export const browserStore = (): Store =>
  createStore(
    () => localStorage,
    () => sessionStorage,
  );

/** What belongs to one tab only (a message waiting for the network): sessionStorage, else memory. */
export const tabStore = (): Store => createStore(() => sessionStorage);
