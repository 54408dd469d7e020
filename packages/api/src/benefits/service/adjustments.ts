import { eq } from "drizzle-orm";
import { spaces } from "../../db/schema/index";
import { fail, ServiceError } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import { balanceOf } from "../../billing/service/ledger";
import { moveCredits } from "./credits";

/** Largest single adjustment either way. */
export const ADJUSTMENT_MAX = 100_000_000;

/**
 * The administrator adds or removes credits of a space, with a note kept as the movement's
 * reference. A removal that would take the balance below zero is refused and changes nothing.
 */
export async function adjustCredits(
  deps: Pick<Deps, "config" | "db" | "logger" | "mail" | "now" | "sms">,
  auth: Auth,
  spaceId: string,
  input: { delta: number; note: string },
) {
  const note = input.note.trim();
  if (!note) throw fail.invalid("field_required", "note", { field: "note" });
  if (input.delta === 0) throw fail.invalid("adjustment_not_zero", "delta");
  const space = await deps.db.select({ id: spaces.id }).from(spaces).where(eq(spaces.id, spaceId)).get();
  if (!space) throw fail.notFound("space");
  const balance = await moveCredits(deps, { spaceId, delta: input.delta, reason: "adjustment", reference: `${auth.userId}: ${note}` });
  if (balance === null) {
    throw new ServiceError("validation", "adjustment_below_zero", { balance: await balanceOf(deps, spaceId) }, { field: "delta" });
  }
  return { spaceId, balance };
}
