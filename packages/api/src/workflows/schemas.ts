import { z } from "@hono/zod-openapi";
import { workflowNodeStatuses, workflowRunStatuses, workflowRunTypes } from "../db/schema/workflows";
import { nodeTypeGroups, nodeTypes, workflowElementInput, workflowElementSchema, workflowLineSchema } from "./model";
import { boundedJson, pageQuerySchema } from "../http/schemas";

const timestamp = z.string().openapi({ format: "date-time", example: "2026-11-21T08:00:00.000Z" });
const workflowId = z.string().openapi({ description: "Workflow id", example: "wf_01jd7w3k5q9x2m4n6p8r" });

/** Limits of the card fields. */
export const WORKFLOW_LIMITS = { nameMax: 50, descriptionMax: 500, avatarUrlMax: 1000, categoryMax: 50, elementsMax: 2000, linesMax: 4000 } as const;

const infoFields = {
  name: z
    .string()
    .max(WORKFLOW_LIMITS.nameMax * 4)
    .openapi({ description: `Required; at most ${WORKFLOW_LIMITS.nameMax} characters`, example: "Daily report" }),
  description: z
    .string()
    .max(WORKFLOW_LIMITS.descriptionMax * 4)
    .openapi({ description: "Required", example: "Summarises yesterday's orders every morning" }),
  avatarUrl: z
    .string()
    .max(WORKFLOW_LIMITS.avatarUrlMax * 4)
    .openapi({ description: "Required", example: "https://cdn.example.com/avatars/report.png" }),
  category: z
    .string()
    .max(WORKFLOW_LIMITS.categoryMax * 4)
    .openapi({ description: "Required", example: "office" }),
};

/** Body of create: the card, and optionally a first graph (a start and an end node when omitted). */
export const createWorkflowBody = z
  .object({
    ...infoFields,
    elements: z.array(workflowElementInput).max(WORKFLOW_LIMITS.elementsMax).optional(),
    lines: z.array(workflowLineSchema).max(WORKFLOW_LIMITS.linesMax).optional(),
  })
  .openapi("CreateWorkflowRequest");

/** Body of info edit. */
export const updateWorkflowInfoBody = z.object(infoFields).partial().openapi("UpdateWorkflowInfoRequest");

/** Body of save: the whole graph. */
export const saveWorkflowGraphBody = z
  .object({
    elements: z.array(workflowElementInput).max(WORKFLOW_LIMITS.elementsMax),
    lines: z.array(workflowLineSchema).max(WORKFLOW_LIMITS.linesMax),
  })
  .openapi("SaveWorkflowGraphRequest");

/** One broken rule of spec §5, naming the node or field. */
export const workflowIssueSchema = z
  .object({
    code: z.string().openapi({ description: "Message id of the rule", example: "workflow_node_model_required" }),
    field: z.string().openapi({
      description: "The offending field: a card field, `cron`, `elements.<nodeId>.config.<key>`, `lines.<lineId>`",
      example: "elements.llm_1.config.model",
    }),
    nodeId: z.string().nullable().openapi({ description: "The offending node, when a node is at fault", example: "llm_1" }),
    message: z.string().openapi({ description: "In the request's language", example: "Node LLM (llm_1): choose a model" }),
  })
  .openapi("WorkflowIssue");

export const workflowValidationSchema = z.object({ valid: z.boolean(), issues: z.array(workflowIssueSchema) }).openapi("WorkflowValidation");

const scheduleFields = {
  cron: z.string().nullable().openapi({ description: "Five-field cron expression; null when no timer exists", example: "0 9 * * *" }),
  cronTimezone: z.string().openapi({ description: "IANA time zone the expression is read in", example: "UTC" }),
  cronEnabled: z.boolean().openapi({ description: "The timer fires (created) or is cleared", example: false }),
};

/** A list entry. */
export const workflowSummarySchema = z
  .object({
    id: workflowId,
    name: z.string(),
    description: z.string(),
    avatarUrl: z.string(),
    category: z.string(),
    isPublic: z.boolean(),
    publishedAt: timestamp.nullable(),
    ...scheduleFields,
    appId: z.string().nullable().openapi({ description: "The WORKFLOW app answering through this workflow" }),
    appCode: z.string().nullable().openapi({ description: "That app's code (the OpenAI `model`)" }),
    nodeCount: z.number().int(),
    createdBy: z.string(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .openapi("WorkflowSummary");

/** The full workflow with its graph. */
export const workflowSchema = workflowSummarySchema
  .extend({ elements: z.array(workflowElementSchema), lines: z.array(workflowLineSchema) })
  .openapi("Workflow");

export const workflowPageSchema = z
  .object({ items: z.array(workflowSummarySchema), total: z.number().int(), pageNo: z.number().int(), pageSize: z.number().int() })
  .openapi("WorkflowPage");

export const workflowListQuery = pageQuerySchema.extend({
  keyword: z.string().max(100).optional().openapi({ description: "Matches the name", example: "report" }),
});

/** The square's public view: the card and the graph, secrets removed. */
export const workflowSquareSchema = z
  .object({
    id: workflowId,
    name: z.string(),
    description: z.string(),
    avatarUrl: z.string(),
    category: z.string(),
    publishedAt: timestamp.nullable(),
    elements: z.array(workflowElementSchema),
    lines: z.array(workflowLineSchema),
  })
  .openapi("WorkflowSquareDetail");

export const systemArgSchema = z
  .object({ name: z.string().openapi({ example: "sys.query" }), type: z.string().openapi({ example: "string" }), description: z.string() })
  .openapi("WorkflowSystemArg");

export const nodeTypeGroupSchema = z
  .object({
    group: z.enum(Object.keys(nodeTypeGroups) as ["basic", "branch", "individuality"]),
    types: z.array(z.enum(nodeTypes)),
    outputs: z.record(z.string(), z.array(z.string())).openapi({
      description:
        "Per type of the group: the keys of its outputs, readable as {{node_id.key}} (start adds its variables, llm its structured output names, code_block the keys main returns)",
      example: { llm: ["output", "model"] },
    }),
  })
  .openapi("WorkflowNodeTypeGroup");

/** The references a node reads, for the inputs form of a NODE run. */
export const nodeReferencesSchema = z
  .object({
    nodeId: z.string(),
    references: z.array(z.string()).openapi({
      description: "Each {{…}} the node's config uses, without braces; give their values as `nodeInputs` of a NODE run",
      example: ["sys.query", "start.city", "llm_1.output"],
    }),
  })
  .openapi("WorkflowNodeReferences");

/** A node's state in a run. */
export const workflowNodeRunSchema = z
  .object({
    nodeId: z.string(),
    nodeType: z.string(),
    nodeName: z.string(),
    status: z.enum(workflowNodeStatuses).openapi({ description: "no_execution: on a branch not taken (or not reached)" }),
    inputs: z.unknown().openapi({ description: "What the node was given (templates filled in)" }),
    outputs: z.unknown().openapi({ description: "What the node produced" }),
    branch: z.string().nullable().openapi({ description: "Branch or intention a branch node took" }),
    error: z.string().nullable(),
    startedAt: timestamp.nullable(),
    finishedAt: timestamp.nullable(),
    durationMs: z.number().int().nullable(),
  })
  .openapi("WorkflowNodeRun");

export const workflowRunSummarySchema = z
  .object({
    id: z.string().openapi({ example: "wfr_01jd7w3k5q9x2m4n6p8r" }),
    workflowId,
    type: z.enum(workflowRunTypes).openapi({ description: "FLOW whole graph, TIME scheduled, NODE one node" }),
    status: z.enum(workflowRunStatuses),
    nodeId: z.string().nullable(),
    waitingUntil: timestamp.nullable().openapi({ description: "A timer node holds the run until then" }),
    error: z.string().nullable(),
    steps: z.number().int(),
    startedAt: timestamp,
    finishedAt: timestamp.nullable(),
    durationMs: z.number().int().nullable(),
  })
  .openapi("WorkflowRunSummary");

export const workflowRunSchema = workflowRunSummarySchema
  .extend({
    inputs: z.unknown(),
    output: z.unknown().openapi({ description: "The end node's output (a NODE run: the node's outputs)" }),
    trigger: z.unknown(),
    nodes: z.array(workflowNodeRunSchema).openapi({
      description: "Every node of the graph in the order they ran (finished nodes first, then running ones), then the nodes that did not run, in graph order",
    }),
  })
  .openapi("WorkflowRun");

export const workflowRunPageSchema = z
  .object({ items: z.array(workflowRunSummarySchema), total: z.number().int(), pageNo: z.number().int(), pageSize: z.number().int() })
  .openapi("WorkflowRunPage");

export const runListQuery = workflowListQuery.omit({ keyword: true }).extend({
  type: z.enum(workflowRunTypes).optional(),
  status: z.enum(workflowRunStatuses).optional(),
});

/** Body of starting a run. */
export const startRunBody = z
  .object({
    type: z.enum(["FLOW", "NODE"]).optional().openapi({ description: "FLOW when omitted", example: "FLOW" }),
    query: z.string().max(20_000).optional().openapi({ description: "The text input ({{sys.query}})", example: "Summarise today's news" }),
    variables: boundedJson(z.record(z.string(), z.unknown()))
      .optional()
      .openapi({ description: "Start variables by identifier", example: { city: "Paris" } }),
    files: z.array(z.string().max(2000)).max(20).optional().openapi({ description: "Image and file URLs ({{sys.files}})" }),
    nodeId: z.string().max(64).optional().openapi({ description: "NODE runs: the node to run", example: "llm_1" }),
    nodeInputs: boundedJson(z.record(z.string(), z.unknown()))
      .optional()
      .openapi({ description: 'NODE runs: values of the references the node uses, by reference (e.g. {"start.city": "Paris", "llm_0.output": "…"})' }),
    wait: z
      .boolean()
      .optional()
      .openapi({ description: "Answer once the run ends or parks on a timer (at most 60 s); otherwise answer at once", example: false }),
  })
  .openapi("StartWorkflowRunRequest");

/** The schedule of a workflow. */
export const schedulerSchema = z
  .object({ workflowId, ...scheduleFields, nextRuns: z.array(timestamp).openapi({ description: "Next 10 fire times (empty when cleared)" }) })
  .openapi("WorkflowScheduler");

export const saveSchedulerBody = z
  .object({
    cron: z.string().max(200).openapi({ description: "Five fields: minute hour day-of-month month day-of-week", example: "0 9 * * *" }),
    cronTimezone: z.string().max(64).optional().openapi({ description: "IANA time zone (UTC when omitted)", example: "Asia/Shanghai" }),
    enabled: z.boolean().optional().openapi({ description: "true (default) creates the timer; false saves it cleared" }),
  })
  .openapi("SaveWorkflowSchedulerRequest");

export const cronGenerateBody = z
  .object({ description: z.string().min(1).max(500).openapi({ example: "every monday at 8:30" }) })
  .openapi("CronGenerateRequest");
export const cronGenerateSchema = z
  .object({
    cron: z.string().openapi({ example: "30 8 * * 1" }),
    source: z.enum(["model", "rules"]).openapi({ description: "Written by the configured model, or by the offline phrase rules" }),
    nextRuns: z.array(timestamp),
  })
  .openapi("CronGenerateResult");
export const cronPreviewBody = z
  .object({ cron: z.string().max(200).openapi({ example: "*/15 * * * *" }), cronTimezone: z.string().max(64).optional().openapi({ example: "UTC" }) })
  .openapi("CronPreviewRequest");
export const cronPreviewSchema = z
  .object({ cron: z.string(), nextRuns: z.array(timestamp).openapi({ description: "The next 10 fire times" }) })
  .openapi("CronPreview");

export const workflowAppSchema = z
  .object({ workflowId, appId: z.string(), appCode: z.string().openapi({ description: "Chat with it (/api/v1/chat/stream) or use it as the OpenAI `model`" }) })
  .openapi("WorkflowApp");
