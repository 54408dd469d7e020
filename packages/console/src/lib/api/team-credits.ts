import type { components } from "@parley/sdk";
import { call, client, type CallOptions } from "./request";

type Schemas = components["schemas"];
type Extra = Pick<CallOptions, "silent" | "signal" | "dedupeKey">;

/** The space's balance, allocated and unallocated credits and each member's allocation (sumCompanyBalance). */
export type TeamCredits = Schemas["TeamCredits"];
/** One member's allocation and spending. */
export type MemberCredits = Schemas["MemberCredits"];
/** The caller's own allocation in the current space. */
export type MyCredits = Schemas["MyCredits"];
/** The members quota of the plan (getUseMemberPrivilege). */
export type MemberPrivilege = Schemas["MemberPrivilege"];
/** What more seats cost (getUseMemberPrivilegeCost). */
export type MemberPrivilegeCost = Schemas["MemberPrivilegeCost"];

/** The enterprise-credit calls of a team space (issue 16), through the SDK and the request layer. */
export const teamCreditsEndpoints = {
  summary: (extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/team/credits", init)),
  mine: (extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/team/credits/me", init)),
  /** Sets a member's allocation to `amount` (not an increment); silent so the dialog shows why it was refused. */
  allocate: (body: { userId: string; amount: number }, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.POST("/api/v1/team/credits/allocations", { ...init, body })),
  memberPrivilege: (extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/team/member-privilege", init)),
  memberPrivilegeCost: (extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/team/member-privilege/cost", init)),
};
