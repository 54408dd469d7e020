import type { ModelMessage } from "../../platform/llm/types";
import type { Deps } from "../../kernel";
import type { Language } from "../../i18n/language";
import type { WorkflowElement } from "../model";
import type { Scope } from "./template";

/** Where a run comes from. */
export interface RunTrigger {
  by: "user" | "schedule" | "chat" | "api";
  userId?: string;
  endUserId?: string;
  conversationId?: string;
  appId?: string;
  tick?: string;
  language?: Language;
  /** The signed-in person a chat run answers: their allocation pays its model calls first (decision 0019). */
  memberUserId?: string;
  /** Set when a chat run parked: its output is added to the conversation when it ends. */
  answerLater?: boolean;
}

/** The run a node executes in. */
export interface RunInfo {
  id: string;
  spaceId: string;
  workflowId: string;
  type: "FLOW" | "TIME" | "NODE";
  trigger: RunTrigger;
  language: Language;
}

/** What an executor is given. */
export interface NodeContext {
  deps: Deps;
  run: RunInfo;
  element: WorkflowElement;
  scope: Scope;
  /** Aborted when the run's time is up; long calls pass it on. */
  signal: AbortSignal;
  /** The node's earlier, interrupted attempt (a timer that parked keeps its wake time there). */
  previousInputs: unknown;
  ports: EnginePorts;
}

/** What a node produced. */
export interface NodeResult {
  /** What the node was given, templates filled in (shown in the run's detail). */
  inputs?: unknown;
  /** Readable by later nodes as {{node_id.key}}; `output` is the main one. */
  outputs: Record<string, unknown>;
  /** For branch nodes: the branch or intention taken (null: none). */
  branch?: string | null;
  /** For a timer: park the run until then. */
  parkUntil?: Date;
}

/** Runs one node type. Throwing fails the node (and the run) with the error's message. */
export type NodeExecutor = (context: NodeContext) => Promise<NodeResult> | NodeResult;

/**
 * The database node reaches databases only through this port. `input` is a SQL statement or a
 * question; for a question the port asks `ask` (the node's model call, under a credit hold) to
 * write the SQL from the database's schema. Refusals and failures throw {@link NodeFailure}.
 */
export interface DatabasesPort {
  query(input: {
    deps: Deps;
    spaceId: string;
    databaseId: string;
    input: string;
    signal: AbortSignal;
    ask: (messages: ModelMessage[]) => Promise<string>;
  }): Promise<{ output: unknown; rows?: unknown[]; sql?: string }>;
}

/** A node failed for a reason the run records as-is. */
export class NodeFailure extends Error {
  override name = "NodeFailure";
}

/** Without a plugged port (an engine built alone): every query answers that no database is bound. */
export const unboundDatabases: DatabasesPort = {
  async query({ databaseId }) {
    throw new NodeFailure(`No database is bound: databases are not available on this instance (asked for ${databaseId})`);
  },
};

let pluggedDatabases: DatabasesPort = unboundDatabases;

/** Plugs the databases into the engine at start-up (wiring.ts), so the workflows import none of them. */
export function plugDatabases(port: DatabasesPort): void {
  pluggedDatabases = port;
}

/** The databases port executions use unless given one. */
export function databasesPort(): DatabasesPort {
  return pluggedDatabases;
}

/** The engine's outside dependencies beyond Deps. */
export interface EnginePorts {
  databases: DatabasesPort;
}

/** Limits of one run. */
export interface RunLimits {
  /** Nodes executed per run (a run cannot loop: graphs are acyclic; this bounds the rest). */
  maxSteps: number;
  /** Wall time a run may execute, not counting time parked on timers. */
  maxRunMs: number;
  /** Time one node may take (a plugin that hangs fails its node). */
  maxNodeMs: number;
}

export const DEFAULT_RUN_LIMITS: RunLimits = { maxSteps: 5000, maxRunMs: 10 * 60_000, maxNodeMs: 120_000 };
