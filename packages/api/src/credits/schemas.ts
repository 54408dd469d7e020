import { z } from "@hono/zod-openapi";
import { planCodes } from "../billing/service/plans";
import { pricesSchema } from "../plans/schemas";

/** Largest allocation one member can hold. */
export const ALLOCATION_MAX = 1_000_000_000;

/** companyBalanceManage: a member's new allocation. */
export const setAllocationBody = z
  .object({
    userId: z.string().min(1).max(64).openapi({ example: "usr_01jd7w3k5q9x2m4n6p8r" }),
    amount: z.number().int().min(0).max(ALLOCATION_MAX).openapi({
      description: "The member's new allocation (not an increment): credits set aside for them and not yet spent. 0 returns it all to the pool.",
      example: 50,
    }),
  })
  .openapi("SetCreditAllocationRequest");

/** One member's allocation and spending. */
export const memberCreditsSchema = z
  .object({
    userId: z.string(),
    name: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    roleId: z.string().openapi({ example: "developer" }),
    owner: z.boolean().openapi({ description: "The owner spends the unallocated pool and holds no allocation" }),
    allocation: z.number().int().openapi({ description: "Credits allocated and not yet spent", example: 50 }),
    spent: z.number().int().openapi({ description: "Credits spent from allocations", example: 12 }),
    spentTotal: z
      .number()
      .int()
      .openapi({ description: "Every credit the member's turns and runs were charged in this space, allocation and pool", example: 20 }),
  })
  .openapi("MemberCredits");

/** sumCompanyBalance: the space's balance and how it is allocated. */
export const teamCreditsSchema = z
  .object({
    balance: z.number().int().openapi({ description: "The space's ledger balance", example: 1000 }),
    held: z.number().int().openapi({ description: "Credits reserved by turns running now", example: 0 }),
    allocated: z.number().int().openapi({ description: "Sum of the members' allocations", example: 150 }),
    unallocated: z.number().int().openapi({ description: "What anyone may still spend or allocate: balance − holds − allocations not held", example: 850 }),
    members: z.array(memberCreditsSchema),
  })
  .openapi("TeamCredits");

/** The caller's own allocation in the current space. */
export const myCreditsSchema = z
  .object({
    teamSpace: z.boolean().openapi({ description: "False in a personal space (no allocations there)" }),
    owner: z.boolean(),
    allocation: z.number().int().openapi({ example: 50 }),
    spent: z.number().int().openapi({ description: "Credits spent from allocations", example: 12 }),
    spentTotal: z.number().int().openapi({ description: "Every credit the caller's turns and runs were charged in this space", example: 20 }),
    available: z
      .number()
      .int()
      .openapi({ description: "What the caller's next turn may reserve: their allocation not held plus the unallocated pool", example: 900 }),
  })
  .openapi("MyCredits");

/** getUseMemberPrivilege: whether the plan lets the space add members. */
export const memberPrivilegeSchema = z
  .object({
    planCode: z.enum(planCodes).openapi({ example: "team" }),
    limit: z.number().int().openapi({ description: "Members besides the owner the plan allows", example: 5 }),
    used: z.number().int().openapi({ example: 2 }),
    remaining: z.number().int().openapi({ example: 3 }),
    canAdd: z.boolean(),
  })
  .openapi("MemberPrivilege");

/** getUseMemberPrivilegeCost: what more seats cost as the catalogue defines it. */
export const memberPrivilegeCostSchema = z
  .object({
    planCode: z.enum(planCodes).openapi({ example: "team" }),
    limit: z.number().int().openapi({ example: 5 }),
    seatPrices: pricesSchema.nullable().openapi({ description: "The catalogue sells no single seats: always null, more seats come with a bigger plan" }),
    upgrade: z
      .object({
        planCode: z.enum(planCodes).openapi({ example: "enterprise" }),
        limit: z.number().int().openapi({ description: "Members the plan allows", example: 100 }),
        monthlyPrices: pricesSchema,
        yearlyPrices: pricesSchema,
      })
      .nullable()
      .openapi({ description: "The cheapest offered plan that allows more members (null: none; ask for Custom)" }),
  })
  .openapi("MemberPrivilegeCost");
