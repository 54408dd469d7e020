import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { messageText } from "../i18n/catalogue";
import type { Language } from "../i18n/language";
import type { Auth, Deps } from "../kernel";
import { runInline } from "../workflows/engine/runner";
import { asText } from "../workflows/engine/template";
import type { NodeConfig } from "../workflows/model";
import { loadRunView, startRun } from "../workflows/service/runs";
import { graphOf, loadWorkflow, type WorkflowRow } from "../workflows/service/workflows";
import { APP_VERSION } from "../system/routes";
import { serviceToolError, toolError } from "./app-server";

/** The start node's settings: what a run takes. */
function startOf(workflow: WorkflowRow): NodeConfig<"start"> | undefined {
  return graphOf(workflow).elements.find((element) => element.type === "start")?.config as NodeConfig<"start"> | undefined;
}

/** The `run` tool's input: the text (when the start node takes text) and each start variable by its identifier. */
function runInputShape(workflow: WorkflowRow, language: Language): Record<string, z.ZodType> {
  const start = startOf(workflow);
  const shape: Record<string, z.ZodType> = {};
  if (start?.inputs?.text !== false) shape.query = z.string().max(10_000).optional().describe(messageText(language, "mcp_tool_run_query"));
  for (const variable of start?.variables ?? []) {
    const described = [variable.displayName, variable.prompt].filter(Boolean).join(": ");
    let type: z.ZodType;
    if (variable.type === "number") type = z.number();
    else if (variable.type === "boolean") type = z.boolean();
    else if (variable.type === "select" && variable.options?.length) type = z.enum(variable.options as [string, ...string[]]);
    else type = z.string().max(10_000);
    shape[variable.identifier] = (variable.required && (variable.default === undefined || variable.default === null) ? type : type.optional()).describe(
      described,
    );
  }
  return shape;
}

/**
 * The MCP server of one published workflow: a `run` tool whose input follows the start node
 * (text as `query`, each start variable by its identifier), answering the end node's output.
 * Its model nodes hold credits call by call, as for every run.
 */
export function workflowMcpServer(deps: Deps, workflow: WorkflowRow, auth: Auth, language: Language): McpServer {
  const server = new McpServer(
    { name: `parley-workflow-${workflow.id}`, title: workflow.name, version: APP_VERSION },
    { instructions: workflow.description || workflow.name },
  );
  server.registerTool(
    "run",
    {
      title: workflow.name,
      description: messageText(language, "mcp_tool_run"),
      inputSchema: runInputShape(workflow, language),
      outputSchema: { output: z.string(), runId: z.string(), status: z.string() },
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    async (input: Record<string, unknown>) => {
      try {
        // The workflow as it is now: edited, unpublished or taken away since the session began.
        const current = await loadWorkflow(deps, auth, workflow.id);
        if (!current.publishedAt) return toolError(messageText(language, "mcp_workflow_not_found", { id: workflow.id }));
        const { query, ...variables } = input;
        const runId = await startRun(deps, current, {
          type: "FLOW",
          query: typeof query === "string" ? query : "",
          variables,
          trigger: { by: "api", userId: auth.userId, language },
        });
        await runInline(deps, runId, current.spaceId);
        const run = await loadRunView(deps, runId);
        if (run.status === "failure") return toolError(messageText(language, "mcp_tool_run_failed", { reason: run.error ?? "" }));
        if (run.status !== "success")
          return {
            content: [{ type: "text", text: messageText(language, "mcp_tool_run_waiting", { runId }) }],
            structuredContent: { output: "", runId, status: run.status },
          };
        const output = asText(run.output);
        return { content: [{ type: "text", text: output }], structuredContent: { output, runId, status: run.status } };
      } catch (error) {
        return serviceToolError(language, error);
      }
    },
  );
  return server;
}
