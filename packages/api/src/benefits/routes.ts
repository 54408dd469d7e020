import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";
import { ok } from "../http/envelope";
import { defineRoute, idParam, jsonBody } from "../http/openapi";
import { pageQuerySchema } from "../http/schemas";
import { defaultModelPrice, modelPrices } from "../models/pricing";
import {
  adjustmentBody,
  adjustmentResultSchema,
  balanceAlertBody,
  balanceAlertSchema,
  benefitMovementSchema,
  benefitsAccountSchema,
  billingRulesSchema,
  cashOutBody,
  cashOutDecisionBody,
  cashOutSchema,
  checkInResultSchema,
  checkInStatusSchema,
  invitationSchema,
  invitedSchema,
  noticePageSchema,
  reviewedCashOutSchema,
} from "./schemas";
import { adjustCredits } from "./service/adjustments";
import { getBalanceAlert, listNotices, markNoticeRead, putBalanceAlert } from "./service/alerts";
import { decideCashOut, listCashOuts, listMyCashOuts, requestCashOut } from "./service/cash-outs";
import { checkIn, checkInStatus } from "./service/check-in";
import { benefitsAccount, listBenefits } from "./service/creator";
import { listInvitations, myInvitation } from "./service/invitations";
import { adminRoute } from "../instance/routes";

function page(query: { pageNo?: number | undefined; pageSize?: number | undefined }) {
  const size = Math.min(100, query.pageSize ?? 20);
  return { limit: size, offset: ((query.pageNo ?? 1) - 1) * size };
}

const adminOnly = { 403: "Only the instance administrator" };

/** Earned credits: check-in, invitations, creator benefits and cash-outs, balance alerts, notices and billing rules; the administrator's reviews and adjustments. */
export function registerBenefitRoutes(app: OpenAPIHono<AppEnv>) {
  const tags = ["Benefits"];

  app.openapi(defineRoute({ method: "get", path: "/api/v1/check-in", tags, summary: "Today's check-in of the caller", data: checkInStatusSchema }), async (c) =>
    ok(c, await checkInStatus(c.var.deps, c.var.auth)),
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/check-in",
      tags,
      summary: "Check in for today: random credits to the personal space",
      description: "Once per user per calendar day of the instance's time zone (PARLEY_TIME_ZONE); a second check-in the same day answers 409.",
      data: checkInResultSchema,
      extraErrors: { 409: "Already checked in today" },
    }),
    async (c) => ok(c, await checkIn(c.var.deps, c.var.auth)),
  );

  app.openapi(
    defineRoute({ method: "get", path: "/api/v1/invitation", tags, summary: "The caller's invitation link and what it earned", data: invitationSchema }),
    async (c) => ok(c, await myInvitation(c.var.deps, c.var.auth)),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/invitations",
      tags,
      summary: "People who registered through the caller's link, newest first",
      request: { query: pageQuerySchema },
      data: z.array(invitedSchema),
    }),
    async (c) => ok(c, await listInvitations(c.var.deps, c.var.auth, page(c.req.valid("query")))),
  );

  app.openapi(
    defineRoute({ method: "get", path: "/api/v1/benefits", tags, summary: "The caller's benefits account", data: benefitsAccountSchema }),
    async (c) => ok(c, await benefitsAccount(c.var.deps, c.var.auth)),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/benefits/ledger",
      tags,
      summary: "Movements of the caller's benefits account, newest first",
      request: { query: pageQuerySchema.extend({ reason: z.enum(["creator"]).optional() }) },
      data: z.array(benefitMovementSchema),
    }),
    async (c) => {
      const query = c.req.valid("query");
      return ok(c, await listBenefits(c.var.deps, c.var.auth, { ...page(query), reason: query.reason }));
    },
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/cash-outs",
      tags,
      summary: "The caller's cash-out requests, newest first",
      request: { query: pageQuerySchema },
      data: z.array(cashOutSchema),
    }),
    async (c) => ok(c, await listMyCashOuts(c.var.deps, c.var.auth, page(c.req.valid("query")))),
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/cash-outs",
      tags,
      status: 201,
      summary: "Ask to cash out benefits (held until the administrator decides)",
      description: "An amount above the benefits balance is refused (400 naming `amount`) and nothing is held.",
      request: { body: jsonBody(cashOutBody) },
      data: cashOutSchema,
    }),
    async (c) => ok(c, await requestCashOut(c.var.deps, c.var.auth, c.req.valid("json")), 201),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/balance-alert",
      tags: ["Credits"],
      summary: "The balance alert of the current space",
      data: balanceAlertSchema,
    }),
    async (c) => ok(c, await getBalanceAlert(c.var.deps, c.var.auth)),
  );

  app.openapi(
    defineRoute({
      method: "put",
      path: "/api/v1/balance-alert",
      tags: ["Credits"],
      summary: "Set the balance alert of the current space (owner or admin)",
      description:
        "The threshold is required. Crossing it downwards sends one notice on each chosen channel; the next one waits until the balance has risen to the threshold again.",
      request: { body: jsonBody(balanceAlertBody) },
      data: balanceAlertSchema,
      extraErrors: { 403: "Only the owner or an admin" },
    }),
    async (c) => ok(c, await putBalanceAlert(c.var.deps, c.var.auth, c.req.valid("json"))),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/notices",
      tags: ["Notices"],
      summary: "The caller's in-app notices, newest first",
      request: { query: pageQuerySchema },
      data: noticePageSchema,
    }),
    async (c) => ok(c, await listNotices(c.var.deps, c.var.auth, page(c.req.valid("query")))),
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/notices/{noticeId}/read",
      tags: ["Notices"],
      summary: "Mark a notice read",
      request: { params: idParam("noticeId", "ntc_01jd7w3k5q9x2m4n6p8r") },
      data: z.object({ id: z.string(), readAt: z.string() }),
    }),
    async (c) => ok(c, await markNoticeRead(c.var.deps, c.var.auth, c.req.valid("param").noticeId)),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/billing-rules",
      tags: ["Credits"],
      summary: "The model price table chat turns are charged by",
      data: billingRulesSchema,
    }),
    async (c) =>
      ok(c, {
        prices: Object.entries(modelPrices).map(([model, price]) => ({ model, prompt: price.prompt, completion: price.completion })),
        defaultPrice: defaultModelPrice,
      }),
  );

  const adminTags = ["Instance"];
  app.openapi(
    adminRoute({
      method: "get",
      path: "/api/v1/instance/cash-outs",
      tags: adminTags,
      summary: "Cash-out requests to review (administrator only)",
      request: { query: pageQuerySchema.extend({ status: z.enum(["requested", "approved", "refused"]).optional() }) },
      data: z.array(reviewedCashOutSchema),
      extraErrors: adminOnly,
    }),
    async (c) => {
      const query = c.req.valid("query");
      return ok(c, await listCashOuts(c.var.deps, { ...page(query), status: query.status }));
    },
  );

  for (const decision of ["approve", "refuse"] as const) {
    app.openapi(
      adminRoute({
        method: "post",
        path: `/api/v1/instance/cash-outs/{cashOutId}/${decision}`,
        tags: adminTags,
        summary:
          decision === "approve"
            ? "Approve a cash-out (administrator only)"
            : "Refuse a cash-out: the amount returns to the benefits account (administrator only)",
        request: { params: idParam("cashOutId", "cash_01jd7w3k5q9x2m4n6p8r"), body: jsonBody(cashOutDecisionBody) },
        data: cashOutSchema,
        extraErrors: { ...adminOnly, 409: "Already decided" },
      }),
      async (c) =>
        ok(
          c,
          await decideCashOut(c.var.deps, c.var.auth, c.req.valid("param").cashOutId, {
            decision: decision === "approve" ? "approved" : "refused",
            note: c.req.valid("json").note,
          }),
        ),
    );
  }

  app.openapi(
    adminRoute({
      method: "post",
      path: "/api/v1/instance/spaces/{spaceId}/credits",
      tags: adminTags,
      summary: "Adjust a space's credits (administrator only)",
      description: "Positive adds, negative removes; the balance never goes below zero. The note is kept with the movement.",
      request: { params: idParam("spaceId", "spc_01jd7w3k5q9x2m4n6p8r"), body: jsonBody(adjustmentBody) },
      data: adjustmentResultSchema,
      extraErrors: adminOnly,
    }),
    async (c) => ok(c, await adjustCredits(c.var.deps, c.var.auth, c.req.valid("param").spaceId, c.req.valid("json"))),
  );
}
