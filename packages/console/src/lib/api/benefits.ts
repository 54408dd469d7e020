import type { components } from "@parley/sdk";
import { call, client, type CallOptions } from "./request";

type Schemas = components["schemas"];
type Extra = Pick<CallOptions, "silent" | "signal" | "dedupeKey">;

/** Today's check-in. */
export type CheckInStatus = Schemas["CheckInStatus"];
/** The caller's benefits account. */
export type BenefitsAccount = Schemas["BenefitsAccount"];
/** A cash-out request. */
export type CashOut = Schemas["CashOut"];
/** A cash-out request as the administrator reviews it. */
export type CashOutForReview = Schemas["CashOutForReview"];
/** The balance alert of a space. */
export type BalanceAlert = Schemas["BalanceAlert"];
/** Where a balance alert's notice goes. */
export type AlertChannel = BalanceAlert["channels"][number];

const page = (pageNo: number, pageSize: number) => ({ pageNo, pageSize });

/** Earned credits, benefits, balance alerts and billing rules, through the SDK and the request layer. */
export const benefitsEndpoints = {
  checkInStatus: (extra: Extra = {}) => call({ dedupeKey: "check-in", ...extra }, (init) => client.GET("/api/v1/check-in", init)),
  checkIn: (extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/check-in", init)),
  invitation: (extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/invitation", init)),
  invitations: (pageNo: number, pageSize: number, extra: Extra = {}) =>
    call({ dedupeKey: "invitations", ...extra }, (init) => client.GET("/api/v1/invitations", { ...init, params: { query: page(pageNo, pageSize) } })),
  account: (extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/benefits", init)),
  ledger: (pageNo: number, pageSize: number, extra: Extra = {}) =>
    call({ dedupeKey: "benefit-ledger", ...extra }, (init) => client.GET("/api/v1/benefits/ledger", { ...init, params: { query: page(pageNo, pageSize) } })),
  cashOuts: (extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/cash-outs", { ...init, params: { query: page(1, 100) } })),
  requestCashOut: (body: Schemas["CashOutRequest"], extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/cash-outs", { ...init, body })),
  balanceAlert: (extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/balance-alert", init)),
  saveBalanceAlert: (body: Schemas["BalanceAlertRequest"], extra: Extra = {}) => call(extra, (init) => client.PUT("/api/v1/balance-alert", { ...init, body })),
  billingRules: (extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/billing-rules", init)),
  notices: (extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/notices", { ...init, params: { query: page(1, 20) } })),
  readNotice: (noticeId: string, extra: Extra = {}) =>
    call(extra, (init) => client.POST("/api/v1/notices/{noticeId}/read", { ...init, params: { path: { noticeId } } })),
  /** The administrator's review list and decisions. */
  reviewCashOuts: (status: CashOut["status"] | undefined, extra: Extra = {}) =>
    call({ dedupeKey: "review-cash-outs", ...extra }, (init) =>
      client.GET("/api/v1/instance/cash-outs", { ...init, params: { query: { ...page(1, 100), ...(status ? { status } : {}) } } }),
    ),
  decideCashOut: (cashOutId: string, decision: "approve" | "refuse", note: string | undefined, extra: Extra = {}) =>
    call(extra, (init) =>
      decision === "approve"
        ? client.POST("/api/v1/instance/cash-outs/{cashOutId}/approve", { ...init, params: { path: { cashOutId } }, body: note ? { note } : {} })
        : client.POST("/api/v1/instance/cash-outs/{cashOutId}/refuse", { ...init, params: { path: { cashOutId } }, body: note ? { note } : {} }),
    ),
  adjustCredits: (spaceId: string, body: Schemas["CreditAdjustmentRequest"], extra: Extra = {}) =>
    call(extra, (init) => client.POST("/api/v1/instance/spaces/{spaceId}/credits", { ...init, params: { path: { spaceId } }, body })),
};
