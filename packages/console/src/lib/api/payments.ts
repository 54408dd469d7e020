import type { components } from "@parley/sdk";
import { call, client, type CallOptions } from "./request";

type Schemas = components["schemas"];
type Extra = Pick<CallOptions, "silent" | "signal" | "dedupeKey">;

/** An order (a payment record). */
export type Order = Schemas["Order"];
/** A page of orders. */
export type OrderPage = Schemas["OrderPage"];
/** Plans, packs and providers on sale, and the current plan. */
export type PaymentCatalogue = Schemas["PaymentCatalogue"];
/** What an order sells. */
export type Product = Schemas["Product"];
/** A payment provider's name. */
export type ProviderName = Schemas["CreateOrderRequest"]["provider"];

const byOrder = (orderId: string) => ({ params: { path: { orderId } } });

/** The price page's, recharge's and payment records' calls, and the administrator's grants and refunds. */
export const paymentEndpoints = {
  /** Public, like the price page; signed in it also tells the current plan. */
  catalogue: (signedIn: boolean, extra: Extra = {}) => call({ public: !signedIn, ...extra }, (init) => client.GET("/api/v1/payments/catalogue", init)),
  createOrder: (body: Schemas["CreateOrderRequest"], extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/orders", { ...init, body })),
  order: (orderId: string, extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/orders/{orderId}", { ...init, ...byOrder(orderId) })),
  cancelOrder: (orderId: string, extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/orders/{orderId}/cancel", { ...init, ...byOrder(orderId) })),
  orders: (pageNo: number, pageSize: number, extra: Extra = {}) =>
    call({ dedupeKey: "orders", ...extra }, (init) => client.GET("/api/v1/orders", { ...init, params: { query: { pageNo, pageSize } } })),
  instanceOrders: (pageNo: number, pageSize: number, extra: Extra = {}) =>
    call({ dedupeKey: "instance-orders", ...extra }, (init) => client.GET("/api/v1/instance/orders", { ...init, params: { query: { pageNo, pageSize } } })),
  grant: (body: Schemas["ManualGrantRequest"], extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/instance/orders", { ...init, body })),
  refund: (orderId: string, body: Schemas["RefundRequest"], extra: Extra = {}) =>
    call(extra, (init) => client.POST("/api/v1/instance/orders/{orderId}/refund", { ...init, ...byOrder(orderId), body })),
};
