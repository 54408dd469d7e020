import { randomInt } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { checkIns, users } from "../../db/schema/index";
import { ServiceError } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import { moveCredits } from "./credits";

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day (YYYY-MM-DD) of an instant in a time zone. */
export function calendarDay(date: Date, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    // en-CA writes dates as YYYY-MM-DD.
    format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    dayFormats.set(timeZone, format);
  }
  return format.format(date);
}

/** Today's check-in of the caller. */
export interface CheckInStatus {
  day: string;
  checkedIn: boolean;
  /** Credits today's check-in gave (null before it). */
  credits: number | null;
  /** The range credits are drawn from. */
  min: number;
  max: number;
}

/** Whether the caller has checked in today (the instance's time zone) and for how much. */
export async function checkInStatus(deps: Pick<Deps, "config" | "db" | "now">, auth: Auth): Promise<CheckInStatus> {
  const { checkInMin: min, checkInMax: max, timeZone } = deps.config.earning;
  const day = calendarDay(deps.now(), timeZone);
  const row = await deps.db
    .select({ credits: checkIns.credits })
    .from(checkIns)
    .where(and(eq(checkIns.userId, auth.userId), eq(checkIns.day, day)))
    .get();
  return { day, checkedIn: row !== undefined, credits: row?.credits ?? null, min, max };
}

/**
 * Checks the caller in for today: random credits in the configured range to their personal
 * space. The (user, day) key is claimed first, so of concurrent check-ins exactly one wins; its
 * credit is booked once per check-in (reason and reference), and a later attempt books a credit
 * a crash left unbooked before it answers that today is done.
 */
export async function checkIn(deps: Pick<Deps, "config" | "db" | "logger" | "mail" | "now" | "sms">, auth: Auth): Promise<CheckInStatus & { balance: number }> {
  const { checkInMin: min, checkInMax: max, timeZone } = deps.config.earning;
  const day = calendarDay(deps.now(), timeZone);
  const user = await deps.db.select({ spaceId: users.personalSpaceId }).from(users).where(eq(users.id, auth.userId)).get();
  if (!user) throw new ServiceError("unauthenticated", "login_required");
  const credits = randomInt(min, max + 1);
  const claimed = await deps.db.all<{ credits: number; space_id: string }>(sql`
    INSERT INTO check_ins (user_id, day, space_id, credits, created_at)
    VALUES (${auth.userId}, ${day}, ${user.spaceId}, ${credits}, ${deps.now().toISOString()})
    ON CONFLICT (user_id, day) DO NOTHING
    RETURNING credits, space_id`);
  const won = claimed[0];
  const booked = won
    ? won
    : await deps.db
        .select({ credits: checkIns.credits, space_id: checkIns.spaceId })
        .from(checkIns)
        .where(and(eq(checkIns.userId, auth.userId), eq(checkIns.day, day)))
        .get();
  if (!booked) throw new Error("check-in row vanished");
  const balance = await moveCredits(deps, {
    spaceId: booked.space_id,
    delta: booked.credits,
    reason: "check-in",
    reference: `${auth.userId}:${day}`,
    once: true,
  });
  if (!won) throw new ServiceError("conflict", "check_in_done");
  if (balance === null) throw new Error("check-in credit was already booked");
  return { day, checkedIn: true, credits: won.credits, min, max, balance };
}
