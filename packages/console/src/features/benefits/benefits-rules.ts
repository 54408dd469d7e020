import type { AlertChannel, CheckInStatus } from "../../lib/api/benefits";

/** Largest threshold the server accepts (it refuses above with the same rule). */
export const ALERT_THRESHOLD_MAX = 1_000_000_000;
/** Largest adjustment either way the server accepts. */
export const ADJUSTMENT_MAX = 100_000_000;

/** The i18n key of a field's problem, or undefined when it is fine. */
type Rule<T> = (value: T) => string | undefined;

/** The balance alert form's rules (spec §5: the alarm needs a threshold). */
export const balanceAlertRules: { threshold: Rule<number | null | undefined>; channels: Rule<AlertChannel[] | undefined> } = {
  threshold: (value) => {
    if (value === null || value === undefined) return "balanceAlert.validation.thresholdRequired";
    if (!Number.isInteger(value) || value < 1 || value > ALERT_THRESHOLD_MAX) return "balanceAlert.validation.thresholdRange";
    return undefined;
  },
  channels: (value) => (value && value.length > 0 ? undefined : "balanceAlert.validation.channelsRequired"),
};

/** The cash-out form's rules: a whole positive amount no larger than the benefits balance, and where to pay. */
export const cashOutRules = {
  amount: (value: number | null | undefined, balance: number): string | undefined => {
    if (value === null || value === undefined) return "benefits.cashOut.validation.amountRequired";
    if (!Number.isInteger(value) || value < 1) return "benefits.cashOut.validation.amountPositive";
    if (value > balance) return "benefits.cashOut.validation.amountOverBalance";
    return undefined;
  },
  account: (value: string | undefined): string | undefined =>
    !value?.trim() ? "benefits.cashOut.validation.accountRequired" : value.trim().length > 200 ? "benefits.cashOut.validation.accountLong" : undefined,
};

/** The administrator's adjustment form: a whole non-zero change within bounds, and a note. */
export const adjustmentRules = {
  delta: (value: number | null | undefined): string | undefined => {
    if (value === null || value === undefined) return "benefits.adjust.validation.deltaRequired";
    if (!Number.isInteger(value) || value === 0 || Math.abs(value) > ADJUSTMENT_MAX) return "benefits.adjust.validation.deltaRange";
    return undefined;
  },
  note: (value: string | undefined): string | undefined =>
    !value?.trim() ? "benefits.adjust.validation.noteRequired" : value.trim().length > 200 ? "benefits.adjust.validation.noteLong" : undefined,
};

/** What the top bar's check-in button shows: its label, and whether it can still be pressed. */
export function checkInButtonState(status: CheckInStatus | undefined): { labelKey: string; disabled: boolean; credits: number | null } {
  if (!status) return { labelKey: "checkIn.action", disabled: true, credits: null };
  if (status.checkedIn) return { labelKey: "checkIn.done", disabled: true, credits: status.credits };
  return { labelKey: "checkIn.action", disabled: false, credits: null };
}
