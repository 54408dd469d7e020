import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { authenticate } from "../identity/service/sessions";
import type { Auth } from "../kernel";
import { PERIOD_PAID_MONTHS, planCatalogue, spacePlanOf } from "../billing/service/plans";
import { ServiceError } from "../errors";
import type { AppEnv } from "../http/context";
import { ok, serviceErrorResponse } from "../http/envelope";
import { defineRoute, idParam, jsonBody } from "../http/openapi";
import { paymentProviders } from "./providers/index";
import { adminOrderListQuery, catalogueSchema, createOrderBody, manualGrantBody, orderListQuery, orderPageSchema, orderSchema, refundBody } from "./schemas";
import { cancelOrder, createOrder, getOrder, grantManually, listAllOrders, listOrders, receiveNotification, refundOrder } from "./service/orders";
import { CREDIT_PACKS } from "./service/products";
import { adminRoute } from "../instance/routes";

const tags = ["Payments"];
const orderParam = idParam("orderId", "ord_01jd7w3k5q9x2m4n6p8r");
const adminOnly = { 403: "Only the instance administrator grants and refunds" };

/** Notification endpoints: the providers post here in their own formats. */
export const PAYMENT_NOTIFY_PATH = /^\/api\/v1\/payments\/[^/]+\/notify$/;

/** The caller when a valid bearer came along; a guest (or an ended session) is null. */
async function optionalAuth(c: Context<AppEnv>): Promise<Auth | null> {
  const token = /^Bearer\s+(\S+)$/i.exec(c.req.header("authorization") ?? "")?.[1];
  if (!token) return null;
  try {
    return await authenticate(c.var.deps, token, c.req.header("x-parley-space")?.trim() || undefined);
  } catch (error) {
    if (error instanceof ServiceError) return null;
    throw error;
  }
}

/** Products, orders, provider notifications, and the administrator's grants and refunds. */
export function registerPaymentRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/payments/catalogue",
      tags,
      summary: "Plans, credit packs and payment providers on sale here, and the space's current plan",
      description: "Public, as the price page is; signed in (bearer), `current` is the current space's plan, else null.",
      public: true,
      data: catalogueSchema,
    }),
    async (c) => {
      const deps = c.var.deps;
      const plans = await planCatalogue(deps);
      const auth = await optionalAuth(c);
      const current = auth ? await spacePlanOf(deps, auth.spaceId) : null;
      return ok(c, {
        plans: plans.map((plan) => ({
          code: plan.code,
          grade: plan.grade,
          monthlyPrices: plan.monthlyPrices,
          yearlyPrices: { CNY: plan.monthlyPrices.CNY * PERIOD_PAID_MONTHS.year, USD: plan.monthlyPrices.USD * PERIOD_PAID_MONTHS.year },
          includedCredits: plan.includedCredits,
          quotas: { ...plan.quotas },
          offered: plan.offered,
        })),
        packs: CREDIT_PACKS.map((pack) => ({ ...pack, prices: { ...pack.prices } })),
        providers: [...paymentProviders(deps).values()].map((provider) => ({
          name: provider.name,
          currency: provider.currency,
          kind: provider.name === "stripe" ? ("redirect" as const) : ("qr" as const),
        })),
        salesEmail: deps.config.payments.salesEmail ?? null,
        current: current ? { code: current.code, period: current.period, expiresAt: current.expiresAt } : null,
      });
    },
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/orders",
      tags,
      status: 201,
      summary: "Open an order and get where to pay (owner or admin)",
      description:
        "The amount and currency come from the catalogue and the provider's currency. The order becomes paid only by the provider's verified notification.",
      request: { body: jsonBody(createOrderBody) },
      data: orderSchema,
      extraErrors: { 403: "Only the owner or an admin buys for the space", 502: "The payment provider refused" },
    }),
    async (c) => ok(c, await createOrder(c.var.deps, c.var.auth, c.req.valid("json")), 201),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/orders",
      tags,
      summary: "The space's payment records, newest first",
      request: { query: orderListQuery },
      data: orderPageSchema,
    }),
    async (c) => ok(c, await listOrders(c.var.deps, c.var.auth, c.req.valid("query"))),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/orders/{orderId}",
      tags,
      summary: "One order of the space (polled while paying)",
      request: { params: orderParam },
      data: orderSchema,
    }),
    async (c) => ok(c, await getOrder(c.var.deps, c.var.auth, c.req.valid("param").orderId)),
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/orders/{orderId}/cancel",
      tags,
      summary: "Close an unpaid order (owner or admin)",
      request: { params: orderParam },
      data: orderSchema,
      extraErrors: { 403: "Only the owner or an admin", 409: "The order is no longer open" },
    }),
    async (c) => ok(c, await cancelOrder(c.var.deps, c.var.auth, c.req.valid("param").orderId)),
  );

  app.openapi(
    adminRoute({
      method: "get",
      path: "/api/v1/instance/orders",
      tags,
      summary: "Every order of the instance (administrator only)",
      request: { query: adminOrderListQuery },
      data: orderPageSchema,
      extraErrors: adminOnly,
    }),
    async (c) => ok(c, await listAllOrders(c.var.deps, c.req.valid("query"))),
  );

  app.openapi(
    adminRoute({
      method: "post",
      path: "/api/v1/instance/orders",
      tags,
      status: 201,
      summary: "Grant a plan period or credits to a space (administrator only)",
      description: "Recorded as a fulfilled order of provider `manual`, with the administrator and the note.",
      request: { body: jsonBody(manualGrantBody) },
      data: orderSchema,
      extraErrors: adminOnly,
    }),
    async (c) => ok(c, await grantManually(c.var.deps, c.var.auth, c.req.valid("json")), 201),
  );

  app.openapi(
    adminRoute({
      method: "post",
      path: "/api/v1/instance/orders/{orderId}/refund",
      tags,
      summary: "Refund a fulfilled order and take back what it granted (administrator only)",
      request: { params: orderParam, body: jsonBody(refundBody) },
      data: orderSchema,
      extraErrors: { ...adminOnly, 409: "The order is not fulfilled", 502: "The payment provider refused" },
    }),
    async (c) => ok(c, await refundOrder(c.var.deps, c.var.auth, c.req.valid("param").orderId, c.req.valid("json").note)),
  );

  // Providers post in their own formats and check nothing of ours: their signature is the auth.
  app.post("/api/v1/payments/:provider/notify", async (c) => {
    try {
      const answer = await receiveNotification(c.var.deps, c.req.param("provider"), { headers: c.req.raw.headers, body: await c.req.text() });
      return new Response(answer.body === "" ? null : answer.body, { status: answer.status, headers: { "Content-Type": answer.contentType } });
    } catch (error) {
      if (error instanceof ServiceError) return serviceErrorResponse(c, error);
      throw error;
    }
  });
}
