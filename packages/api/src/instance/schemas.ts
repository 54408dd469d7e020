import { z } from "@hono/zod-openapi";
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

/** The three quotas that open console areas. */
export const quotasSchema = z
  .object({
    clientManage: quota("Client (channel) quota; > 0 opens Clients and Dashboard", 10),
    customerManage: quota("Chat-management quota; > 0 opens Chat management and Customers", 3),
    memberNumber: quota("Member quota; > 0 opens Team", 5),
  })
  .openapi("InstanceQuotas");

/** Overrides the administrator set on a space; an omitted quota follows the grade. */
export const quotaOverridesSchema = z
  .object({
    clientManage: quotasSchema.shape.clientManage.optional(),
    customerManage: quotasSchema.shape.customerManage.optional(),
    memberNumber: quotasSchema.shape.memberNumber.optional(),
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
    memberGrade: grade.openapi({ example: "PROFESSION" }),
    quotaOverrides: quotaOverridesSchema.nullable(),
    quotas: quotasSchema.openapi({ description: "The quotas the space has: the grade's, the overrides, and the team minimum applied" }),
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
