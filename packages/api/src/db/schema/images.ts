import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";

/**
 * One drawing task of a user (spec §7 Images): a generation from a prompt, or an upscale or
 * variation of result `parentIndex` of `parentTaskId`. The worker moves it queued → running →
 * succeeded or failed; `results` is JSON `[{ key, contentType, sizeBytes }]` of files in the
 * files store; `buttons` is JSON of the provider's operations on the result (Midjourney).
 * `hold` is the JSON credit hold taken at submit, settled on success and released on failure.
 */
export const imageTasks = sqliteTable(
  "image_tasks",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    spaceId: text("space_id").notNull(),
    model: text("model").notNull(),
    prompt: text("prompt").notNull(),
    /** JSON `{ size, count }`. */
    options: text("options").notNull().default("{}"),
    action: text("action", { enum: ["generate", "upscale", "variation"] }).notNull(),
    parentTaskId: text("parent_task_id"),
    parentIndex: integer("parent_index"),
    status: text("status", { enum: ["queued", "running", "succeeded", "failed"] }).notNull(),
    progress: integer("progress").notNull().default(0),
    providerTaskId: text("provider_task_id"),
    results: text("results").notNull().default("[]"),
    buttons: text("buttons").notNull().default("[]"),
    revisedPrompt: text("revised_prompt"),
    creditsHeld: integer("credits_held").notNull().default(0),
    creditsCharged: integer("credits_charged").notNull().default(0),
    hold: text("hold"),
    /** The §8 status of a failure: 410, 503, 561 or 599. */
    errorCode: integer("error_code"),
    errorDetail: text("error_detail"),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
    finishedAt: text("finished_at"),
  },
  (table) => [
    index("image_tasks_user_idx").on(table.userId, table.spaceId, table.createdAt),
    // One unfinished task per user: a second submit conflicts here, whatever process races it.
    uniqueIndex("image_tasks_one_running_idx").on(table.userId).where(sql`status IN ('queued', 'running')`),
  ],
);
