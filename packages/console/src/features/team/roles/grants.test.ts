import { describe, expect, it } from "vitest";
import { toggleGrant } from "./grants";

describe("toggleGrant", () => {
  it("ticks view with edit, and clears edit with view", () => {
    expect([...toggleGrant(new Set(), "apps", "edit", true)].sort()).toEqual(["apps.edit", "apps.view"]);
    expect([...toggleGrant(new Set(["apps.view", "apps.edit", "team.view"]), "apps", "view", false)]).toEqual(["team.view"]);
    expect([...toggleGrant(new Set(["apps.view", "apps.edit"]), "apps", "edit", false)]).toEqual(["apps.view"]);
    expect([...toggleGrant(new Set(), "knowledge", "view", true)]).toEqual(["knowledge.view"]);
  });
});
