import { fail } from "../../errors";

/** How a code or account is addressed. */
export type Channel = "email" | "phone";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Normalises an e-mail address or phone number, or throws a validation error naming `field`. */
export function normalizeTarget(channel: Channel, raw: string, field = "target"): string {
  const value = raw.trim();
  if (channel === "email") {
    const email = value.toLowerCase();
    if (email.length > 254 || !EMAIL.test(email)) throw fail.invalid("validation_failed", field, { field, reason: "e-mail" });
    return email;
  }
  const phone = value.replace(/[\s\-()]/g, "");
  if (!/^\+?\d{6,15}$/.test(phone)) throw fail.invalid("validation_failed", field, { field, reason: "phone" });
  return phone;
}

/** Guesses whether a login name is an e-mail address or a phone number. */
export function channelOf(username: string): Channel {
  return username.includes("@") ? "email" : "phone";
}

/** Masks an address for display: `a***@example.com`, `138****5678`. */
export function maskTarget(channel: Channel, target: string): string {
  if (channel === "email") {
    const [local = "", domain = ""] = target.split("@");
    return `${local.slice(0, 1)}***@${domain}`;
  }
  return target.length <= 7 ? `${target.slice(0, 2)}***` : `${target.slice(0, 3)}****${target.slice(-4)}`;
}

/** Password rule: at least 8 characters, with letters and digits, at most 128. */
export function assertPasswordStrength(password: string, field = "password"): void {
  if (password.length < 8 || password.length > 128 || !/[A-Za-z]/.test(password) || !/\d/.test(password)) {
    throw fail.invalid("password_too_weak", field);
  }
}
