import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";
import { spaces } from "./spaces";

/** Run kinds (spec §3 Workflow): the whole graph, a scheduled run, one node for debugging. */
export const workflowRunTypes = ["FLOW", "TIME", "NODE"] as const;
/** Where a run stands (spec §4): runs end in success or failure. */
export const workflowRunStatuses = ["running", "success", "failure"] as const;
/** Where one node of a run stands; `no_execution` for nodes on branches not taken. */
export const workflowNodeStatuses = ["no_execution", "running", "success", "failure"] as const;

/** A workflow (spec §3): its card, its graph (elements and lines, JSON) and its schedule. */
export const workflows = sqliteTable(
  "workflows",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull(),
    avatarUrl: text("avatar_url").notNull(),
    category: text("category").notNull(),
    /** JSON array of elements: { id, type, config, position }. */
    elements: text("elements").notNull().default("[]"),
    /** JSON array of lines: { id, source, sourceHandle, target }. */
    lines: text("lines").notNull().default("[]"),
    /** Published to the square. */
    isPublic: integer("is_public", { mode: "boolean" }).notNull().default(false),
    publishedAt: text("published_at"),
    /** Five-field cron expression of the timer; null when no timer was created. */
    cron: text("cron"),
    /** IANA time zone the cron expression is read in. */
    cronTimezone: text("cron_timezone").notNull().default("UTC"),
    /** The timer runs (created) or is cleared (kept, not firing). */
    cronEnabled: integer("cron_enabled", { mode: "boolean" }).notNull().default(false),
    /** The WORKFLOW app answering through this workflow, once made. */
    appId: text("app_id"),
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [index("workflows_space_idx").on(table.spaceId, table.createdAt), index("workflows_public_idx").on(table.isPublic)],
);

/** One run of a workflow, with the graph it ran (so later edits do not change history). */
export const workflowRuns = sqliteTable(
  "workflow_runs",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id").notNull(),
    workflowId: text("workflow_id")
      .notNull()
      .references(() => workflows.id, { onDelete: "cascade" }),
    type: text("type", { enum: workflowRunTypes }).notNull(),
    status: text("status", { enum: workflowRunStatuses }).notNull().default("running"),
    /** For NODE runs: the node run alone. */
    nodeId: text("node_id"),
    /** JSON: the start inputs (query, variables, files) and, for NODE runs, the node's given inputs. */
    inputs: text("inputs").notNull().default("{}"),
    /** JSON: { elements, lines } as they were when the run started. */
    graph: text("graph").notNull(),
    /** JSON: where the run comes from (user, conversation, schedule tick). */
    trigger: text("trigger").notNull().default("{}"),
    /** JSON: the end node's output, once successful. */
    output: text("output"),
    error: text("error"),
    /** Set while a timer node holds the run: when it wakes. */
    waitingUntil: text("waiting_until"),
    steps: integer("steps").notNull().default(0),
    startedAt: text("started_at").notNull(),
    finishedAt: text("finished_at"),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [index("workflow_runs_workflow_idx").on(table.workflowId, table.startedAt), index("workflow_runs_status_idx").on(table.status, table.spaceId)],
);

/** The state of one node in one run: inputs, outputs, timings, error. */
export const workflowNodeRuns = sqliteTable(
  "workflow_node_runs",
  {
    runId: text("run_id")
      .notNull()
      .references(() => workflowRuns.id, { onDelete: "cascade" }),
    nodeId: text("node_id").notNull(),
    nodeType: text("node_type").notNull(),
    nodeName: text("node_name").notNull(),
    status: text("status", { enum: workflowNodeStatuses }).notNull(),
    /** Order in which nodes finished (resuming replays completed nodes in this order). */
    sequence: integer("sequence").notNull().default(0),
    inputs: text("inputs"),
    outputs: text("outputs"),
    /** The branch a branch node took (a branch or intention id). */
    branch: text("branch"),
    error: text("error"),
    startedAt: text("started_at"),
    finishedAt: text("finished_at"),
    durationMs: integer("duration_ms"),
  },
  (table) => [primaryKey({ columns: [table.runId, table.nodeId] })],
);

/**
 * One row per (workflow, tick) of a schedule: whoever inserts it fires the tick, so a tick fires
 * once however many server processes run the scheduler.
 */
export const workflowScheduleTicks = sqliteTable(
  "workflow_schedule_ticks",
  {
    workflowId: text("workflow_id")
      .notNull()
      .references(() => workflows.id, { onDelete: "cascade" }),
    tick: text("tick").notNull(),
    runId: text("run_id"),
    claimedBy: text("claimed_by").notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.workflowId, table.tick] })],
);
