import { z } from "@hono/zod-openapi";
import { boundedJson } from "../http/schemas";

/**
 * The workflow graph (spec §3 Workflow): elements (nodes) with a type, a config and a position,
 * and lines between them. Each node type's config is described here once; the editor, the
 * validation rules and the engine all read these shapes.
 */

/** The fourteen node types, grouped as the editor's palette groups them. */
export const nodeTypeGroups = {
  basic: ["start", "end", "app", "llm", "knowledge_base", "database", "plugin", "code_block"],
  branch: ["intent_branch", "logic_branch"],
  individuality: ["fixed_reply", "channel_send", "manual", "timer"],
} as const;

/** Every node type. */
export const nodeTypes = [...nodeTypeGroups.basic, ...nodeTypeGroups.branch, ...nodeTypeGroups.individuality] as const;
/** One of {@link nodeTypes}. */
export type NodeType = (typeof nodeTypes)[number];

/** Types of a start node's custom variables. */
export const variableTypes = ["text", "paragraph", "number", "select", "boolean"] as const;
/** Comparison operators of a logic branch condition. */
export const conditionOperators = ["equals", "not_equals", "contains", "not_contains", "empty", "not_empty", "gt", "lt", "gte", "lte"] as const;
/** Types a structured output variable (llm) or a code block output may have. */
export const outputVariableTypes = ["string", "number", "boolean", "object", "array"] as const;

const nodeId = z.string().min(1).max(64).openapi({ description: "Node id, unique in the graph; templates refer to it as {{id.output}}", example: "llm_1" });
const template = (description: string, example: string) => z.string().max(20_000).openapi({ description, example });
const branchTarget = z
  .string()
  .max(64)
  .nullable()
  .openapi({ description: "The node this branch leads to (mirrors the line leaving the branch's handle); null when not connected", example: "reply_1" });

const base = {
  name: z.string().max(100).openapi({ description: "Display name of the node", example: "Answer" }),
  desc: z.string().max(1000).optional().openapi({ description: "What the node is for", example: "" }),
};

/** A custom variable of the start node. */
export const startVariableSchema = z
  .object({
    identifier: z.string().max(64).openapi({ description: "Letters, digits and underscore; unique; templates use {{start.identifier}}", example: "city" }),
    displayName: z.string().max(100).openapi({ description: "Label shown to the person running the workflow", example: "City" }),
    type: z.enum(variableTypes).openapi({ example: "text" }),
    required: z.boolean().openapi({ example: true }),
    prompt: z.string().max(500).optional().openapi({ description: "Hint shown in the input", example: "Which city?" }),
    options: z.array(z.string().max(200)).max(100).optional().openapi({ description: "Choices of a select variable; not empty", example: [] }),
    default: z.union([z.string(), z.number(), z.boolean()]).nullable().optional().openapi({ description: "Value when none is given", example: null }),
  })
  .openapi("WorkflowStartVariable");

/** A structured-output variable of an llm node: the model answers JSON with these keys. */
export const outputVariableSchema = z
  .object({
    name: z.string().max(64).openapi({ description: "Key in the node's output; not repeated", example: "sentiment" }),
    type: z.enum(outputVariableTypes).openapi({ example: "string" }),
    description: z.string().max(500).optional().openapi({ example: "positive, neutral or negative" }),
  })
  .openapi("WorkflowOutputVariable");

/** A named input of a code block, bound to a template. */
export const codeInputSchema = z
  .object({
    name: z.string().max(64).openapi({ description: "Property of `input` in the code", example: "text" }),
    value: template("Template giving the value", "{{start.query}}"),
  })
  .openapi("WorkflowCodeInput");

/** One condition of a logic branch. */
export const conditionSchema = z
  .object({
    left: template("Template of the left operand", "{{start.city}}"),
    operator: z
      .enum(conditionOperators)
      .openapi({ description: "equals, not_equals, contains, not_contains, empty, not_empty, gt (>), lt (<), gte (≥), lte (≤)", example: "equals" }),
    right: template("Template of the right operand (ignored by empty/not_empty)", "Paris").optional(),
  })
  .openapi("WorkflowCondition");

/** A branch of a logic branch node. */
export const logicBranchSchema = z
  .object({
    id: z.string().min(1).max(64).openapi({ description: "Branch id; the line leaving this branch has it as sourceHandle", example: "b_paris" }),
    name: z.string().max(100).optional().openapi({ example: "Paris" }),
    node_id: branchTarget,
    logic: z.enum(["and", "or"]).optional().openapi({ description: "How the conditions combine (and when omitted)", example: "and" }),
    conditions: z.array(conditionSchema).max(50).optional().openapi({ description: "Empty on the else branch" }),
    isElse: z.boolean().optional().openapi({ description: "The branch taken when no other matches; at most one", example: false }),
  })
  .openapi("WorkflowLogicBranch");

/** An intention of an intent branch node. */
export const intentionSchema = z
  .object({
    id: z.string().min(1).max(64).openapi({ description: "Intention id; the line leaving it has it as sourceHandle", example: "i_refund" }),
    name: z.string().max(200).openapi({ description: "What the person wants, as the model is told", example: "Ask for a refund" }),
    node_id: branchTarget,
    isElse: z.boolean().optional().openapi({ description: "Taken when no intention fits", example: false }),
  })
  .openapi("WorkflowIntention");

/** Config of each node type. */
export const nodeConfigSchemas = {
  start: z
    .object({
      ...base,
      inputs: z
        .object({ text: z.boolean(), image: z.boolean(), file: z.boolean() })
        .partial()
        .optional()
        .openapi({ description: "Kinds of input the run takes (text is {{sys.query}})", example: { text: true, image: false, file: false } }),
      variables: z.array(startVariableSchema).max(100).optional(),
    })
    .openapi("WorkflowStartConfig"),
  end: z.object({ ...base, output: template("Template of the workflow's answer", "{{llm_1.output}}").optional() }).openapi("WorkflowEndConfig"),
  app: z
    .object({
      ...base,
      appId: z.string().max(64).optional().openapi({ description: "An app of the space (not a workflow app)", example: "app_01jd7w3k5q9x2m4n6p8r" }),
      input: template("Message sent to the app", "{{sys.query}}").optional(),
    })
    .openapi("WorkflowAppConfig"),
  llm: z
    .object({
      ...base,
      model: z.string().max(200).optional().openapi({ description: "A model of the catalogue (GET /api/v1/models)", example: "gpt-4.1-mini" }),
      systemPrompt: template("Instructions", "You summarise text.").optional(),
      input: template("The user message", "Summarise: {{start.text}}").optional(),
      temperature: z.number().min(0).max(2).optional().openapi({ example: 0.7 }),
      structuredOutput: z
        .array(outputVariableSchema)
        .max(50)
        .optional()
        .openapi({ description: "When set, the model answers JSON with these keys, each available as {{node.key}}" }),
    })
    .openapi("WorkflowLlmConfig"),
  knowledge_base: z
    .object({
      ...base,
      knowledgeBaseIds: z
        .array(z.string().max(64))
        .max(20)
        .optional()
        .openapi({ example: ["kb_01jd7w3k5q9x2m4n6p8r"] }),
      input: template("The query", "{{sys.query}}").optional(),
      topK: z.number().int().min(1).max(20).optional().openapi({ example: 3 }),
      threshold: z
        .number()
        .min(0)
        .max(1)
        .optional()
        .openapi({ description: "Minimum similarity of semantic hits, on the calibrated scale of an app's threshold (0.8 strict, 0.7 loose)", example: 0.75 }),
    })
    .openapi("WorkflowKnowledgeBaseConfig"),
  database: z
    .object({
      ...base,
      databaseId: z.string().max(64).optional().openapi({ example: "db_01jd7w3k5q9x2m4n6p8r" }),
      input: template("The question or query", "{{sys.query}}").optional(),
    })
    .openapi("WorkflowDatabaseConfig"),
  plugin: z
    .object({
      ...base,
      pluginCode: z.string().max(100).optional().openapi({ description: "A custom plugin code (plg_…) or a built-in plugin name", example: "current_time" }),
      toolName: z.string().max(100).optional().openapi({ description: "The plugin's tool; its first when omitted", example: "current_time" }),
      arguments: z
        .record(z.string(), z.string().max(20_000))
        .optional()
        .openapi({ description: "Tool arguments, each a template", example: { timezone: "UTC" } }),
    })
    .openapi("WorkflowPluginConfig"),
  code_block: z
    .object({
      ...base,
      code: z.string().max(100_000).optional().openapi({
        description: "JavaScript run in a QuickJS sandbox: define `function main(input) { return {…} }`; input and result are JSON",
        example: "function main(input) { return { length: input.text.length } }",
      }),
      inputs: z.array(codeInputSchema).max(50).optional(),
      timeoutMs: z.number().int().min(10).max(30_000).optional().openapi({ description: "Time limit (default 1000 ms)", example: 1000 }),
      memoryLimitMb: z.number().int().min(1).max(256).optional().openapi({ description: "Memory limit (default 32 MB)", example: 32 }),
    })
    .openapi("WorkflowCodeBlockConfig"),
  intent_branch: z
    .object({
      ...base,
      model: z.string().max(200).optional().openapi({ example: "gpt-4.1-mini" }),
      input: template("Text whose intention is recognised", "{{sys.query}}").optional(),
      intentions: z.array(intentionSchema).max(50).optional(),
    })
    .openapi("WorkflowIntentBranchConfig", {
      description:
        "The model picks the intention. Without a usable model (the offline responder) the rule is lexical and deterministic: the intention whose name shares the largest share of its words with the input wins (Chinese: characters and character pairs), ties go to the earlier intention, no shared word takes the else intention; no else intention: nothing after the node runs.",
    }),
  logic_branch: z.object({ ...base, branches: z.array(logicBranchSchema).max(50).optional() }).openapi("WorkflowLogicBranchConfig"),
  fixed_reply: z
    .object({ ...base, content: template("The reply (templates allowed)", "Thanks, {{start.name}}!").optional() })
    .openapi("WorkflowFixedReplyConfig"),
  channel_send: z
    .object({
      ...base,
      mode: z.enum(["client", "webhook"]).optional().openapi({ description: "Through a channel client, or to a group robot's webhook", example: "client" }),
      clientId: z.string().max(64).optional().openapi({ description: "Channel client (mode client)", example: "chc_01jd7w3k5q9x2m4n6p8r" }),
      sender: z
        .string()
        .max(200)
        .optional()
        .openapi({ description: "Who sends, as the channel names it (mode client; the client's account when omitted)", example: "" }),
      receiver: template("Who receives: the platform's user or chat id (mode client)", "{{start.openid}}").optional(),
      webhookUrl: z
        .string()
        .max(2000)
        .optional()
        .openapi({ description: "Robot webhook URL (mode webhook)", example: "https://oapi.dingtalk.com/robot/send?access_token=…" }),
      webhookSecret: z
        .string()
        .max(500)
        .optional()
        .openapi({ description: "Robot signing secret (mode webhook); never answered back in full", example: "SEC…" }),
      content: template("The message", "Report: {{llm_1.output}}").optional(),
    })
    .openapi("WorkflowChannelSendConfig"),
  manual: z.object({ ...base, content: template("Note for the person taking over", "Customer asks for a refund").optional() }).openapi("WorkflowManualConfig"),
  timer: z
    .object({
      ...base,
      delaySeconds: z
        .number()
        .int()
        .min(0)
        .max(30 * 86_400)
        .optional()
        .openapi({ description: "Wait this long (at most 30 days)", example: 60 }),
      until: template("Or wait until this ISO time (template)", "").optional(),
    })
    .openapi("WorkflowTimerConfig"),
} as const satisfies Record<NodeType, z.ZodType>;

/** Config of a node of type T. */
export type NodeConfig<T extends NodeType> = z.infer<(typeof nodeConfigSchemas)[T]>;

const position = z.object({ x: z.number(), y: z.number() }).openapi("WorkflowPosition");

/** A node as stored and answered: the config shape follows the type. */
export const workflowElementSchema = z
  .discriminatedUnion(
    "type",
    nodeTypes.map((type) =>
      z.object({ id: nodeId, type: z.literal(type), config: nodeConfigSchemas[type], position }).openapi(`Workflow${pascal(type)}Element`),
    ) as unknown as [z.ZodObject, ...z.ZodObject[]],
  )
  .openapi("WorkflowElement");

/** A node as sent by the editor: checked by the rules (which name the node), not by the parser. */
export const workflowElementInput = z
  .object({
    id: z.string().max(64).openapi({ example: "llm_1" }),
    type: z
      .string()
      .max(64)
      .openapi({ description: `One of ${nodeTypes.join(", ")}`, example: "llm" }),
    config: boundedJson(z.record(z.string(), z.unknown())).openapi({ description: "The node type's config (see the Workflow…Config components)" }),
    position: position.optional(),
  })
  .openapi("WorkflowElementInput");

/** A line from one node (and, for branch nodes, one branch handle) to another. */
export const workflowLineSchema = z
  .object({
    id: z.string().min(1).max(64).openapi({ example: "line_1" }),
    source: z.string().max(64).openapi({ description: "Source node id", example: "start" }),
    sourceHandle: z.string().max(64).nullable().optional().openapi({ description: "Branch or intention id when leaving a branch node", example: null }),
    target: z.string().max(64).openapi({ description: "Target node id", example: "llm_1" }),
  })
  .openapi("WorkflowLine");

/** A stored node. */
export interface WorkflowElement {
  id: string;
  type: NodeType;
  config: Record<string, unknown> & { name?: string };
  position?: { x: number; y: number } | undefined;
}
/** A stored line. */
export type WorkflowLine = z.infer<typeof workflowLineSchema>;
/** A graph. */
export interface WorkflowGraph {
  elements: WorkflowElement[];
  lines: WorkflowLine[];
}

/**
 * What each node type puts in its outputs, readable as {{node_id.key}} (`output` is the main
 * one). Start nodes add their variables; llm nodes their structured output names; code blocks
 * the keys of the object `main` returns.
 */
export const nodeOutputs: Record<NodeType, string[]> = {
  start: ["query", "files"],
  end: ["output"],
  app: ["output", "conversationId"],
  llm: ["output", "model"],
  knowledge_base: ["output", "results"],
  database: ["output", "rows", "sql"],
  plugin: ["output", "durationMs"],
  code_block: ["output"],
  intent_branch: ["output", "intentionId", "by"],
  logic_branch: ["output"],
  fixed_reply: ["output"],
  channel_send: ["output", "status", "conversationId", "messageId"],
  manual: ["output", "handedOver", "conversationId", "reason"],
  timer: ["output", "waitedUntil"],
};

/** Variables the engine provides to every node as {{sys.…}}. */
export const systemArgs = [
  { name: "sys.query", type: "string", description: { en: "The text the run started with (the person's message)", "zh-CN": "运行时输入的文本（用户消息）" } },
  { name: "sys.user", type: "string", description: { en: "Who started the run (user or end-user id)", "zh-CN": "发起运行的用户" } },
  { name: "sys.time", type: "string", description: { en: "When the run started (ISO 8601, UTC)", "zh-CN": "运行开始时间（ISO 8601，UTC）" } },
  { name: "sys.run_id", type: "string", description: { en: "The run's id", "zh-CN": "运行 ID" } },
  { name: "sys.workflow_id", type: "string", description: { en: "The workflow's id", "zh-CN": "工作流 ID" } },
  { name: "sys.conversation_id", type: "string", description: { en: "The conversation, when the run answers a chat", "zh-CN": "会话 ID（对话触发时）" } },
  {
    name: "sys.files",
    type: "array",
    description: {
      en: "Files and images given to the start node (URLs; files attached in chat arrive as their signed addresses, valid 24 hours)",
      "zh-CN": "开始节点收到的文件和图片（URL；对话中附带的文件以签名地址传入，24 小时内有效）",
    },
  },
] as const;

function pascal(type: string): string {
  return type
    .split("_")
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join("");
}
