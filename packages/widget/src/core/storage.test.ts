import { describe, expect, it } from "vitest";
import { createStore } from "./storage";

/** A Web Storage area over a Map, optionally refusing writes (a full or private-mode area). */
class Area implements Storage {
  readonly items = new Map<string, string>();
  constructor(public refuseWrites = false) {}
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    if (this.refuseWrites) throw new DOMException("full", "QuotaExceededError");
    this.items.set(key, value);
  }
}

const denied = (): Storage => {
  throw new DOMException("sandboxed", "SecurityError");
};

describe("the widget store", () => {
  it("keeps JSON in the first usable area, where a second tab (another store on the same area) reads it", () => {
    const local = new Area();
    const session = new Area();
    const first = createStore(
      () => local,
      () => session,
    );
    first.set("parley:demo", { sessionId: "wcs_1", visitorToken: "wvt_1" });
    expect(JSON.parse(local.getItem("parley:demo")!)).toEqual({ sessionId: "wcs_1", visitorToken: "wvt_1" });
    expect(session.length).toBe(0);
    const second = createStore(
      () => local,
      () => session,
    );
    expect(second.get("parley:demo")).toEqual({ sessionId: "wcs_1", visitorToken: "wvt_1" });
    second.set("parley:demo", undefined);
    expect(first.get("parley:demo")).toBeUndefined();
    expect(local.length).toBe(0);
  });

  it("falls back to the next area when one cannot be used (a sandboxed frame throws, a full one refuses writes)", () => {
    const session = new Area();
    const store = createStore(
      denied,
      () => new Area(true),
      () => session,
    );
    store.set("parley:visitor", "v_1");
    expect(session.getItem("parley:visitor")).toBe('"v_1"');
    expect(store.get("parley:visitor")).toBe("v_1");
  });

  it("keeps values in memory for the page when no area can be used", () => {
    const store = createStore(denied, () => new Area(true));
    expect(store.get("parley:demo")).toBeUndefined();
    store.set("parley:demo", { sessionId: "wcs_2" });
    expect(store.get("parley:demo")).toEqual({ sessionId: "wcs_2" });
    store.set("parley:demo", undefined);
    expect(store.get("parley:demo")).toBeUndefined();
    expect(createStore().get("parley:demo")).toBeUndefined();
  });

  it("keeps a write the area refuses later in memory, and reads that copy back", () => {
    const local = new Area();
    const store = createStore(() => local);
    store.set("parley:demo", { sessionId: "old" });
    local.refuseWrites = true;
    store.set("parley:demo", { sessionId: "new" });
    expect(store.get("parley:demo")).toEqual({ sessionId: "new" });
  });

  it("reads a malformed stored value as nothing", () => {
    const local = new Area();
    local.setItem("parley:demo", "{not json");
    expect(createStore(() => local).get("parley:demo")).toBeUndefined();
  });
});
