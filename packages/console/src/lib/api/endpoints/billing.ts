import { call, client } from "../request";
import type { Extra } from "./shared";

/** The space's credit balance, its ledger and the usage records (My account). */
export const billingEndpoints = {
  balance: (extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/credits", init)),
  ledger: (pageNo: number, pageSize: number, extra: Extra = {}) =>
    call({ dedupeKey: "credit-ledger", ...extra }, (init) => client.GET("/api/v1/credits/ledger", { ...init, params: { query: { pageNo, pageSize } } })),
  usage: (pageNo: number, pageSize: number, extra: Extra = {}) =>
    call({ dedupeKey: "usage-records", ...extra }, (init) => client.GET("/api/v1/usage-records", { ...init, params: { query: { pageNo, pageSize } } })),
};
