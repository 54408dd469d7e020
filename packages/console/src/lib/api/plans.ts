import type { components } from "@parley/sdk";
import { call, client, type CallOptions } from "./request";

type Schemas = components["schemas"];
type Extra = Pick<CallOptions, "silent" | "signal" | "dedupeKey">;

/** A plan of the catalogue as sold on this instance. */
export type Plan = Schemas["Plan"];
/** The current space's plan and its use of every quota. */
export type SpacePlan = Schemas["SpacePlan"];
/** One quota's use. */
export type QuotaUsage = Schemas["QuotaUsage"];
/** The administrator's edit of a plan. */
export type UpdatePlan = Schemas["UpdatePlanRequest"];
/** A plan's code. */
export type PlanCode = Plan["code"];
/** A quota's name. */
export type QuotaKey = QuotaUsage["quota"];

/** The plan calls the console makes (issue 15), through the SDK and the request layer. */
export const plansEndpoints = {
  catalogue: (extra: Extra = {}) => call({ public: true, ...extra }, (init) => client.GET("/api/v1/plans", init)),
  current: (extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/plans/current", init)),
  update: (code: PlanCode, body: UpdatePlan, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.PATCH("/api/v1/instance/plans/{code}", { ...init, params: { path: { code } }, body })),
};
