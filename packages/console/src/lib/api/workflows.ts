import type { components } from "@parley/sdk";
import { call, client, type CallOptions } from "./request";

type Schemas = components["schemas"];
type Extra = Pick<CallOptions, "silent" | "signal" | "dedupeKey">;

/** A list entry. */
export type WorkflowSummary = Schemas["WorkflowSummary"];
/** A workflow with its graph. */
export type Workflow = Schemas["Workflow"];
/** One broken rule, naming its node and field, in the request's language. */
export type ServerIssue = Schemas["WorkflowIssue"];
/** A run with every node's state. */
export type WorkflowRun = Schemas["WorkflowRun"];
/** A run in the history list. */
export type WorkflowRunSummary = Schemas["WorkflowRunSummary"];
/** One node's state in a run. */
export type WorkflowNodeRun = Schemas["WorkflowNodeRun"];
/** The schedule with its next 10 run times. */
export type WorkflowScheduler = Schemas["WorkflowScheduler"];
/** Body of create. */
export type CreateWorkflow = Schemas["CreateWorkflowRequest"];
/** Body of info edit. */
export type UpdateWorkflowInfo = Schemas["UpdateWorkflowInfoRequest"];
/** Body of save. */
export type SaveWorkflowGraph = Schemas["SaveWorkflowGraphRequest"];
/** Body of a run. */
export type StartWorkflowRun = Schemas["StartWorkflowRunRequest"];

const wf = (workflowId: string) => ({ params: { path: { workflowId } } });

/**
 * The workflow calls the console makes (spec §7 Workflow), through the SDK and the request
 * layer. Calls whose refusal the page shows on a field or node are `silent`.
 */
export const workflowEndpoints = {
  list: (pageNo = 1, pageSize = 100, keyword?: string, extra: Extra = {}) =>
    call({ dedupeKey: "workflows", ...extra }, (init) =>
      client.GET("/api/v1/workflows", { ...init, params: { query: { pageNo, pageSize, ...(keyword ? { keyword } : {}) } } }),
    ),
  get: (id: string, extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/workflows/{workflowId}", { ...init, ...wf(id) })),
  create: (body: CreateWorkflow, extra: Extra = {}) => call({ silent: true, ...extra }, (init) => client.POST("/api/v1/workflows", { ...init, body })),
  updateInfo: (id: string, body: UpdateWorkflowInfo, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.PATCH("/api/v1/workflows/{workflowId}", { ...init, ...wf(id), body })),
  /** Saves the graph as a draft: kept even when rules fail, which come back in `issues`. */
  saveGraph: (id: string, body: SaveWorkflowGraph, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) =>
      client.PUT("/api/v1/workflows/{workflowId}/graph", { ...init, params: { path: { workflowId: id }, query: { draft: "true" } }, body }),
    ),
  validate: (id: string, body: Partial<SaveWorkflowGraph> = {}, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.POST("/api/v1/workflows/{workflowId}/validate", { ...init, ...wf(id), body })),
  remove: (id: string, extra: Extra = {}) => call(extra, (init) => client.DELETE("/api/v1/workflows/{workflowId}", { ...init, ...wf(id) })),
  copy: (id: string, extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/workflows/{workflowId}/copy", { ...init, ...wf(id) })),
  publish: (id: string, extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/workflows/{workflowId}/publish", { ...init, ...wf(id) })),
  unpublish: (id: string, extra: Extra = {}) => call(extra, (init) => client.DELETE("/api/v1/workflows/{workflowId}/publish", { ...init, ...wf(id) })),
  run: (id: string, body: StartWorkflowRun, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.POST("/api/v1/workflows/{workflowId}/runs", { ...init, ...wf(id), body })),
  runs: (id: string, pageNo = 1, pageSize = 20, extra: Extra = {}) =>
    call({ dedupeKey: `workflow-runs-${id}`, ...extra }, (init) =>
      client.GET("/api/v1/workflows/{workflowId}/runs", { ...init, params: { path: { workflowId: id }, query: { pageNo, pageSize } } }),
    ),
  runDetail: (runId: string, extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/workflow-runs/{runId}", { ...init, params: { path: { runId } } })),
  scheduler: (id: string, extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/workflows/{workflowId}/scheduler", { ...init, ...wf(id) })),
  saveScheduler: (id: string, body: Schemas["SaveWorkflowSchedulerRequest"], extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.PUT("/api/v1/workflows/{workflowId}/scheduler", { ...init, ...wf(id), body })),
  clearScheduler: (id: string, extra: Extra = {}) =>
    call(extra, (init) => client.POST("/api/v1/workflows/{workflowId}/scheduler/clear", { ...init, ...wf(id) })),
  generateCron: (description: string, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.POST("/api/v1/workflow-cron/generate", { ...init, body: { description } })),
  previewCron: (cron: string, cronTimezone?: string, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) =>
      client.POST("/api/v1/workflow-cron/preview", { ...init, body: { cron, ...(cronTimezone ? { cronTimezone } : {}) } }),
    ),
};
