import { z } from "@hono/zod-openapi";
import { planCodes } from "../billing/service/plans";
import { memberGrades } from "../spaces/service/privileges";

const timestamp = z.string().openapi({ format: "date-time", example: "2026-11-21T08:00:00.000Z" });

/** Largest quota the administrator can set: far above any plan, small enough to stay an integer everywhere. */
export const QUOTA_MAX = 1_000_000;
/** Rows per page when the caller does not say. */
export const INSTANCE_PAGE_SIZE = 20;
/** The most rows one page holds. */
export const INSTANCE_PAGE_SIZE_MAX = 100;

const grade = z.enum(memberGrades);
const quota = (description: string, example: number) => z.number().int().min(0).max(QUOTA_MAX).openapi({ description, example });

/** Largest knowledge capacity (tokens) the administrator can set. */
export const TOKENS_QUOTA_MAX = 1_000_000_000_000;
const tokens = (description: string, example: number) => z.number().int().min(0).max(TOKENS_QUOTA_MAX).openapi({ description, example });

/** The plan catalogue's quotas besides the three session ones (which keep their session names). */
export const planOnlyQuotaShape = {
  apps: quota("Apps (workflow apps count as workflows)", 30),
  workflows: quota("Workflows", 20),
  knowledgeTokens: tokens("Knowledge capacity in tokens, over all files", 20_000_000),
  knowledgeEntries: quota("Knowledge files over all knowledge bases", 1000),
  databaseRows: tokens("Database rows", 50_000),
  customPlugins: quota("Custom plugins", 20),
};

/** The quotas a space has: the three that open console areas, by their session names, and the catalogue's others. */
export const quotasSchema = z
  .object({
    clientManage: quota("Client (channel) quota; > 0 opens Clients and Dashboard", 10),
    customerManage: quota("Chat-management quota; > 0 opens Chat management and Customers", 3),
    memberNumber: quota("Member quota; > 0 opens Team", 5),
    ...planOnlyQuotaShape,
  })
  .openapi("InstanceQuotas");

/** Overrides the administrator set on a space (a Custom arrangement); an omitted quota follows the plan. */
export const quotaOverridesSchema = z
  .object({
    clientManage: quotasSchema.shape.clientManage.optional(),
    customerManage: quotasSchema.shape.customerManage.optional(),
    memberNumber: quotasSchema.shape.memberNumber.optional(),
    apps: quotasSchema.shape.apps.optional(),
    workflows: quotasSchema.shape.workflows.optional(),
    knowledgeTokens: quotasSchema.shape.knowledgeTokens.optional(),
    knowledgeEntries: quotasSchema.shape.knowledgeEntries.optional(),
    databaseRows: quotasSchema.shape.databaseRows.optional(),
    customPlugins: quotasSchema.shape.customPlugins.optional(),
  })
  .strict()
  .openapi("InstanceQuotaOverrides", { description: "Quotas set by the administrator; an omitted one follows the grade" });

/** Query of the instance lists. */
export const instanceListQuery = z.object({
  pageNo: z.coerce.number().int().min(1).optional().openapi({ description: "1-based page number", example: 1 }),
  pageSize: z.coerce
    .number()
    .int()
    .min(1)
    .optional()
    .openapi({ description: `Default ${INSTANCE_PAGE_SIZE}; larger values are capped at ${INSTANCE_PAGE_SIZE_MAX}`, example: INSTANCE_PAGE_SIZE }),
  keyword: z
    .string()
    .max(100)
    .optional()
    .openapi({ description: "Matches part of the name, e-mail or phone (users); the name, code or owner (spaces)", example: "lin" }),
});

/** A user as the administrator sees them. */
export const instanceUserSchema = z
  .object({
    userId: z.string().openapi({ example: "usr_01jd7w3k5q9x2m4n6p8r" }),
    name: z.string().openapi({ example: "Lin Wei" }),
    email: z.string().nullable().openapi({ example: "lin@example.com" }),
    phone: z.string().nullable().openapi({ example: null }),
    isInstanceOwner: z.boolean().openapi({ description: "The instance administrator (the first owner)" }),
    memberGrade: grade.openapi({ description: "The user's grade: the grade of their personal space", example: "FREE" }),
    personalSpaceId: z.string().openapi({ example: "spc_01jd7w3k5q9x2m4n6p8r" }),
    createdAt: timestamp,
  })
  .openapi("InstanceUser");

/** A space as the administrator sees it. */
export const instanceSpaceSchema = z
  .object({
    spaceId: z.string().openapi({ example: "spc_01jd7w3k5q9x2m4n6p8r" }),
    companyCode: z.string().openapi({ example: "K7P2QX9M" }),
    companyName: z.string().openapi({ example: "Acme Support" }),
    kind: z.enum(["personal", "team"]),
    ownerUserId: z.string().openapi({ example: "usr_01jd7w3k5q9x2m4n6p8r" }),
    ownerName: z.string().openapi({ example: "Lin Wei" }),
    ownerEmail: z.string().nullable().openapi({ example: "lin@example.com" }),
    memberGrade: grade.openapi({ description: "The effective grade: Free once a plan period has ended", example: "PROFESSION" }),
    planCode: z.enum(planCodes).openapi({ description: "The plan the space runs on now", example: "team" }),
    planExpiresAt: timestamp.nullable().openapi({ description: "When the running plan period ends (null: no end)" }),
    quotaOverrides: quotaOverridesSchema.nullable(),
    quotas: quotasSchema.openapi({
      description: "The quotas the space has: the plan's (as edited on this instance), the overrides, and the team minimum applied",
    }),
    memberCount: z.number().int().openapi({ example: 3 }),
    createdAt: timestamp,
  })
  .openapi("InstanceSpace");

const page = <T extends z.ZodType>(items: T, name: string) =>
  z
    .object({
      items: z.array(items),
      total: z.number().int().openapi({ description: "Rows matching the keyword", example: 1 }),
      pageNo: z.number().int().openapi({ example: 1 }),
      pageSize: z.number().int().openapi({ description: "The page size applied (after the cap)", example: INSTANCE_PAGE_SIZE }),
    })
    .openapi(name);

/** A page of users. */
export const instanceUserPageSchema = page(instanceUserSchema, "InstanceUserPage");
/** A page of spaces. */
export const instanceSpacePageSchema = page(instanceSpaceSchema, "InstanceSpacePage");

/** Body of PATCH /api/v1/instance/users/{userId}. */
export const updateInstanceUserBody = z
  .object({ memberGrade: grade.openapi({ description: "The new grade of the user's personal space", example: "PROFESSION" }) })
  .openapi("UpdateInstanceUserRequest", { example: { memberGrade: "PROFESSION" } });

/** Body of PATCH /api/v1/instance/spaces/{spaceId}. */
export const updateInstanceSpaceBody = z
  .object({
    memberGrade: grade.optional().openapi({ example: "ENTERPRISE" }),
    quotas: quotaOverridesSchema
      .nullable()
      .optional()
      .openapi({ description: "Replaces the space's overrides; an omitted quota follows the grade; null removes them all" }),
  })
  .refine((body) => body.memberGrade !== undefined || body.quotas !== undefined, {
    message: "msg:instance_space_change_required",
    path: ["memberGrade"],
  })
  .openapi("UpdateInstanceSpaceRequest", { example: { memberGrade: "PROFESSION", quotas: { clientManage: 20 } } });
