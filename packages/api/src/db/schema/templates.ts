import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";

/**
 * App and workflow templates (spec §7 Apps: template list, group list, detail, copy). Shipped
 * ones come from the data files in packages/api/src/templates/shipped and are re-seeded when their
 * `version` rises; the instance administrator adds their own from any app or workflow.
 */
export const templates = sqliteTable(
  "templates",
  {
    id: text("id").primaryKey(),
    /** Public code used in /template/{code}. */
    code: text("code").notNull(),
    kind: text("kind", { enum: ["app", "workflow"] }).notNull(),
    /** One of the template groups (templates/service/catalogue.ts). */
    groupId: text("group_id").notNull(),
    /** `shipped` with Parley, or `custom` (added by the administrator). */
    source: text("source", { enum: ["shipped", "custom"] }).notNull(),
    /** Version of a shipped template's data; a higher one in the data files replaces the row. */
    version: integer("version").notNull().default(1),
    nameEn: text("name_en").notNull(),
    nameZh: text("name_zh").notNull(),
    descriptionEn: text("description_en").notNull(),
    descriptionZh: text("description_zh").notNull(),
    avatarUrl: text("avatar_url").notNull(),
    category: text("category").notNull(),
    /** JSON: the app settings or the workflow graph, and what comes along (knowledge bases, schedule). */
    payload: text("payload").notNull(),
    sortOrder: integer("sort_order").notNull().default(0),
    createdBy: text("created_by"),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [uniqueIndex("templates_code_unique").on(table.code), index("templates_group_idx").on(table.groupId, table.sortOrder)],
);

/** Contact-form requests (spec §3 Other, §5): stored, shown to the administrator, mailed to sales. */
export const contactRequests = sqliteTable(
  "contact_requests",
  {
    id: text("id").primaryKey(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    email: text("email").notNull(),
    companyName: text("company_name").notNull(),
    language: text("language").notNull(),
    /** Whether the mail to the sales address went out. */
    mailed: integer("mailed", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
  },
  (table) => [index("contact_requests_created_idx").on(table.createdAt)],
);
