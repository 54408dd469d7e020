import { randomBytes } from "node:crypto";
import { desc, eq, sql } from "drizzle-orm";
import { invitationCodes, invitations, users } from "../../db/schema/index";
import type { Auth, Deps } from "../../kernel";
import { moveCredits } from "./credits";

const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

function newInvitationCode(): string {
  const bytes = randomBytes(8);
  let code = "";
  for (const byte of bytes) code += CODE_ALPHABET[byte % CODE_ALPHABET.length];
  return code;
}

/** The caller's invitation: the code, the link to share and what it has earned. */
export async function myInvitation(deps: Pick<Deps, "config" | "db" | "now">, auth: Auth) {
  let row = await deps.db.select({ code: invitationCodes.code }).from(invitationCodes).where(eq(invitationCodes.userId, auth.userId)).get();
  for (let attempt = 0; !row && attempt < 5; attempt++) {
    // A code taken by someone else (or a concurrent first ask) just means another try.
    await deps.db.insert(invitationCodes).values({ userId: auth.userId, code: newInvitationCode(), createdAt: deps.now().toISOString() }).onConflictDoNothing();
    row = await deps.db.select({ code: invitationCodes.code }).from(invitationCodes).where(eq(invitationCodes.userId, auth.userId)).get();
  }
  if (!row) throw new Error("could not make an invitation code");
  const totals = await deps.db.all<{ n: number; credits: number | null }>(
    sql`SELECT COUNT(*) AS n, SUM(credits) AS credits FROM invitations WHERE inviter_user_id = ${auth.userId}`,
  );
  return {
    code: row.code,
    link: `${deps.config.publicUrl}/register?inviteParam=${row.code}`,
    reward: deps.config.earning.inviteReward,
    invited: totals[0]?.n ?? 0,
    credits: totals[0]?.credits ?? 0,
  };
}

/** People who registered through the caller's link, newest first. */
export async function listInvitations(deps: Pick<Deps, "db">, auth: Auth, input: { limit: number; offset: number }) {
  return deps.db
    .select({ userId: invitations.inviteeUserId, name: users.name, credits: invitations.credits, createdAt: invitations.createdAt })
    .from(invitations)
    .innerJoin(users, eq(users.id, invitations.inviteeUserId))
    .where(eq(invitations.inviterUserId, auth.userId))
    .orderBy(desc(invitations.createdAt))
    .limit(input.limit)
    .offset(input.offset);
}

/**
 * A new user registered with an invitation code: the inviter's personal space gets the reward,
 * once per new user (the invitee is the key of `invitations`), never for inviting oneself. An
 * unknown code is ignored: it must not stop anyone registering.
 */
export async function rewardInvitation(
  deps: Pick<Deps, "config" | "db" | "logger" | "mail" | "now" | "sms">,
  input: { code: string; inviteeUserId: string },
): Promise<void> {
  const code = input.code.trim().toUpperCase();
  if (!code) return;
  const inviter = await deps.db
    .select({ userId: invitationCodes.userId, spaceId: users.personalSpaceId })
    .from(invitationCodes)
    .innerJoin(users, eq(users.id, invitationCodes.userId))
    .where(eq(invitationCodes.code, code))
    .get();
  if (!inviter || inviter.userId === input.inviteeUserId) return;
  const credits = deps.config.earning.inviteReward;
  const recorded = await deps.db
    .insert(invitations)
    .values({ inviteeUserId: input.inviteeUserId, inviterUserId: inviter.userId, credits, createdAt: deps.now().toISOString() })
    .onConflictDoNothing()
    .returning({ id: invitations.inviteeUserId });
  if (recorded.length === 0 || credits === 0) return;
  await moveCredits(deps, { spaceId: inviter.spaceId, delta: credits, reason: "invite", reference: input.inviteeUserId, once: true });
}
