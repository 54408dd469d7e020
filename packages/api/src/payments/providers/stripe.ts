import Stripe from "stripe";
import type { Clock } from "../../kernel/clock";
import { NotificationRefused, PROVIDER_TIMEOUT_MS, type PaymentProvider, ProviderFailure } from "./port";
import type { StripeConfig } from "../../config";

/** Stripe's own tolerance for a webhook's timestamp. */
export const STRIPE_TOLERANCE_SECONDS = 300;

/** Stripe Checkout (redirect to the session's `url`), through the official `stripe` SDK. */
export function createStripe(config: StripeConfig, now: Clock): PaymentProvider {
  const base = new URL(config.apiBase);
  const stripe = new Stripe(config.secretKey, {
    host: base.hostname,
    port: base.port || (base.protocol === "http:" ? 80 : 443),
    protocol: base.protocol === "http:" ? "http" : "https",
    maxNetworkRetries: 0,
    timeout: PROVIDER_TIMEOUT_MS,
    telemetry: false,
  });
  const failed = (error: unknown): never => {
    throw new ProviderFailure("stripe", error instanceof Error ? error.message : String(error));
  };

  return {
    name: "stripe",
    currency: "USD",
    async createPayment(request) {
      const session = await stripe.checkout.sessions
        .create({
          mode: "payment",
          client_reference_id: request.number,
          metadata: { order_number: request.number },
          line_items: [
            { quantity: 1, price_data: { currency: request.currency.toLowerCase(), unit_amount: request.amount, product_data: { name: request.description } } },
          ],
          success_url: request.returnUrl,
          cancel_url: request.returnUrl,
        })
        .catch(failed);
      if (!session.url) throw new ProviderFailure("stripe", "no session url");
      return { kind: "redirect", payUrl: session.url, reference: session.id };
    },
    async verifyNotification({ headers, body }) {
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(
          body,
          headers.get("stripe-signature") ?? "",
          config.webhookSecret,
          STRIPE_TOLERANCE_SECONDS,
          undefined,
          now().getTime(),
        );
      } catch (error) {
        throw new NotificationRefused(error instanceof Error && /timestamp/i.test(error.message) ? "stale" : "signature");
      }
      if (event.type !== "checkout.session.completed" && event.type !== "checkout.session.async_payment_succeeded") {
        return { eventId: event.id, type: event.type, paid: false, payload: body };
      }
      const session = event.data.object;
      const intent = typeof session.payment_intent === "string" ? session.payment_intent : session.payment_intent?.id;
      return {
        eventId: event.id,
        type: event.type,
        paid: session.payment_status === "paid",
        ...(session.client_reference_id ? { orderNumber: session.client_reference_id } : {}),
        ...(session.amount_total !== null ? { amount: session.amount_total } : {}),
        ...(session.currency ? { currency: session.currency.toUpperCase() } : {}),
        ...(intent ? { reference: intent } : {}),
        payload: body,
      };
    },
    answer(accepted, reason) {
      return accepted
        ? { status: 200, contentType: "application/json", body: JSON.stringify({ received: true }) }
        : { status: 400, contentType: "application/json", body: JSON.stringify({ error: reason ?? "refused" }) };
    },
    async queryPayment({ reference }) {
      if (!reference) return { paid: false };
      if (reference.startsWith("cs_")) {
        const session = await stripe.checkout.sessions.retrieve(reference).catch(failed);
        const intent = typeof session.payment_intent === "string" ? session.payment_intent : session.payment_intent?.id;
        return {
          paid: session.payment_status === "paid",
          ...(session.amount_total !== null ? { amount: session.amount_total } : {}),
          ...(session.currency ? { currency: session.currency.toUpperCase() } : {}),
          ...(intent ? { reference: intent } : {}),
        };
      }
      const intent = await stripe.paymentIntents.retrieve(reference).catch(failed);
      return { paid: intent.status === "succeeded", amount: intent.amount, currency: intent.currency.toUpperCase(), reference: intent.id };
    },
    async refund({ refundNumber, reference }) {
      if (!reference) throw new ProviderFailure("stripe", "no payment intent to refund");
      const refund = await stripe.refunds
        .create({ payment_intent: reference, metadata: { refund_number: refundNumber } }, { idempotencyKey: refundNumber })
        .catch(failed);
      return { reference: refund.id };
    },
  };
}
