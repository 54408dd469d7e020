import { randomInt } from "node:crypto";
import { and, count, desc, eq, inArray, lt, sql } from "drizzle-orm";
import { balanceOf } from "../../billing/service/ledger";
import { applyPlanGrant, type Currency, type PlanGrant, planGrantFor, planOf, revokePlanGrant } from "../../billing/service/plans";
import { moveCredits } from "../../benefits/service/credits";
import { newId } from "../../crypto";
import { orders, paymentEvents, spaces } from "../../db/schema/index";
import { fail, ServiceError } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import { paymentProviders } from "../providers/index";
import { NotificationRefused, type NotificationAnswer, type PaymentProvider, ProviderFailure, type ProviderName } from "../providers/port";
import { includedCreditsOf, type Product, priceProduct } from "./products";

type OrderRow = typeof orders.$inferSelect;

/** What fulfilment granted, and what a refund took back. */
export interface Granted {
  plan?: PlanGrant;
  /** Credits added to the ledger (a pack, or the plan's included credits). */
  credits: number;
  /**
   * False from when the grant is recorded until it has been applied: an order left fulfilled
   * with `applied: false` (or with no grant at all) by a crash is granted again at start-up.
   */
  applied?: boolean;
  refund?: { creditsReversed: number; creditsShort: number; providerReference?: string };
}

/** An order as the API shows it. */
export function orderView(row: OrderRow) {
  return {
    id: row.id,
    number: row.number,
    spaceId: row.spaceId,
    userId: row.userId,
    productType: row.productType,
    planCode: row.planCode,
    period: row.period,
    credits: row.credits,
    amount: row.amount,
    currency: row.currency,
    provider: row.provider,
    status: row.status,
    payUrl: row.status === "created" ? row.payUrl : null,
    providerReference: row.providerReference,
    granted: row.granted ? (JSON.parse(row.granted) as Granted) : null,
    note: row.note,
    actorUserId: row.actorUserId,
    createdAt: row.createdAt,
    paidAt: row.paidAt,
    fulfilledAt: row.fulfilledAt,
    closedAt: row.closedAt,
    refundedAt: row.refundedAt,
  };
}

/** Order numbers people can read out: PL, the UTC time to the second, six random digits. */
function orderNumber(now: Date): string {
  return `PL${now.toISOString().replace(/\D/g, "").slice(0, 14)}${String(randomInt(0, 1_000_000)).padStart(6, "0")}`;
}

/** What went wrong at a provider, in its own words or as the network said it. */
function providerDetail(error: unknown): string {
  if (error instanceof ProviderFailure) return error.detail;
  return error instanceof Error ? (error.name === "TimeoutError" ? "timeout" : error.message) : String(error);
}

function providerOf(deps: Pick<Deps, "config" | "now">, name: string): PaymentProvider {
  const provider = paymentProviders(deps).get(name as ProviderName);
  if (!provider) throw fail.invalid("payments_provider_unavailable", "provider", { provider: name });
  return provider;
}

function requireBuyer(auth: Auth) {
  if (auth.role !== "owner" && auth.role !== "admin") throw fail.forbidden("payments_buyer_role");
}

async function insertOrder(deps: Pick<Deps, "db" | "now">, values: Omit<typeof orders.$inferInsert, "id" | "number" | "updatedAt">): Promise<OrderRow> {
  const now = deps.now();
  for (let attempt = 0; ; attempt++) {
    try {
      const id = newId("ord");
      await deps.db.insert(orders).values({ ...values, id, number: orderNumber(now), createdAt: now.toISOString(), updatedAt: now.toISOString() });
      return (await deps.db.select().from(orders).where(eq(orders.id, id)).get())!;
    } catch (error) {
      // Two orders in the same second drew the same six digits: draw again.
      if (attempt < 3 && /UNIQUE/i.test(String((error as Error).message ?? error))) continue;
      throw error;
    }
  }
}

/**
 * Opens an order for the caller's space and asks the provider where to pay. The amount and
 * currency come from the catalogue and the provider, never from the caller.
 */
export async function createOrder(deps: Pick<Deps, "config" | "db" | "logger" | "now">, auth: Auth, input: { product: Product; provider: ProviderName }) {
  requireBuyer(auth);
  const provider = providerOf(deps, input.provider);
  const priced = await priceProduct(deps, input.product, provider.currency);
  const { description, ...columns } = priced;
  const row = await insertOrder(deps, { ...columns, spaceId: auth.spaceId, userId: auth.userId, provider: provider.name, status: "created" });
  try {
    const start = await provider.createPayment({
      number: row.number,
      amount: row.amount,
      currency: row.currency as Currency,
      description,
      notifyUrl: `${deps.config.publicUrl}/api/v1/payments/${provider.name}/notify`,
      returnUrl: `${deps.config.publicUrl}/console/price?order=${row.id}`,
    });
    await deps.db
      .update(orders)
      .set({ payUrl: start.payUrl, providerReference: start.reference ?? null, updatedAt: deps.now().toISOString() })
      .where(eq(orders.id, row.id));
  } catch (error) {
    await deps.db
      .update(orders)
      .set({ status: "closed", closedAt: deps.now().toISOString(), note: "provider refused", updatedAt: deps.now().toISOString() })
      .where(eq(orders.id, row.id));
    // Refused, unreachable or timed out: the caller is told, never a 500.
    const detail = providerDetail(error);
    deps.logger.warn("payment provider refused an order", { provider: provider.name, detail });
    throw new ServiceError("external", "payments_provider_failed", { detail });
  }
  return orderView((await deps.db.select().from(orders).where(eq(orders.id, row.id)).get())!);
}

/** Closes the space's unpaid orders older than the order lifetime (a late payment still fulfils). */
async function closeExpired(deps: Pick<Deps, "config" | "db" | "now">, spaceId: string) {
  const cutoff = new Date(deps.now().getTime() - deps.config.payments.orderTtlMinutes * 60_000).toISOString();
  const now = deps.now().toISOString();
  await deps.db
    .update(orders)
    .set({ status: "closed", closedAt: now, updatedAt: now })
    .where(and(eq(orders.spaceId, spaceId), eq(orders.status, "created"), lt(orders.createdAt, cutoff)));
}

/** The space's orders, newest first (its payment records). */
export async function listOrders(deps: Pick<Deps, "config" | "db" | "now">, auth: Auth, query: { pageNo?: number; pageSize?: number }) {
  await closeExpired(deps, auth.spaceId);
  const pageNo = query.pageNo ?? 1;
  const pageSize = Math.min(query.pageSize ?? 20, 100);
  const rows = await deps.db
    .select()
    .from(orders)
    .where(eq(orders.spaceId, auth.spaceId))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(pageSize)
    .offset((pageNo - 1) * pageSize);
  const total = (await deps.db.select({ n: count() }).from(orders).where(eq(orders.spaceId, auth.spaceId)).get())?.n ?? 0;
  return { records: rows.map(orderView), total, pageNo, pageSize };
}

async function orderInSpace(deps: Pick<Deps, "db">, auth: Auth, orderId: string): Promise<OrderRow> {
  const row = await deps.db
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.spaceId, auth.spaceId)))
    .get();
  if (!row) throw fail.notFound("order");
  return row;
}

/** One order of the caller's space; polled while the payer pays. */
export async function getOrder(deps: Pick<Deps, "config" | "db" | "now">, auth: Auth, orderId: string) {
  await orderInSpace(deps, auth, orderId);
  await closeExpired(deps, auth.spaceId);
  return orderView(await orderInSpace(deps, auth, orderId));
}

/** Closes an unpaid order (the payer gave up). */
export async function cancelOrder(deps: Pick<Deps, "db" | "now">, auth: Auth, orderId: string) {
  requireBuyer(auth);
  const row = await orderInSpace(deps, auth, orderId);
  const now = deps.now().toISOString();
  const changed = await deps.db
    .update(orders)
    .set({ status: "closed", closedAt: now, note: "cancelled", updatedAt: now })
    .where(and(eq(orders.id, row.id), eq(orders.status, "created")))
    .returning({ id: orders.id });
  if (changed.length === 0) throw fail.conflict("payments_order_not_open", { status: (await orderInSpace(deps, auth, orderId)).status });
  return orderView(await orderInSpace(deps, auth, orderId));
}

/**
 * Grants what a paid order bought, once: the conditional UPDATE paid → fulfilled lets exactly
 * one caller through, whoever else races it (a replayed or concurrent notification).
 */
async function fulfil(deps: Pick<Deps, "config" | "db" | "logger" | "mail" | "now" | "sms">, orderId: string): Promise<boolean> {
  const now = deps.now().toISOString();
  const claimed = await deps.db
    .update(orders)
    .set({ status: "fulfilled", fulfilledAt: now, updatedAt: now })
    .where(and(eq(orders.id, orderId), eq(orders.status, "paid")))
    .returning();
  const order = claimed[0];
  if (!order) return false;
  await grantOrder(deps, order);
  return true;
}

/**
 * Grants what a fulfilled order bought, in steps that can run again: the grant is recorded on
 * the order first (`applied: false`), then the plan is set to the state it records and the
 * credits are booked once per order, then the grant is marked applied. A crash anywhere leaves
 * an order that {@link recoverFulfilments} finishes, never one granted twice.
 */
async function grantOrder(deps: Pick<Deps, "config" | "db" | "logger" | "mail" | "now" | "sms">, order: OrderRow): Promise<void> {
  let granted = order.granted ? (JSON.parse(order.granted) as Granted) : undefined;
  if (!granted) {
    granted = { credits: 0, applied: false };
    if (order.productType === "plan" && order.planCode && order.period) {
      const plan = await planOf(deps, order.planCode as PlanGrant["planCode"]);
      granted.plan = await planGrantFor(deps, { spaceId: order.spaceId, planCode: plan.code, period: order.period });
      granted.credits = includedCreditsOf(plan, order.period);
    } else if (order.credits) {
      granted.credits = order.credits;
    }
    await deps.db
      .update(orders)
      .set({ granted: JSON.stringify(granted), updatedAt: deps.now().toISOString() })
      .where(eq(orders.id, order.id));
  }
  if (granted.applied !== false) return;
  if (granted.plan) await applyPlanGrant(deps, order.spaceId, granted.plan);
  if (granted.credits > 0) {
    const reason = order.productType === "plan" ? "plan" : "purchase";
    await moveCredits(deps, { spaceId: order.spaceId, delta: granted.credits, reason, reference: order.id, once: true });
  }
  await deps.db
    .update(orders)
    .set({ granted: JSON.stringify({ ...granted, applied: true }), updatedAt: deps.now().toISOString() })
    .where(eq(orders.id, order.id));
}

/**
 * Finishes the grants a crash interrupted: fulfilled orders with no grant recorded, or one not
 * yet applied. Run at start-up, before the server answers. Answers how many were finished.
 */
export async function recoverFulfilments(deps: Pick<Deps, "config" | "db" | "logger" | "mail" | "now" | "sms">): Promise<number> {
  const pending = await deps.db
    .select()
    .from(orders)
    .where(and(eq(orders.status, "fulfilled"), sql`(${orders.granted} IS NULL OR json_extract(${orders.granted}, '$.applied') = 0)`));
  for (const order of pending) {
    await grantOrder(deps, order);
    deps.logger.warn("finished the grant of an order a crash interrupted", { orderId: order.id, number: order.number });
  }
  return pending.length;
}

type Outcome = "fulfilled" | "duplicate" | "ignored" | `refused:${string}`;

/**
 * Receives a provider's notification: its signature is checked first (nothing of an unsigned
 * one is stored), then it is stored once per provider event id, checked against the order it
 * names (number, provider, amount, currency) and only then makes the order paid and fulfils it.
 */
export async function receiveNotification(
  deps: Pick<Deps, "config" | "db" | "logger" | "mail" | "now" | "sms">,
  providerName: string,
  input: { headers: Headers; body: string },
): Promise<NotificationAnswer> {
  const provider = paymentProviders(deps).get(providerName as ProviderName);
  if (!provider) throw new ServiceError("not_found", "payments_provider_unavailable", { provider: providerName });
  let notification;
  try {
    notification = await provider.verifyNotification(input);
  } catch (error) {
    if (!(error instanceof NotificationRefused)) throw error;
    deps.logger.warn("payment notification refused", { provider: providerName, reason: error.reason });
    return provider.answer(false, error.reason);
  }
  const eventRowId = newId("pev");
  const inserted = await deps.db
    .insert(paymentEvents)
    .values({
      id: eventRowId,
      provider: provider.name,
      eventId: notification.eventId,
      type: notification.type,
      outcome: "received",
      payload: notification.payload,
      receivedAt: deps.now().toISOString(),
    })
    .onConflictDoNothing()
    .returning({ id: paymentEvents.id });
  // A replay: the first copy decided everything.
  if (inserted.length === 0) return provider.answer(true);
  const settle = async (outcome: Outcome, orderId?: string) => {
    await deps.db
      .update(paymentEvents)
      .set({ outcome, ...(orderId ? { orderId } : {}) })
      .where(eq(paymentEvents.id, eventRowId));
    return outcome;
  };
  if (!notification.paid) {
    await settle("ignored");
    return provider.answer(true);
  }
  const order = notification.orderNumber ? await deps.db.select().from(orders).where(eq(orders.number, notification.orderNumber)).get() : undefined;
  const refusal = !order
    ? "unknown_order"
    : order.provider !== provider.name
      ? "other_provider"
      : order.amount !== notification.amount || order.currency !== notification.currency
        ? "amount_mismatch"
        : undefined;
  if (refusal || !order) {
    await settle(`refused:${refusal}`, order?.id);
    deps.logger.warn("payment notification does not match its order", { provider: providerName, order: notification.orderNumber, reason: refusal });
    return provider.answer(false, refusal);
  }
  const now = deps.now().toISOString();
  await deps.db
    .update(orders)
    .set({ status: "paid", paidAt: now, providerReference: notification.reference ?? order.providerReference, updatedAt: now })
    .where(and(eq(orders.id, order.id), inArray(orders.status, ["created", "closed"])));
  const fulfilled = await fulfil(deps, order.id);
  await settle(fulfilled ? "fulfilled" : "duplicate", order.id);
  return provider.answer(true);
}

/** An administrator's grant: recorded as a fulfilled order of provider `manual` with the actor and note. */
export async function grantManually(
  deps: Pick<Deps, "config" | "db" | "logger" | "mail" | "now" | "sms">,
  auth: Auth,
  input: { spaceId: string; product?: Product; credits?: number; note?: string; amount?: number; currency?: Currency },
) {
  const space = await deps.db.select({ id: spaces.id }).from(spaces).where(eq(spaces.id, input.spaceId)).get();
  if (!space) throw fail.notFound("space");
  if (!input.product && !input.credits) throw fail.invalid("payments_manual_product_required", "product");
  const currency = input.currency ?? "CNY";
  const columns = input.product
    ? await priceProduct(deps, input.product, currency).then(({ description: _unused, ...rest }) => rest)
    : { productType: "credits" as const, planCode: null, period: null, credits: input.credits!, amount: 0, currency };
  const row = await insertOrder(deps, {
    ...columns,
    amount: input.amount ?? 0,
    spaceId: input.spaceId,
    userId: auth.userId,
    provider: "manual",
    status: "paid",
    paidAt: deps.now().toISOString(),
    actorUserId: auth.userId,
    note: input.note ?? null,
  });
  await fulfil(deps, row.id);
  return orderView((await deps.db.select().from(orders).where(eq(orders.id, row.id)).get())!);
}

/** Every order of the instance, newest first (the administrator's view, for refunds). */
export async function listAllOrders(deps: Pick<Deps, "db">, query: { pageNo?: number; pageSize?: number; status?: OrderRow["status"] }) {
  const pageNo = query.pageNo ?? 1;
  const pageSize = Math.min(query.pageSize ?? 20, 100);
  const where = query.status ? eq(orders.status, query.status) : undefined;
  const rows = await deps.db
    .select()
    .from(orders)
    .where(where)
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(pageSize)
    .offset((pageNo - 1) * pageSize);
  const total = (await deps.db.select({ n: count() }).from(orders).where(where).get())?.n ?? 0;
  return { records: rows.map(orderView), total, pageNo, pageSize };
}

/**
 * Refunds a fulfilled order (administrator): the provider pays back, then what the order
 * granted is taken back — the plan period revoked, the credits reversed down to zero at most
 * (credits already spent cannot be taken; how many were short is recorded).
 */
export async function refundOrder(deps: Pick<Deps, "config" | "db" | "logger" | "mail" | "now" | "sms">, auth: Auth, orderId: string, note?: string) {
  const row = await deps.db.select().from(orders).where(eq(orders.id, orderId)).get();
  if (!row) throw fail.notFound("order");
  const now = deps.now().toISOString();
  const claimed = await deps.db
    .update(orders)
    .set({ status: "refunded", refundedAt: now, actorUserId: auth.userId, updatedAt: now, ...(note ? { note } : {}) })
    .where(and(eq(orders.id, orderId), eq(orders.status, "fulfilled")))
    .returning();
  if (claimed.length === 0) throw fail.conflict("payments_order_not_refundable", { status: row.status });
  const granted: Granted = row.granted ? (JSON.parse(row.granted) as Granted) : { credits: 0 };
  let providerReference: string | undefined;
  if (row.provider !== "manual") {
    try {
      const provider = providerOf(deps, row.provider);
      providerReference = (
        await provider.refund({
          number: row.number,
          refundNumber: `${row.number}R`,
          amount: row.amount,
          currency: row.currency as Currency,
          reference: row.providerReference,
        })
      ).reference;
    } catch (error) {
      // Nothing was paid back: the order stays fulfilled and keeps what it granted.
      await deps.db
        .update(orders)
        .set({ status: "fulfilled", refundedAt: null, actorUserId: row.actorUserId, note: row.note, updatedAt: now })
        .where(eq(orders.id, orderId));
      if (error instanceof ServiceError) throw error;
      throw new ServiceError("external", "payments_provider_failed", { detail: providerDetail(error) });
    }
  }
  if (granted.plan) await revokePlanGrant(deps, row.spaceId, granted.plan);
  let creditsReversed = 0;
  if (granted.credits > 0) {
    // What is left of the credits goes back; the movement is refused rather than taken below
    // zero when the balance moved since it was read, and is tried again on the new balance.
    for (let attempt = 0; attempt < 5; attempt++) {
      const take = Math.max(0, Math.min(granted.credits, await balanceOf(deps, row.spaceId)));
      if (take === 0 || (await moveCredits(deps, { spaceId: row.spaceId, delta: -take, reason: "refund", reference: row.id, once: true })) !== null) {
        creditsReversed = take;
        break;
      }
    }
  }
  granted.refund = { creditsReversed, creditsShort: granted.credits - creditsReversed, ...(providerReference ? { providerReference } : {}) };
  await deps.db
    .update(orders)
    .set({ granted: JSON.stringify(granted), updatedAt: deps.now().toISOString() })
    .where(eq(orders.id, orderId));
  return orderView((await deps.db.select().from(orders).where(eq(orders.id, orderId)).get())!);
}

/** Counts stored notifications by outcome (tests and the administrator's checks). */
export async function notificationOutcomes(deps: Pick<Deps, "db">, orderId: string) {
  return deps.db
    .select({ outcome: paymentEvents.outcome, n: sql<number>`count(*)` })
    .from(paymentEvents)
    .where(eq(paymentEvents.orderId, orderId))
    .groupBy(paymentEvents.outcome);
}
