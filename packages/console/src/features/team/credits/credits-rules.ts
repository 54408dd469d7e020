import type { MemberCredits, MemberPrivilege, TeamCredits } from "../../../lib/api/team-credits";

/** The most a member's allocation can be set to: what they hold now plus the unallocated pool. */
export function maxAllocationFor(summary: Pick<TeamCredits, "unallocated">, member: Pick<MemberCredits, "allocation">): number {
  return member.allocation + Math.max(0, summary.unallocated);
}

/** Why an allocation typed in the dialog cannot be sent (an i18n key of "teamCredits"), or undefined. */
export function allocationProblem(value: number | null | undefined, max: number): string | undefined {
  if (value === null || value === undefined) return "teamCredits.validation.required";
  if (!Number.isInteger(value) || value < 0) return "teamCredits.validation.whole";
  if (value > max) return "teamCredits.validation.overBalance";
  return undefined;
}

/** Whether the member-seat figures call for the upgrade link: no seat left on the plan. */
export function seatsRunOut(privilege: Pick<MemberPrivilege, "remaining">): boolean {
  return privilege.remaining <= 0;
}

/** Who may get an allocation: everyone but the owner (the owner spends the pool) and the caller. */
export function canAllocateTo(member: Pick<MemberCredits, "owner" | "userId">, callerId: string | undefined): boolean {
  return !member.owner && member.userId !== callerId;
}
