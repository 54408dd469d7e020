import { describe, expect, it } from "vitest";
import { decideGuard, isRouteAuthorised } from "./guard";

const restricted = { authorizedRoute: true, authorizedRouteList: ["/console/knowledge", "/console/agents"] };

describe("decideGuard", () => {
  it("lets anyone through public pages", () => {
    for (const pathname of ["/home", "/square", "/login", "/404", "/console/price", "/web/agent/c1"]) {
      expect(decideGuard({ pathname, token: undefined, user: undefined })).toEqual({ kind: "allow" });
    }
  });

  it("sends guests on console pages to login, remembering where they were going", () => {
    expect(decideGuard({ pathname: "/console/account", search: "?tab=keys", token: undefined, user: undefined })).toEqual({
      kind: "login",
      returnTo: "/console/account?tab=keys",
    });
  });

  it("allows every console page to an unrestricted user", () => {
    const user = { authorizedRoute: false, authorizedRouteList: [] };
    expect(decideGuard({ pathname: "/console/teamSpace/roleEdit", token: "t", user })).toEqual({ kind: "allow" });
  });

  it("allows a restricted user inside their list, including sub-pages", () => {
    expect(decideGuard({ pathname: "/console/agents", token: "t", user: restricted })).toEqual({ kind: "allow" });
    expect(decideGuard({ pathname: "/console/knowledge/knowledgeManage/baseFile", token: "t", user: restricted })).toEqual({ kind: "allow" });
  });

  it("redirects a restricted user outside their list to the first allowed page", () => {
    expect(decideGuard({ pathname: "/console/analysis", token: "t", user: restricted })).toEqual({
      kind: "redirect",
      to: "/console/knowledge",
    });
  });

  it("opens a menu's pages that live outside its route (creating and editing apps, one workflow)", () => {
    expect(decideGuard({ pathname: "/console/createApp", token: "t", user: restricted })).toEqual({ kind: "allow" });
    expect(decideGuard({ pathname: "/console/agent/app_1/edit", token: "t", user: restricted })).toEqual({ kind: "allow" });
    expect(decideGuard({ pathname: "/console/workflow/wf_1", token: "t", user: restricted })).toEqual({ kind: "redirect", to: "/console/knowledge" });
    const builder = { authorizedRoute: true, authorizedRouteList: ["/console/workflows"] };
    expect(decideGuard({ pathname: "/console/workflow/wf_1", token: "t", user: builder })).toEqual({ kind: "allow" });
  });

  it("does not treat a shared text prefix as a sub-page", () => {
    const user = { authorizedRoute: true, authorizedRouteList: ["/console/clients"] };
    expect(decideGuard({ pathname: "/console/clientsExtra", token: "t", user })).toEqual({
      kind: "redirect",
      to: "/console/clients",
    });
  });

  it("refuses when the list grants nothing", () => {
    const user = { authorizedRoute: true, authorizedRouteList: [] };
    expect(decideGuard({ pathname: "/console/agents", token: "t", user })).toEqual({ kind: "forbidden" });
  });

  it("keeps templates and the account page open to restricted members", () => {
    expect(isRouteAuthorised("/console/templates", [])).toBe(true);
    expect(isRouteAuthorised("/console/template/abc", [])).toBe(true);
    expect(isRouteAuthorised("/console/account", [])).toBe(true);
  });
});
