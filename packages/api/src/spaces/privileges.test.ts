import { describe, expect, it } from "vitest";
import { allGrants } from "../access/resources";
import { systemRoles } from "../access/roles";
import { computePrivileges, gradeAtLeast, memberGrades, quotasFor } from "./service/privileges";

type Input = Parameters<typeof computePrivileges>[0];
const base: Input = { grade: "FREE", kind: "personal", grants: new Set(allGrants) };
const grantsOf = (...grants: string[]) => new Set(grants);

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

  it("shows customers only with customerAdmin Y: the role holds customers.view and the plan gives chat seats", () => {
    expect(computePrivileges({ ...base, grade: "PROFESSION" }).customerAdmin).toBe("Y");
    expect(visible({ grade: "PROFESSION" })).toContain("customers");
    // A member needs customers.view; without customer quota nobody gets it.
    expect(computePrivileges({ ...base, grade: "PROFESSION", grants: grantsOf("apps.view") }).customerAdmin).toBe("N");
    expect(visible({ grade: "PROFESSION", grants: grantsOf("apps.view") })).not.toContain("customers");
    expect(visible({ grade: "PROFESSION", grants: grantsOf("customers.view") })).toContain("customers");
    expect(visible({ grade: "NORMAL", grants: grantsOf("customers.view") })).not.toContain("customers");
    expect(computePrivileges({ ...base, grade: "FREE" }).customerAdmin).toBe("N");
  });

  it("shows a member only the menus their role holds view on, plus templates and store, within the plan", () => {
    const privileges = computePrivileges({ ...base, grade: "PROFESSION", kind: "team", grants: grantsOf("apps.view", "apps.edit", "clients.view") });
    expect(privileges.authorizedRoute).toBe(true);
    expect(privileges.authorizedRouteList).toEqual(["/console/agents", "/console/clients", "/console/templates", "/home"]);
    expect(privileges.menus.filter((menu) => menu.visible).map((menu) => menu.key)).toEqual(["apps", "clients", "templates", "store"]);
    // The plan still gates: a FREE space has no clients menu even for a role holding clients.view.
    expect(visible({ grade: "FREE", kind: "team", grants: grantsOf("apps.view", "clients.view") })).toEqual(["apps", "templates", "store"]);
    // A role without any grant keeps templates and store.
    expect(visible({ grade: "ENTERPRISE", kind: "team", grants: grantsOf() })).toEqual(["templates", "store"]);
    expect(computePrivileges({ ...base, kind: "team", grants: grantsOf() }).authorizedRouteList).toEqual(["/console/templates", "/home"]);
  });

  it("gives each system role its menus: owner and admin everything the plan gives, the others their resources", () => {
    const shown = (key: keyof typeof systemRoles) => visible({ grade: "ENTERPRISE", kind: "team", grants: new Set(systemRoles[key].grants) });
    const everything = [
      "apps",
      "knowledge",
      "database",
      "plugins",
      "workflow",
      "integrations",
      "clients",
      "customers",
      "chatManage",
      "account",
      "analysis",
      "team",
      "templates",
      "store",
    ];
    expect(shown("owner")).toEqual(everything);
    expect(shown("admin")).toEqual(everything);
    expect(shown("viewer")).toEqual(everything);
    expect(shown("developer")).toEqual(["apps", "knowledge", "database", "plugins", "workflow", "integrations", "clients", "analysis", "templates", "store"]);
    expect(shown("operator")).toEqual(["apps", "knowledge", "clients", "customers", "chatManage", "analysis", "templates", "store"]);
    for (const key of ["owner", "admin"] as const) {
      expect(computePrivileges({ ...base, grade: "ENTERPRISE", kind: "team", grants: new Set(systemRoles[key].grants) }).authorizedRoute).toBe(false);
    }
    for (const key of ["developer", "operator", "viewer"] as const) {
      expect(computePrivileges({ ...base, grade: "ENTERPRISE", kind: "team", grants: new Set(systemRoles[key].grants) }).authorizedRoute).toBe(true);
    }
    // Enterprise grades see every gated entry regardless of quota (instance is the administrator's alone).
    const open = computePrivileges({ ...base, grade: "ENTERPRISE", kind: "team" });
    expect(open.menus.filter((menu) => menu.key !== "instance").every((menu) => menu.visible)).toBe(true);
  });

  it("shows the instance entry to the instance administrator only, whatever the grade or role", () => {
    expect(visible({ grade: "CUSTOM" })).not.toContain("instance");
    expect(visible({ instanceAdmin: true })).toContain("instance");
    expect(visible({ grade: "ENTERPRISE", kind: "team", grants: grantsOf(), instanceAdmin: true })).toEqual(["instance", "templates", "store"]);
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
