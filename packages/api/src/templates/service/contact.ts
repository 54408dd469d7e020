import { count, desc, eq } from "drizzle-orm";
import { newId } from "../../crypto";
import { contactRequests, users } from "../../db/schema/index";
import { fail } from "../../errors";
import type { Deps } from "../../kernel";
import { messageText } from "../../i18n/catalogue";
import type { Language } from "../../i18n/language";

/** What the contact form sends (spec §3 Other: contact form). */
export interface ContactInput {
  firstName: string;
  lastName: string;
  email: string;
  companyName: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
const length = (text: string) => [...text].length;

/** Hours within which sales promise to answer (spec §9). */
export const SALES_REPLY_HOURS = 48;

/** The rules of spec §5: first and last name 1–50, a valid work e-mail, company name 1–100, all required. */
function checkContact(input: ContactInput): ContactInput {
  const clean = {
    firstName: input.firstName.trim(),
    lastName: input.lastName.trim(),
    email: input.email.trim().toLowerCase(),
    companyName: input.companyName.trim(),
  };
  if (length(clean.firstName) < 1 || length(clean.firstName) > 50) throw fail.invalid("contact_first_name_invalid", "firstName");
  if (length(clean.lastName) < 1 || length(clean.lastName) > 50) throw fail.invalid("contact_last_name_invalid", "lastName");
  if (clean.email.length > 254 || !EMAIL.test(clean.email)) throw fail.invalid("contact_email_invalid", "email");
  if (length(clean.companyName) < 1 || length(clean.companyName) > 100) throw fail.invalid("contact_company_invalid", "companyName");
  return clean;
}

/** The sales address: the configured one, else the instance owner's. */
async function salesAddress(deps: Pick<Deps, "config" | "db">): Promise<string | undefined> {
  if (deps.config.payments.salesEmail) return deps.config.payments.salesEmail;
  if (deps.config.ownerEmail) return deps.config.ownerEmail;
  const owner = await deps.db.select({ email: users.email }).from(users).where(eq(users.isInstanceOwner, true)).get();
  return owner?.email ?? undefined;
}

/**
 * Stores a contact request and mails it to the sales address, throttled per IP (the code
 * throttle's limits). A delivery failure is logged and the request kept: the administrator still
 * sees it on the instance page.
 */
export async function submitContact(
  deps: Pick<Deps, "config" | "db" | "logger" | "mail" | "now" | "throttle">,
  input: ContactInput,
  meta: { ip: string; language: Language },
) {
  const clean = checkContact(input);
  const wait = await deps.throttle.hit(`contact-ip:${meta.ip}`, deps.config.throttle.codesPerIp, deps.config.throttle.windowSeconds);
  if (wait > 0) throw fail.rateLimited(wait);
  const id = newId("ctr");
  const createdAt = deps.now().toISOString();
  await deps.db.insert(contactRequests).values({ id, ...clean, language: meta.language, createdAt });
  const to = await salesAddress(deps);
  let mailed = false;
  if (to) {
    const params = { name: `${clean.firstName} ${clean.lastName}`, email: clean.email, company: clean.companyName, at: createdAt };
    try {
      await deps.mail.send({ to, subject: messageText("en", "mail.contact.subject", params), text: messageText("en", "mail.contact.text", params) });
      mailed = true;
      await deps.db.update(contactRequests).set({ mailed }).where(eq(contactRequests.id, id));
    } catch (error) {
      deps.logger.warn("contact request mail failed", { error: String(error) });
    }
  }
  return { id, replyWithinHours: SALES_REPLY_HOURS, mailed };
}

/** Contact requests, newest first (administrator). */
export async function listContacts(deps: Pick<Deps, "db">, query: { pageNo?: number | undefined; pageSize?: number | undefined }) {
  const pageNo = Math.max(1, query.pageNo ?? 1);
  const pageSize = Math.min(100, Math.max(1, query.pageSize ?? 20));
  const total = (await deps.db.select({ n: count() }).from(contactRequests).get())?.n ?? 0;
  const items = await deps.db
    .select()
    .from(contactRequests)
    .orderBy(desc(contactRequests.createdAt), desc(contactRequests.id))
    .limit(pageSize)
    .offset((pageNo - 1) * pageSize);
  return { items, total, pageNo, pageSize };
}
