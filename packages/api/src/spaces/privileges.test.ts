import { describe, expect, it } from "vitest";
import { computePrivileges, gradeAtLeast, memberGrades, quotasFor } from "./service/privileges";

type Input = Parameters<typeof computePrivileges>[0];
const base: Input = { grade: "FREE", kind: "personal", role: "owner", customerAdminFlag: false, authorizedRoutes: null };

function visible(input: Partial<Input>): string[] {
  return computePrivileges({ ...base, ...input })
    .menus.filter((menu) => menu.visible)
    .map((menu) => menu.key);
}

const always = ["apps", "knowledge", "database", "plugins", "workflow", "integrations", "account", "templates", "store"];

describe("computePrivileges (spec §6)", () => {
  it("lists every menu of the four groups with its route and plan hint", () => {
    const { menus } = computePrivileges(base);
    expect(menus.map((menu) => `${menu.group}:${menu.key}`)).toEqual([
      "create:apps",
      "create:knowledge",
      "create:database",
      "create:plugins",
      "create:workflow",
      "access:integrations",
      "access:clients",
      "access:customers",
      "access:chatManage",
      "manage:account",
      "manage:analysis",
      "manage:team",
      "manage:instance",
      "discover:templates",
      "discover:store",
    ]);
    const hints = Object.fromEntries(menus.filter((menu) => menu.hint).map((menu) => [menu.key, menu.hint]));
    // Menu hints: clients and dashboard Standard; chat management and team Pro.
    expect(hints).toEqual({ clients: "standard", analysis: "standard", chatManage: "pro", team: "pro" });
    expect(menus.find((menu) => menu.key === "clients")?.route).toBe("/console/clients");
  });

  it("FREE personal: gated entries stay closed, all quotas zero", () => {
    const privileges = computePrivileges(base);
    expect(privileges).toMatchObject({
      memberGrade: "FREE",
      clientManage: 0,
      customerManage: 0,
      memberNumber: 0,
      customerAdmin: "N",
      authorizedRoute: false,
      authorizedRouteList: [],
    });
    expect(visible({})).toEqual(always);
  });

  it("opens clients and dashboard when clientManage > 0 (NORMAL), chat management and team at PROFESSION", () => {
    expect(visible({ grade: "NORMAL" })).toEqual(expect.arrayContaining(["clients", "analysis"]));
    expect(visible({ grade: "NORMAL" })).not.toContain("chatManage");
    expect(visible({ grade: "NORMAL" })).not.toContain("team");
    expect(visible({ grade: "PROFESSION" })).toEqual(expect.arrayContaining(["clients", "analysis", "chatManage", "team"]));
  });

  it("decides by quota, not grade name, for non-enterprise users", () => {
    expect(visible({ overrides: { customerManage: 1 } })).toContain("chatManage");
    expect(visible({ grade: "PROFESSION", overrides: { clientManage: 0 } })).not.toContain("clients");
    // A team space always has room for members, so the team menu opens even on FREE.
    expect(quotasFor({ grade: "FREE", kind: "team" }).memberNumber).toBe(3);
    expect(visible({ kind: "team" })).toContain("team");
  });

  it("shows customers only with customerAdmin Y and customer permissions", () => {
    expect(computePrivileges({ ...base, grade: "PROFESSION" }).customerAdmin).toBe("Y");
    expect(visible({ grade: "PROFESSION" })).toContain("customers");
    // A member needs the flag; without customer quota nobody gets it.
    expect(computePrivileges({ ...base, grade: "PROFESSION", role: "member" }).customerAdmin).toBe("N");
    expect(visible({ grade: "PROFESSION", role: "member" })).not.toContain("customers");
    expect(visible({ grade: "PROFESSION", role: "member", customerAdminFlag: true })).toContain("customers");
    expect(visible({ grade: "NORMAL", role: "member", customerAdminFlag: true })).not.toContain("customers");
    expect(computePrivileges({ ...base, grade: "FREE", role: "admin" }).customerAdmin).toBe("N");
  });

  it("limits enterprise members with an authorised list to that list plus templates and store", () => {
    const routes = ["/console/agents", "/console/clients"];
    for (const grade of ["ENTERPRISE", "CUSTOM"] as const) {
      const privileges = computePrivileges({ ...base, grade, kind: "team", role: "member", authorizedRoutes: routes });
      expect(privileges.authorizedRoute).toBe(true);
      expect(privileges.authorizedRouteList).toEqual(routes);
      expect(privileges.menus.filter((menu) => menu.visible).map((menu) => menu.key)).toEqual(["apps", "clients", "templates", "store"]);
    }
  });

  it("does not restrict enterprise owners and admins, members without a list, or non-enterprise members", () => {
    const routes = ["/console/agents"];
    for (const role of ["owner", "admin"] as const) {
      const privileges = computePrivileges({ ...base, grade: "ENTERPRISE", kind: "team", role, authorizedRoutes: routes });
      expect(privileges.authorizedRoute).toBe(false);
      expect(privileges.authorizedRouteList).toEqual([]);
    }
    const open = computePrivileges({ ...base, grade: "ENTERPRISE", kind: "team", role: "member", authorizedRoutes: null });
    expect(open.authorizedRoute).toBe(false);
    // Enterprise grades see every gated entry regardless of quota (instance is the administrator's alone).
    expect(open.menus.filter((menu) => menu.key !== "customers" && menu.key !== "instance").every((menu) => menu.visible)).toBe(true);
    expect(computePrivileges({ ...base, grade: "PROFESSION", kind: "team", role: "member", authorizedRoutes: routes }).authorizedRoute).toBe(false);
    // An empty list leaves only templates and store.
    expect(visible({ grade: "ENTERPRISE", kind: "team", role: "member", authorizedRoutes: [] })).toEqual(["templates", "store"]);
  });

  it("shows the instance entry to the instance administrator only, whatever the grade or route list", () => {
    expect(visible({ grade: "CUSTOM" })).not.toContain("instance");
    expect(visible({ instanceAdmin: true })).toContain("instance");
    expect(visible({ grade: "ENTERPRISE", kind: "team", role: "member", authorizedRoutes: [], instanceAdmin: true })).toEqual([
      "instance",
      "templates",
      "store",
    ]);
  });

  it("applies quota overrides (CUSTOM plans)", () => {
    expect(computePrivileges({ ...base, grade: "CUSTOM", overrides: { memberNumber: 7 } })).toMatchObject({
      clientManage: 200,
      customerManage: 100,
      memberNumber: 7,
    });
  });
});

describe("plan ladder (spec §4)", () => {
  it("orders FREE < NORMAL < PROFESSION < ENTERPRISE < CUSTOM", () => {
    expect(memberGrades).toEqual(["FREE", "NORMAL", "PROFESSION", "ENTERPRISE", "CUSTOM"]);
    for (const grade of memberGrades) expect(gradeAtLeast(grade, "FREE")).toBe(true);
    expect(gradeAtLeast("FREE", "NORMAL")).toBe(false);
    expect(gradeAtLeast("NORMAL", "PROFESSION")).toBe(false);
    expect(gradeAtLeast("PROFESSION", "NORMAL")).toBe(true);
    expect(gradeAtLeast("PROFESSION", "ENTERPRISE")).toBe(false);
    expect(gradeAtLeast("CUSTOM", "ENTERPRISE")).toBe(true);
  });
});
