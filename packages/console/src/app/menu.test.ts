import { describe, expect, it } from "vitest";
import { activeMenuKey, buildMenu, MENU_CATALOGUE, type MenuFacts } from "./menu";

const base: MenuFacts = {
  memberGrade: "FREE",
  authorizedRoute: false,
  authorizedRouteList: [],
  clientManage: 0,
  customerManage: 0,
  memberNumber: 0,
  customerAdmin: "N",
};

function keys(facts: MenuFacts | undefined): string[] {
  return buildMenu(facts).flatMap((section) => section.entries.map((entry) => entry.key));
}

describe("buildMenu", () => {
  it("hides clients, chat management, team and customers from a plain free user", () => {
    expect(keys(base)).toEqual(["apps", "knowledge", "database", "plugins", "workflow", "integrations", "account", "dashboard", "templates", "store"]);
  });

  it("shows clients, chat management and team when their counters exceed zero", () => {
    const result = keys({ ...base, clientManage: 1, customerManage: 2, memberNumber: 3 });
    expect(result).toContain("clients");
    expect(result).toContain("chatManage");
    expect(result).toContain("team");
  });

  it("shows customers only to customer admins", () => {
    expect(keys({ ...base, customerAdmin: "Y" })).toContain("customers");
  });

  it("limits restricted enterprise members to their list plus templates and store", () => {
    const result = keys({ ...base, memberGrade: "ENTERPRISE", authorizedRoute: true, authorizedRouteList: ["/console/knowledge", "/console/clients"] });
    expect(result).toEqual(["knowledge", "clients", "templates", "store"]);
  });

  it("limits a member whose role lacks grants to their list on any plan, within the plan's gates", () => {
    const result = keys({
      ...base,
      memberGrade: "FREE",
      authorizedRoute: true,
      authorizedRouteList: ["/console/agents", "/console/clients", "/console/templates", "/home"],
    });
    expect(result).toEqual(["apps", "templates", "store"]);
  });

  it("gives unrestricted enterprise members the whole menu except customers", () => {
    const result = keys({ ...base, memberGrade: "ENTERPRISE" });
    expect(result).toEqual(MENU_CATALOGUE.map((entry) => entry.key).filter((key) => key !== "customers" && key !== "instance"));
  });

  it("shows the instance entry only when the server lists it as visible, whatever the grade or route list", () => {
    const instance = { key: "instance", group: "manage" as const, route: "/console/instance" };
    expect(keys({ ...base, memberGrade: "CUSTOM" })).not.toContain("instance");
    expect(keys({ ...base, menus: [{ ...instance, visible: false }] })).not.toContain("instance");
    expect(keys({ ...base, menus: [{ ...instance, visible: true }] })).toContain("instance");
    const restricted = { ...base, memberGrade: "ENTERPRISE" as const, authorizedRoute: true, authorizedRouteList: [] };
    expect(keys({ ...restricted, menus: [{ ...instance, visible: true }] })).toEqual(["instance", "templates", "store"]);
  });

  it("keeps the plan hints only while the plan is below them", () => {
    const hints = (facts: MenuFacts) =>
      Object.fromEntries(buildMenu(facts).flatMap((section) => section.entries.filter((entry) => entry.hint).map((entry) => [entry.key, entry.hint])));
    const unlocked = { ...base, clientManage: 1, customerManage: 1, memberNumber: 1 };
    expect(hints(unlocked)).toEqual({ clients: "standard", dashboard: "standard", chatManage: "pro", team: "pro" });
    expect(hints({ ...unlocked, memberGrade: "NORMAL" })).toEqual({ chatManage: "pro", team: "pro" });
    expect(hints({ ...unlocked, memberGrade: "PROFESSION" })).toEqual({});
  });

  it("lets the server hide an entry and change its hint", () => {
    const facts: MenuFacts = {
      ...base,
      menus: [
        { key: "database", group: "create", route: "/console/database", visible: false },
        { key: "plugins", group: "create", route: "/console/plugins", visible: true, hint: "pro" },
      ],
    };
    const entries = buildMenu(facts).flatMap((section) => section.entries);
    expect(entries.find((entry) => entry.key === "database")).toBeUndefined();
    expect(entries.find((entry) => entry.key === "plugins")?.hint).toBe("pro");
  });

  it("groups entries in the order create, access, manage, discover", () => {
    expect(buildMenu(base).map((section) => section.group)).toEqual(["create", "access", "manage", "discover"]);
  });
});

describe("activeMenuKey", () => {
  it("finds the entry for nested pages", () => {
    expect(activeMenuKey("/console/knowledge/knowledgeManage/baseFile", MENU_CATALOGUE)).toBe("knowledge");
    expect(activeMenuKey("/console/customManage/tagList", MENU_CATALOGUE)).toBe("customers");
    expect(activeMenuKey("/console/createApp", MENU_CATALOGUE)).toBeUndefined();
  });
});
