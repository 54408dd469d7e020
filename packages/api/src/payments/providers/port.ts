import type { Currency } from "../../billing/service/plans";

/** Providers an order can be paid through; `manual` is an administrator's recorded grant. */
export type ProviderName = "wechat" | "alipay" | "stripe";

/** What the provider is asked to collect. */
export interface PaymentRequest {
  /** Our order number, the provider's out_trade_no / client_reference_id. */
  number: string;
  /** In the smallest unit of `currency`. */
  amount: number;
  currency: Currency;
  description: string;
  /** Where the provider posts its notification. */
  notifyUrl: string;
  /** Where a redirecting provider sends the payer back. */
  returnUrl: string;
}

/** Where the payer pays: a QR code's content, or a page to redirect to. */
export interface PaymentStart {
  kind: "qr" | "redirect";
  payUrl: string;
  /** The provider's id known at creation (Stripe's session), if any. */
  reference?: string;
}

/** A notification whose signature checked out, reduced to what fulfilment needs. */
export interface VerifiedNotification {
  /** The provider's id of this notification, unique per provider. */
  eventId: string;
  type: string;
  /** False for events that are not a completed payment (they are stored and otherwise ignored). */
  paid: boolean;
  orderNumber?: string;
  amount?: number;
  currency?: string;
  /** The provider's id of the payment (transaction_id, trade_no, payment intent). */
  reference?: string;
  /** The decrypted or parsed content, as stored in payment_events. */
  payload: string;
}

/** What the provider says of a payment when asked. */
export interface PaymentStatus {
  paid: boolean;
  amount?: number;
  currency?: string;
  reference?: string;
}

/** The answer a provider expects to its notification. */
export interface NotificationAnswer {
  status: number;
  contentType: string;
  body: string;
}

/** How long one call to a provider may take before the order or refund is refused. */
export const PROVIDER_TIMEOUT_MS = 15_000;

/** Raised by a provider when a notification must be refused (bad signature, stale, not ours). */
export class NotificationRefused extends Error {
  override name = "NotificationRefused";
  constructor(readonly reason: "signature" | "stale" | "malformed" | "not_ours") {
    super(reason);
  }
}

/** Raised when the provider refuses or fails a call; `detail` is the provider's own text. */
export class ProviderFailure extends Error {
  override name = "ProviderFailure";
  constructor(
    readonly provider: ProviderName,
    readonly detail: string,
  ) {
    super(`${provider}: ${detail}`);
  }
}

/**
 * One payment provider. Each speaks its own protocol and checks its own signatures; the order
 * service sees only this.
 */
export interface PaymentProvider {
  readonly name: ProviderName;
  /** The currency it is paid in on this instance. */
  readonly currency: Currency;
  createPayment(request: PaymentRequest): Promise<PaymentStart>;
  /** Checks a notification's signature (and decrypts it); throws {@link NotificationRefused}. */
  verifyNotification(input: { headers: Headers; body: string }): Promise<VerifiedNotification>;
  /** How to answer the provider: accepted, or refused with a reason it logs. */
  answer(accepted: boolean, reason?: string): NotificationAnswer;
  queryPayment(input: { number: string; reference?: string | null }): Promise<PaymentStatus>;
  /** Refunds the whole amount; answers the provider's refund id. */
  refund(input: { number: string; refundNumber: string; amount: number; currency: Currency; reference?: string | null }): Promise<{ reference: string }>;
}
