import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";
import { ok } from "../http/envelope";
import { translate } from "../http/translate";
import { defineRoute, idParam, jsonBody } from "../http/openapi";
import { nodeOutputs, nodeTypeGroups, systemArgs } from "./model";
import {
  createWorkflowBody,
  cronGenerateBody,
  cronGenerateSchema,
  cronPreviewBody,
  cronPreviewSchema,
  nodeReferencesSchema,
  nodeTypeGroupSchema,
  runListQuery,
  saveSchedulerBody,
  saveWorkflowGraphBody,
  schedulerSchema,
  startRunBody,
  systemArgSchema,
  updateWorkflowInfoBody,
  workflowAppSchema,
  workflowIssueSchema,
  workflowListQuery,
  workflowPageSchema,
  workflowRunPageSchema,
  workflowRunSchema,
  workflowSchema,
  workflowSquareSchema,
  workflowValidationSchema,
} from "./schemas";
import { generateCron, previewCron } from "./scheduler/generate";
import { clearSchedule, deleteSchedule, getSchedule, saveSchedule } from "./scheduler/schedule";
import { cancelRunFromRequest, getRun, listRuns, runScheduleNow, startRunFromRequest } from "./service/runs";
import type { WorkflowIssue } from "./service/validate";
import {
  checkWorkflow,
  copyWorkflow,
  createWorkflow,
  deleteWorkflow,
  deleteWorkflowNode,
  ensureWorkflowApp,
  getSquareWorkflow,
  getWorkflow,
  listSquareWorkflows,
  listWorkflows,
  nodeReferences,
  saveWorkflowGraph,
  setWorkflowPublished,
  updateWorkflowInfo,
} from "./service/workflows";

const workflowParam = idParam("workflowId", "wf_01jd7w3k5q9x2m4n6p8r");
const runParam = idParam("runId", "wfr_01jd7w3k5q9x2m4n6p8r");
const nodeParam = z.object({
  workflowId: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "workflowId", in: "path" }, example: "wf_01jd7w3k5q9x2m4n6p8r" }),
  nodeId: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "nodeId", in: "path" }, example: "llm_1" }),
});
const deletedSchema = z.object({ deleted: z.literal(true), id: z.string() }).openapi("WorkflowDeleted");
const saveQuery = z.object({
  draft: z
    .enum(["true", "false"])
    .optional()
    .openapi({ description: "true: keep the graph even when rules of spec §5 fail (they are answered in `issues`)", example: "false" }),
});
const savedSchema = z.object({ workflow: workflowSchema, issues: z.array(workflowIssueSchema) }).openapi("WorkflowSaved");
const validateBody = saveWorkflowGraphBody.partial().openapi("ValidateWorkflowRequest");

/**
 * Workflows (spec §7): the card, the graph, validation, the square, runs and history, and the
 * schedule. Everything but the square belongs to the caller's space; another space's answers 404.
 */
export function registerWorkflowRoutes(app: OpenAPIHono<AppEnv>) {
  const tags = ["Workflows"];
  const runTags = ["Workflow runs"];
  const scheduleTags = ["Workflow schedules"];
  const localized = (language: "en" | "zh-CN", issues: WorkflowIssue[]) =>
    issues.map((issue) => ({ code: issue.code, field: issue.field, nodeId: issue.nodeId, message: translate(language, issue.code, issue.params) }));

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/workflow-node-types",
      tags,
      public: true,
      summary: "Node types as the palette groups them (basic, branch, individuality)",
      data: z.array(nodeTypeGroupSchema),
    }),
    (c) =>
      ok(
        c,
        Object.entries(nodeTypeGroups).map(([group, types]) => ({
          group: group as keyof typeof nodeTypeGroups,
          types: [...types],
          outputs: Object.fromEntries(types.map((type) => [type, nodeOutputs[type]])),
        })),
      ),
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/workflow-system-args",
      tags,
      summary: "System arguments the engine gives every node ({{sys.…}})",
      data: z.array(systemArgSchema),
    }),
    (c) =>
      ok(
        c,
        systemArgs.map((arg) => ({ name: arg.name, type: arg.type, description: arg.description[c.var.language] })),
      ),
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/workflows",
      tags,
      status: 201,
      summary: "Create a workflow (name, description, avatar and category required); the graph starts as start → end",
      request: { body: jsonBody(createWorkflowBody) },
      data: workflowSchema,
    }),
    async (c) => ok(c, await createWorkflow(c.var.deps, c.var.auth, c.req.valid("json")), 201),
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/workflows",
      tags,
      summary: "Workflows of the current space, newest first",
      request: { query: workflowListQuery },
      data: workflowPageSchema,
    }),
    async (c) => ok(c, await listWorkflows(c.var.deps, c.var.auth, c.req.valid("query"))),
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/workflows/{workflowId}",
      tags,
      summary: "Workflow detail with its graph",
      request: { params: workflowParam },
      data: workflowSchema,
    }),
    async (c) => ok(c, await getWorkflow(c.var.deps, c.var.auth, c.req.valid("param").workflowId)),
  );
  app.openapi(
    defineRoute({
      method: "patch",
      path: "/api/v1/workflows/{workflowId}",
      tags,
      summary: "Info edit: name, description, avatar, category",
      request: { params: workflowParam, body: jsonBody(updateWorkflowInfoBody) },
      data: workflowSchema,
    }),
    async (c) => ok(c, await updateWorkflowInfo(c.var.deps, c.var.auth, c.req.valid("param").workflowId, c.req.valid("json"))),
  );
  app.openapi(
    defineRoute({
      method: "put",
      path: "/api/v1/workflows/{workflowId}/graph",
      tags,
      summary: "Save the graph (elements and lines); refused with the first broken rule, naming the node, unless draft",
      description:
        "Branch and intention `node_id`s are set from the lines leaving their handles. Unknown node types, malformed configs and clashing ids are refused even for drafts. A webhook secret answered as `••••••` keeps the stored one when sent back unchanged.",
      request: { params: workflowParam, query: saveQuery, body: jsonBody(saveWorkflowGraphBody) },
      data: savedSchema,
    }),
    async (c) => {
      const saved = await saveWorkflowGraph(
        c.var.deps,
        c.var.auth,
        c.req.valid("param").workflowId,
        c.req.valid("json"),
        c.req.valid("query").draft === "true",
      );
      return ok(c, { workflow: saved.workflow, issues: localized(c.var.language, saved.issues) });
    },
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/workflows/{workflowId}/validate",
      tags,
      summary: "Every broken rule of spec §5 (card, graph, cron), each naming its node or field; a graph in the body is checked instead of the stored one",
      request: { params: workflowParam, body: jsonBody(validateBody) },
      data: workflowValidationSchema,
    }),
    async (c) => {
      const body = c.req.valid("json");
      const graph = body.elements ? { elements: body.elements, lines: body.lines ?? [] } : undefined;
      const issues = await checkWorkflow(c.var.deps, c.var.auth, c.req.valid("param").workflowId, graph);
      return ok(c, { valid: issues.length === 0, issues: localized(c.var.language, issues) });
    },
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/workflows/{workflowId}/nodes/{nodeId}/references",
      tags,
      summary: "The references a stored node reads ({{sys.query}}, {{start.city}}, {{llm_1.output}}…): the inputs a NODE run of it takes",
      request: { params: nodeParam },
      data: nodeReferencesSchema,
    }),
    async (c) => ok(c, await nodeReferences(c.var.deps, c.var.auth, c.req.valid("param").workflowId, c.req.valid("param").nodeId)),
  );
  app.openapi(
    defineRoute({
      method: "delete",
      path: "/api/v1/workflows/{workflowId}/nodes/{nodeId}",
      tags,
      summary: "Delete a node: its lines go, and branches or intentions that led to it lose their target",
      request: { params: nodeParam },
      data: workflowSchema,
    }),
    async (c) => ok(c, await deleteWorkflowNode(c.var.deps, c.var.auth, c.req.valid("param").workflowId, c.req.valid("param").nodeId)),
  );
  app.openapi(
    defineRoute({
      method: "delete",
      path: "/api/v1/workflows/{workflowId}",
      tags,
      summary: "Delete a workflow with its runs (and its workflow app)",
      request: { params: workflowParam },
      data: deletedSchema,
    }),
    async (c) => ok(c, await deleteWorkflow(c.var.deps, c.var.auth, c.req.valid("param").workflowId)),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/workflows/{workflowId}/copy",
      tags,
      status: 201,
      summary: "Copy a workflow (not published, timer cleared, no app)",
      request: { params: workflowParam },
      data: workflowSchema,
    }),
    async (c) => ok(c, await copyWorkflow(c.var.deps, c.var.auth, c.req.valid("param").workflowId, translate(c.var.language, "workflow_copy_suffix")), 201),
  );
  for (const [method, published] of [
    ["post", true],
    ["delete", false],
  ] as const) {
    app.openapi(
      defineRoute({
        method,
        path: "/api/v1/workflows/{workflowId}/publish",
        tags,
        summary: published ? "Publish to the square (every rule must hold)" : "Cancel publishing (take it off the square)",
        request: { params: workflowParam },
        data: workflowSchema,
      }),
      async (c) => ok(c, await setWorkflowPublished(c.var.deps, c.var.auth, c.req.valid("param").workflowId, published)),
    );
  }
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/workflow-square",
      tags,
      public: true,
      summary: "Published workflows (the square), newest first",
      request: { query: workflowListQuery },
      data: z
        .object({ items: z.array(workflowSquareSchema), total: z.number().int(), pageNo: z.number().int(), pageSize: z.number().int() })
        .openapi("WorkflowSquarePage"),
    }),
    async (c) => ok(c, await listSquareWorkflows(c.var.deps, c.req.valid("query"))),
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/workflow-square/{workflowId}",
      tags,
      public: true,
      summary: "Square detail: the public view of a published workflow (secrets and robot addresses masked)",
      request: { params: workflowParam },
      data: workflowSquareSchema,
    }),
    async (c) => ok(c, await getSquareWorkflow(c.var.deps, c.req.valid("param").workflowId)),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/workflows/{workflowId}/app",
      tags,
      summary: "The WORKFLOW app of this workflow (made on first call): chat with it, or call it as an OpenAI model; the end node's output answers",
      request: { params: workflowParam },
      data: workflowAppSchema,
    }),
    async (c) => ok(c, await ensureWorkflowApp(c.var.deps, c.var.auth, c.req.valid("param").workflowId)),
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/workflows/{workflowId}/runs",
      tags: runTags,
      status: 201,
      summary: "Run the workflow (FLOW) or one node with given inputs (NODE); the graph must pass every rule",
      description:
        "The run is executed by a durable job: it survives a restart (resumed, or failed with its reason). With `wait`, answers once it ended or parked on a timer (at most 60 s).",
      request: { params: workflowParam, body: jsonBody(startRunBody) },
      data: workflowRunSchema,
    }),
    async (c) => ok(c, await startRunFromRequest(c.var.deps, c.var.auth, c.req.valid("param").workflowId, c.req.valid("json"), c.var.language), 201),
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/workflows/{workflowId}/runs",
      tags: runTags,
      summary: "Run history, newest first",
      request: { params: workflowParam, query: runListQuery },
      data: workflowRunPageSchema,
    }),
    async (c) => ok(c, await listRuns(c.var.deps, c.var.auth, c.req.valid("param").workflowId, c.req.valid("query"))),
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/workflow-runs/{runId}",
      tags: runTags,
      summary: "Run detail: status, inputs, output and every node's state (no_execution, running, success, failure) with inputs, outputs, timings and errors",
      request: { params: runParam },
      data: workflowRunSchema,
    }),
    async (c) => ok(c, await getRun(c.var.deps, c.var.auth, c.req.valid("param").runId)),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/workflow-runs/{runId}/cancel",
      tags: runTags,
      summary:
        'Cancel a run: it ends as a failure ("Cancelled by …"); a node in hand is stopped, a timer does not wake. A run already ended is answered as it is',
      request: { params: runParam },
      data: workflowRunSchema,
    }),
    async (c) => ok(c, await cancelRunFromRequest(c.var.deps, c.var.auth, c.req.valid("param").runId, c.var.language)),
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/workflow-cron/generate",
      tags: scheduleTags,
      summary: "Cron generate: a 5-field expression from a description (the configured model, else offline phrase rules)",
      request: { body: jsonBody(cronGenerateBody) },
      data: cronGenerateSchema,
    }),
    async (c) => ok(c, await generateCron(c.var.deps, c.req.valid("json").description, c.var.language)),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/workflow-cron/preview",
      tags: scheduleTags,
      summary: "Validate a cron expression (5 fields) and preview its next 10 run times",
      request: { body: jsonBody(cronPreviewBody) },
      data: cronPreviewSchema,
    }),
    (c) => ok(c, previewCron(c.var.deps, c.req.valid("json"))),
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/workflows/{workflowId}/scheduler",
      tags: scheduleTags,
      summary: "Scheduler detail with the next 10 run times",
      request: { params: workflowParam },
      data: schedulerSchema,
    }),
    async (c) => ok(c, await getSchedule(c.var.deps, c.var.auth, c.req.valid("param").workflowId)),
  );
  app.openapi(
    defineRoute({
      method: "put",
      path: "/api/v1/workflows/{workflowId}/scheduler",
      tags: scheduleTags,
      summary: "Scheduler save: create or change the timer (5-field cron)",
      request: { params: workflowParam, body: jsonBody(saveSchedulerBody) },
      data: schedulerSchema,
    }),
    async (c) => ok(c, await saveSchedule(c.var.deps, c.var.auth, c.req.valid("param").workflowId, c.req.valid("json"))),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/workflows/{workflowId}/scheduler/clear",
      tags: scheduleTags,
      summary: "Clear the timer: it stops firing; the expression is kept",
      request: { params: workflowParam },
      data: schedulerSchema,
    }),
    async (c) => ok(c, await clearSchedule(c.var.deps, c.var.auth, c.req.valid("param").workflowId)),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/workflows/{workflowId}/scheduler/run",
      tags: scheduleTags,
      status: 201,
      summary: "Cron run: start the scheduled run now (type TIME, queued like a tick), to try the timer without waiting",
      request: { params: workflowParam },
      data: workflowRunSchema,
    }),
    async (c) => ok(c, await runScheduleNow(c.var.deps, c.var.auth, c.req.valid("param").workflowId, c.var.language), 201),
  );
  app.openapi(
    defineRoute({
      method: "delete",
      path: "/api/v1/workflows/{workflowId}/scheduler",
      tags: scheduleTags,
      summary: "Delete the timer and its expression",
      request: { params: workflowParam },
      data: schedulerSchema,
    }),
    async (c) => ok(c, await deleteSchedule(c.var.deps, c.var.auth, c.req.valid("param").workflowId)),
  );
}
