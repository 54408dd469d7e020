import { z } from "@hono/zod-openapi";
import { pageQuerySchema } from "../http/schemas";

const timestamp = z.string().openapi({ format: "date-time", example: "2026-11-21T08:00:00.000Z" });
const roleId = z
  .string()
  .min(1)
  .max(64)
  .openapi({ description: "A system role's key (admin, developer, operator, viewer) or a custom role's id", example: "developer" });

/** A member of the current team space (spec §3 member fields). */
export const teamMemberSchema = z
  .object({
    userId: z.string().openapi({ example: "usr_01jd7w3k5q9x2m4n6p8r" }),
    name: z.string().openapi({ example: "Lin" }),
    email: z.string().nullable().openapi({ example: "lin@example.com" }),
    phone: z.string().nullable().openapi({ example: null }),
    roleId: z.string().openapi({ example: "developer" }),
    roleName: z.string().openapi({ description: "The role's name in the reader's language (custom roles: their name)", example: "Developer" }),
    owner: z.boolean().openapi({ description: "Whether the member owns the space" }),
    creditAllocation: z.number().int().openapi({ description: "Enterprise credits allocated and not yet spent", example: 0 }),
    creditsSpent: z.number().int().openapi({ description: "Enterprise credits spent from allocations", example: 0 }),
    joinedAt: timestamp,
    invitedBy: z.string().nullable().openapi({ description: "User id of who invited the member (null for the owner)" }),
    invitedByName: z.string().nullable(),
  })
  .openapi("TeamMember");

/** A page of members. */
export const teamMemberPageSchema = z
  .object({
    items: z.array(teamMemberSchema),
    total: z.number().int().openapi({ description: "Members matching the keyword", example: 1 }),
    pageNo: z.number().int().openapi({ example: 1 }),
    pageSize: z.number().int().openapi({ example: 20 }),
  })
  .openapi("TeamMemberPage");

/** Query of GET /api/v1/team/members. */
export const teamMemberQuery = pageQuerySchema.extend({
  keyword: z.string().max(100).optional().openapi({ description: "Part of a name, e-mail address or phone number" }),
});

/** Body of PATCH /api/v1/team/members/{userId}. */
export const setMemberRoleBody = z.object({ roleId }).openapi("SetTeamMemberRoleRequest");

/** Body of POST /api/v1/team/owner. */
export const transferOwnerBody = z
  .object({ userId: z.string().min(1).max(64).openapi({ example: "usr_01jd7w3k5q9x2m4n6p8r" }) })
  .openapi("TransferOwnershipRequest");

/** A member the app's handover notices can go to. */
export const notifyMemberSchema = z
  .object({
    userId: z.string(),
    name: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    roleName: z.string(),
  })
  .openapi("TeamNotifyMember");

/** Where an invitation link stands. */
export const invitationStatuses = ["active", "expired", "revoked", "used_up"] as const;

/** An invitation link of the current team space. */
export const teamInvitationSchema = z
  .object({
    id: z.string().openapi({ example: "tin_01jd7w3k5q9x2m4n6p8r" }),
    roleId: z.string(),
    roleName: z.string(),
    inviteParam: z.string().openapi({ description: "The link's secret (`tm_…`); empty if it can no longer be opened", example: "tm_…" }),
    link: z.string().openapi({ example: "https://parley.example.com/console/agents?inviteParam=tm_…" }),
    status: z.enum(invitationStatuses),
    createdBy: z.string(),
    createdByName: z.string().nullable(),
    createdAt: timestamp,
    expiresAt: timestamp,
    revokedAt: timestamp.nullable(),
    maxUses: z.number().int().nullable().openapi({ description: "Null: any number of people until it expires" }),
    uses: z.number().int(),
  })
  .openapi("TeamInvitation");

/** Body of POST /api/v1/team/invitations. */
export const createInvitationBody = z
  .object({
    roleId: roleId.optional().openapi({ description: "The role people joining get (viewer unless given)" }),
    expiresInDays: z.number().int().min(1).max(30).optional().openapi({ description: "Days the link stays open (7 unless given)", example: 7 }),
    maxUses: z.number().int().min(1).max(1000).optional().openapi({ description: "How many people may join through it (no limit unless given)" }),
  })
  .openapi("CreateTeamInvitationRequest");

const inviteParam = z.string().min(1).max(200).openapi({ description: "The invitation link's `inviteParam`", example: "tm_…" });

/** Query of GET /api/v1/team-invitations/resolve. */
export const resolveInvitationQuery = z.object({ inviteParam });

/** What an invitation link opens (getCompanyByInviteParam). */
export const resolvedInvitationSchema = z
  .object({ companyName: z.string(), companyCode: z.string(), roleName: z.string(), expiresAt: timestamp })
  .openapi("ResolvedTeamInvitation");

/** Body of POST /api/v1/team-invitations/accept. */
export const acceptInvitationBody = z.object({ inviteParam }).openapi("AcceptTeamInvitationRequest");
