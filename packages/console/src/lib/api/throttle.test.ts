import { describe, expect, it } from "vitest";
import { createThrottle, LOGIN_WARNING_INTERVAL_MS, NETWORK_WARNING_INTERVAL_MS } from "./throttle";

describe("createThrottle", () => {
  it("opens once, stays shut inside the window and reopens after it", () => {
    let clock = 10_000;
    const gate = createThrottle(NETWORK_WARNING_INTERVAL_MS, () => clock);
    expect(gate()).toBe(true);
    clock += 1000;
    expect(gate()).toBe(false);
    clock += 1999;
    expect(gate()).toBe(false);
    clock += 1;
    expect(gate()).toBe(true);
  });

  it("measures the window from the last opening, not the last attempt", () => {
    let clock = 0;
    const gate = createThrottle(LOGIN_WARNING_INTERVAL_MS, () => clock);
    expect(gate()).toBe(true);
    for (let step = 0; step < 9; step += 1) {
      clock += 100;
      expect(gate()).toBe(false);
    }
    clock += 100;
    expect(gate()).toBe(true);
  });

  it("opens on the very first call even at time zero", () => {
    const gate = createThrottle(1000, () => 0);
    expect(gate()).toBe(true);
    expect(gate()).toBe(false);
  });
});
