import { type DatabasesPort, NodeFailure } from "../../workflows/engine/types";
import { loadStatementTargets, runStatement, schemaLines } from "./statements";

/** Rows the database node answers at most. */
export const NODE_MAX_ROWS = 200;
/** Time a node's statement may run. */
export const NODE_TIMEOUT_MS = 15_000;
const MAX_OUTPUT_CHARS = 8_000;

const SQL_START = /^\s*(select|with|insert|update|delete)\b/i;

/** The statement in a model's answer: a fenced block when there is one, else the text, without a trailing semicolon. */
export function sqlIn(answer: string): string {
  const fenced = /```(?:sql)?\s*([\s\S]*?)```/i.exec(answer)?.[1] ?? answer;
  return fenced.trim().replace(/;\s*$/, "");
}

function textTable(columns: string[], rows: unknown[][], truncated: boolean): string {
  const lines = [columns.join(" | ")];
  let size = lines[0]!.length;
  for (const row of rows) {
    const line = row.map((cell) => (cell === null || cell === undefined ? "NULL" : String(cell).replace(/\s+/g, " "))).join(" | ");
    if (size + line.length > MAX_OUTPUT_CHARS) {
      truncated = true;
      break;
    }
    lines.push(line);
    size += line.length + 1;
  }
  return truncated ? `${lines.join("\n")}\n…` : lines.join("\n");
}

/**
 * The workflow database node's port: the node's input is a SQL statement (it starts with
 * SELECT, WITH, INSERT, UPDATE or DELETE) or a question, which the space's default model turns
 * into SQL from the database's schema. Either way the statement runs through `runStatement`
 * under the database's permissions; a refusal fails the node with the checker's reason, so the
 * run's record keeps it. Outputs: `rows` (objects by column), `output` (a text table, or the
 * affected row count) and `sql`.
 */
export const workflowDatabases: DatabasesPort = {
  async query({ deps, spaceId, databaseId, input, ask }) {
    const [target] = await loadStatementTargets(deps, spaceId, [databaseId]);
    if (!target) throw new NodeFailure(`The database ${databaseId} does not exist in this space`);
    let sql = input.trim();
    if (!SQL_START.test(sql)) {
      const answer = await ask([
        {
          role: "system",
          content: [
            "Write exactly ONE SQL statement that answers the user's question from this database. Answer with the statement only, no explanation, no comments.",
            `Double-quote names with non-ASCII characters; add LIMIT ${NODE_MAX_ROWS} or less to reads; only the tables below exist; only the permitted statement kinds run.`,
            ...schemaLines(target),
          ].join("\n"),
        },
        { role: "user", content: input },
      ]);
      sql = sqlIn(answer);
    }
    const outcome = await runStatement(
      deps,
      { spaceId, databaseId: target.id, sql, maxRows: NODE_MAX_ROWS, timeoutMs: NODE_TIMEOUT_MS, allowWrite: true },
      target,
    );
    if (outcome.status === "refused") throw new NodeFailure(`The statement was refused: ${outcome.message} (SQL: ${outcome.sql})`);
    if (outcome.status === "failed") throw new NodeFailure(`${outcome.message} (SQL: ${outcome.sql})`);
    if (outcome.status === "pending") throw new NodeFailure("The write was not run");
    if (outcome.kind !== "select") return { output: `${outcome.affectedRows ?? 0} rows affected`, rows: [], sql: outcome.sql };
    const rows = outcome.rows.map((row) => Object.fromEntries(outcome.columns.map((column, index) => [column, row[index] ?? null])));
    return { output: textTable(outcome.columns, outcome.rows, outcome.truncated), rows, sql: outcome.sql };
  },
};
