import { createRequire } from "node:module";
import type { AST, Parser as SqlParser } from "node-sql-parser";
import { ALLOWED_CAST_TYPES, ALLOWED_FUNCTIONS, ALLOWED_OPERATORS } from "./allowlists";
import type { SqlDialect } from "./dialect";
import { lex, type Token } from "./lexer";
import type { SqlRefusalCode } from "./messages";

export type { SqlDialect } from "./dialect";

/** What a database lets statements do; each statement kind needs its own permission. */
export type SqlPermissions = { query: boolean; add: boolean; edit: boolean; delete: boolean };

/** The statement kinds that can run. */
export type SqlKind = "select" | "insert" | "update" | "delete";

/** A statement to check, with the database's rules. */
export type CheckInput = {
  sql: string;
  dialect: SqlDialect;
  permissions: SqlPermissions;
  /** The tables chosen (remote) or created (built-in) for this database, as the server names them. */
  tables: readonly string[];
  /** Most rows a read may return; the checked SELECT asks for one more so callers can tell it was cut. */
  maxRows: number;
  /**
   * UPDATE and DELETE without WHERE are refused unless this is true: changing every row is a
   * legitimate request but rarely what a question means, so the caller decides (for example
   * after showing the write to the user).
   */
  allowUnfilteredWrites?: boolean;
};

/** The checker's verdict: the statement to run, or a typed refusal. */
export type CheckResult =
  | { ok: true; kind: SqlKind; sql: string; tables: string[] }
  | { ok: false; code: SqlRefusalCode; detail: string; params: Record<string, string> };

/** Longest statement accepted; longer ones are refused before parsing. */
export const MAX_STATEMENT_LENGTH = 20_000;

const KIND_PERMISSION: Record<SqlKind, keyof SqlPermissions> = { select: "query", insert: "add", update: "edit", delete: "delete" };

const require = createRequire(import.meta.url);
const parsers: Partial<Record<SqlDialect, SqlParser>> = {};

/** One parser per dialect, each from node-sql-parser's build for that dialect alone (loaded on first use). */
function parserFor(dialect: SqlDialect): SqlParser {
  let parser = parsers[dialect];
  if (!parser) {
    const module = require(`node-sql-parser/build/${dialect}`) as { Parser: new () => SqlParser };
    parser = new module.Parser();
    parsers[dialect] = parser;
  }
  return parser;
}

class Refusal extends Error {
  constructor(
    readonly code: SqlRefusalCode,
    readonly detail: string,
    readonly params: Record<string, string> = {},
  ) {
    super(detail);
  }
}

function refuse(code: SqlRefusalCode, detail: string, params: Record<string, string> = {}): never {
  throw new Refusal(code, detail, { detail, ...params });
}

/**
 * Decides whether a statement may run on a database with the given permissions and tables.
 * Accepts exactly one SELECT, INSERT, UPDATE or DELETE on the chosen tables, with the
 * permission its kind needs; everything else is refused with a code (see `messages.ts`).
 *
 * Fail closed, in layers: a dialect-aware lexer refuses text the parser and the server might
 * read differently (comments, escapes, dollar quoting, variables, a second statement);
 * node-sql-parser parses with the dialect's grammar; every AST node must be of a known kind,
 * every function, operator and cast target on an allowlist, every table unqualified and chosen
 * (or a CTE in scope); the parser's own table list must agree; and re-serialising the AST must
 * keep every word of the original, so a clause the parser skipped cannot slip through. A
 * SELECT gets `LIMIT min(own, maxRows + 1)` by editing the text of its outermost LIMIT.
 *
 * Decisions: UPDATE and DELETE without WHERE need `allowUnfilteredWrites`; a read inside a write
 * (INSERT … SELECT, UPDATE … FROM, subqueries) also needs the query permission; RETURNING,
 * upserts (ON CONFLICT, ON DUPLICATE KEY, REPLACE, INSERT OR …), writes to or joined across
 * several tables, WITH on writes, locking reads and SELECT … INTO are refused; table functions
 * (generate_series, json_each, pragma_*) are refused, so no statement makes rows out of
 * nothing. What the grammar of node-sql-parser cannot read is refused too (for example
 * PostgreSQL FETCH FIRST, DELETE … USING, FOR UPDATE; unquoted CJK names in SQLite — quote
 * them). The time cap is the runner's: this only decides and rewrites.
 */
export function checkStatement(input: CheckInput): CheckResult {
  if (!Number.isSafeInteger(input.maxRows) || input.maxRows < 0) throw new RangeError(`maxRows must be a whole number ≥ 0, not ${input.maxRows}`);
  try {
    return check(input);
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, code: error.code, detail: error.detail, params: error.params };
    // An AST shape the walk did not foresee (or a parser fault) is a refusal, never a crash.
    const detail = `checker error: ${error instanceof Error ? error.message : String(error)}`.slice(0, 200);
    return { ok: false, code: "sql_unsupported_construct", detail, params: { detail } };
  }
}

type Context = {
  dialect: SqlDialect;
  allowed: ReadonlySet<string>;
  quoted: ReadonlySet<string>;
  unquoted: ReadonlySet<string>;
  used: Set<string>;
  cteNames: Set<string>;
  readsInWrite: boolean;
};

const STATEMENT_WORDS = new Set(["select", "with", "insert", "update", "delete", "("]);

function check(input: CheckInput): CheckResult {
  const { dialect } = input;
  if (input.sql.trim() === "") refuse("sql_empty", "empty statement");
  if (input.sql.length > MAX_STATEMENT_LENGTH) {
    refuse("sql_too_long", `${input.sql.length} characters`, { max: String(MAX_STATEMENT_LENGTH) });
  }
  const leading = /^\s*([A-Za-z]+)/.exec(input.sql)?.[1]?.toLowerCase();
  if (leading !== undefined && !STATEMENT_WORDS.has(leading))
    refuse("sql_kind_not_allowed", `${leading.toUpperCase()} statement`, { kind: leading.toUpperCase() });
  const lexed = lex(input.sql, dialect);
  if ("refusal" in lexed) {
    const code = lexed.refusal === "comment" ? "sql_comment" : lexed.refusal === "multiple" ? "sql_multiple_statements" : "sql_ambiguous_syntax";
    refuse(code, lexed.detail);
  }
  const { tokens } = lexed;
  const first = tokens[0];
  if (!first) refuse("sql_empty", "empty statement");
  const firstWord = first.text.toLowerCase();
  if (!STATEMENT_WORDS.has(firstWord)) refuse("sql_kind_not_allowed", `${first.text.toUpperCase()} statement`, { kind: first.text.toUpperCase() });
  const text = input.sql.slice(0, lexed.end).trimEnd();

  let parsed: { ast: AST | AST[]; tableList: string[] };
  try {
    parsed = parserFor(dialect).parse(text, { database: dialect });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    refuse("sql_parse_failed", message.length > 200 ? `${message.slice(0, 200)}…` : message, { dialect: DIALECT_NAMES[dialect] });
  }
  const asts = Array.isArray(parsed.ast) ? parsed.ast : [parsed.ast];
  if (asts.length !== 1) refuse("sql_multiple_statements", `${asts.length} statements`);
  const ast = asts[0] as unknown as Node;
  const type = String(ast.type ?? "").toLowerCase();
  if (type !== "select" && type !== "insert" && type !== "update" && type !== "delete") {
    refuse("sql_kind_not_allowed", `${type.toUpperCase()} statement`, { kind: type.toUpperCase() });
  }
  const kind: SqlKind = type;
  const permission = KIND_PERMISSION[kind];
  if (!input.permissions[permission]) refuse("sql_permission_denied", `${kind} needs ${permission}`, { kind: kind.toUpperCase(), permission });

  const context: Context = {
    dialect,
    allowed: new Set(input.tables.map((table) => (dialect === "sqlite" ? asciiLower(table) : table))),
    quoted: new Set(tokens.filter((token) => token.kind === "quoted").map((token) => token.text)),
    unquoted: new Set(tokens.filter((token) => token.kind === "word").map((token) => token.text)),
    used: new Set(),
    cteNames: new Set(),
    readsInWrite: false,
  };
  if (kind === "select") walkSelect(ast, new Set(), context);
  else walkWrite(ast, kind, context, input);
  if (context.readsInWrite && !input.permissions.query) {
    refuse("sql_permission_denied", `${kind} that reads other rows needs query`, { kind: kind.toUpperCase(), permission: "query" });
  }
  crossCheckTableList(parsed.tableList, context);
  crossCheckWords(parserFor(dialect).sqlify(parsed.ast, { database: dialect }), tokens);

  const tables = [...context.used].sort();
  if (kind !== "select") return { ok: true, kind, sql: text, tables };
  return { ok: true, kind, sql: capRows(text, tokens, input.maxRows + 1), tables };
}

const DIALECT_NAMES: Record<SqlDialect, string> = { sqlite: "SQLite", mysql: "MySQL", postgresql: "PostgreSQL" };

type Node = { [key: string]: unknown; type?: unknown };

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Keys of a statement that never hold tables, expressions or statements. */
const INERT_KEYS = new Set(["type", "loc", "_parentheses", "parentheses_symbol", "prefix", "set_op", "tableList", "columnList", "seperator"]);

function walkSelect(node: Node, outerScope: ReadonlySet<string>, context: Context): void {
  if (String(node.type).toLowerCase() !== "select")
    refuse("sql_clause_not_allowed", `${String(node.type).toUpperCase()} inside a statement`, {
      clause: `${String(node.type).toUpperCase()} inside a statement`,
    });
  const scope = walkWith(node.with, outerScope, context);
  for (const [key, value] of Object.entries(node)) {
    if (value === null || value === undefined || INERT_KEYS.has(key) || key === "with") continue;
    switch (key) {
      case "into":
        if (!isNode(value) || value.position !== null || value.keyword || value.expr)
          refuse("sql_clause_not_allowed", "SELECT … INTO", { clause: "SELECT … INTO" });
        break;
      case "locking_read":
      case "for_update":
        refuse("sql_clause_not_allowed", "FOR UPDATE / FOR SHARE", { clause: "FOR UPDATE / FOR SHARE" });
        break;
      case "options":
        if (Array.isArray(value) && value.length > 0) refuse("sql_clause_not_allowed", `SELECT options (${value.join(" ")})`, { clause: "SELECT options" });
        break;
      case "from":
        walkFrom(value, scope, context);
        break;
      case "_next":
        if (!isNode(value)) refuse("sql_unsupported_construct", "compound select");
        walkSelect(value, scope, context);
        break;
      default:
        walkExpression(value, scope, context);
    }
  }
}

function walkWith(value: unknown, outerScope: ReadonlySet<string>, context: Context): ReadonlySet<string> {
  if (value === null || value === undefined) return outerScope;
  if (!Array.isArray(value)) refuse("sql_unsupported_construct", "WITH clause");
  const recursive = value.some((cte) => isNode(cte) && cte.recursive === true);
  const scope = new Set(outerScope);
  for (const cte of value) {
    if (!isNode(cte)) refuse("sql_unsupported_construct", "WITH clause");
    const rawName = isNode(cte.name) ? cte.name.value : cte.name;
    if (typeof rawName !== "string") refuse("sql_unsupported_construct", "CTE name");
    const name = serverName(rawName, context);
    const bodyScope = recursive ? new Set([...scope, name]) : scope;
    const statement = isNode(cte.stmt) && isNode(cte.stmt.ast) ? cte.stmt.ast : cte.stmt;
    if (!isNode(statement)) refuse("sql_unsupported_construct", "CTE body");
    walkSelect(statement, bodyScope, context);
    walkExpression(cte.columns, scope, context);
    scope.add(name);
    context.cteNames.add(name);
  }
  return scope;
}

const FROM_KEYS = new Set(["db", "schema", "table", "as", "join", "on", "using", "expr", "type", "addition", "prefix", "loc", "surround"]);

function walkFrom(value: unknown, scope: ReadonlySet<string>, context: Context): void {
  if (!Array.isArray(value)) refuse("sql_unsupported_construct", "FROM clause");
  for (const item of value) {
    if (!isNode(item)) refuse("sql_unsupported_construct", "FROM item");
    if (item.type === "dual") continue;
    for (const [key, entry] of Object.entries(item)) {
      if (!FROM_KEYS.has(key) && entry !== null && entry !== undefined && entry !== false) refuse("sql_unsupported_construct", `FROM item (${key})`);
    }
    if (typeof item.table === "string") {
      tableReference(item, scope, context);
    } else if (isNode(item.expr) && isNode(item.expr.ast)) {
      walkSelect(item.expr.ast, scope, context);
    } else if (isNode(item.expr) && item.expr.type === "function") {
      refuse("sql_function_not_allowed", `table function ${functionName(item.expr)}`, { name: functionName(item.expr) });
    } else {
      refuse("sql_unsupported_construct", "FROM item");
    }
    walkExpression(item.on, scope, context);
  }
}

function tableReference(item: Node, scope: ReadonlySet<string>, context: Context): string {
  const raw = item.table as string;
  for (const qualifier of [item.db, item.schema]) {
    if (qualifier !== null && qualifier !== undefined && qualifier !== "") {
      refuse("sql_qualified_name", `${String(qualifier)}.${raw}`, { name: `${String(qualifier)}.${raw}` });
    }
  }
  const name = serverName(raw, context);
  if (scope.has(name)) return name;
  if (!context.allowed.has(name)) refuse("sql_table_not_allowed", name, { table: name });
  context.used.add(name);
  return name;
}

/**
 * The name the server resolves: SQLite ignores ASCII case; MySQL on Linux compares table names
 * exactly (lower_case_table_names=0), so only the exact name matches; PostgreSQL folds
 * unquoted names to ASCII lower case and keeps quoted ones, and the AST does not say which was
 * written, so the tokens tell (a name written both ways in different case is refused).
 */
function serverName(raw: string, context: Context): string {
  if (context.dialect === "sqlite") return asciiLower(raw);
  if (context.dialect === "mysql") return raw;
  const quoted = context.quoted.has(raw);
  const unquoted = context.unquoted.has(raw);
  if (quoted && unquoted && raw !== asciiLower(raw)) refuse("sql_ambiguous_syntax", `"${raw}" is written both quoted and unquoted`);
  if (quoted) return raw;
  if (unquoted) return asciiLower(raw);
  refuse("sql_unsupported_construct", `name ${raw} not found in the text`);
}

/** Both SQLite and PostgreSQL fold only ASCII letters in names ("Äpfel" and "äpfel" are two tables). */
function asciiLower(name: string): string {
  return name.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

function walkWrite(ast: Node, kind: Exclude<SqlKind, "select">, context: Context, input: CheckInput): void {
  const scope: ReadonlySet<string> = new Set();
  if (ast.with) refuse("sql_clause_not_allowed", "WITH on a write", { clause: "WITH on INSERT, UPDATE or DELETE" });
  const targets = ast.table;
  if (!Array.isArray(targets) || targets.length !== 1 || !isNode(targets[0]) || typeof targets[0].table !== "string") {
    refuse("sql_clause_not_allowed", "writes to more than one table", { clause: "writing to more than one table" });
  }
  const target = targets[0];
  if (target.join || target.on) refuse("sql_clause_not_allowed", "writes with JOIN", { clause: "JOIN in INSERT, UPDATE or DELETE" });
  const targetName = tableReference(target, scope, context);
  for (const [key, value] of Object.entries(ast)) {
    if (value === null || value === undefined || INERT_KEYS.has(key) || key === "table" || key === "with") continue;
    switch (key) {
      case "returning":
        refuse("sql_clause_not_allowed", "RETURNING", { clause: "RETURNING" });
        break;
      case "conflict":
      case "on_duplicate_update":
      case "partition":
      case "or":
        refuse("sql_clause_not_allowed", `${key} clause`, { clause: "ON CONFLICT / ON DUPLICATE KEY / OR REPLACE / PARTITION" });
        break;
      case "from":
      case "using": {
        if (!Array.isArray(value)) refuse("sql_unsupported_construct", `${key} of a write`);
        // MySQL and SQLite DELETE repeat the target in `from`; anything beyond it is a read.
        const sources =
          kind === "delete" && key === "from"
            ? value.filter((item) => !(isNode(item) && item.table === target.table && !item.join && !item.db && !item.schema))
            : value;
        if (kind === "delete" && key === "from" && sources.length === value.length) refuse("sql_unsupported_construct", "DELETE without its table in FROM");
        if (sources.length > 0) {
          if (kind === "delete" && key === "from") refuse("sql_clause_not_allowed", "DELETE with JOIN", { clause: "JOIN in DELETE" });
          context.readsInWrite = true;
          walkFrom(sources, scope, context);
        }
        break;
      }
      case "values":
        if (isNode(value) && value.type === "select") {
          context.readsInWrite = true;
          walkSelect(value, scope, context);
        } else walkExpression(value, scope, context, true);
        break;
      case "columns":
      case "set":
      case "where":
      case "orderby":
      case "limit":
        walkExpression(value, scope, context, true);
        break;
      default:
        refuse("sql_unsupported_construct", `${kind.toUpperCase()} clause ${key}`);
    }
  }
  if ((kind === "update" || kind === "delete") && !ast.where && !input.allowUnfilteredWrites) {
    refuse("sql_write_without_where", `${kind.toUpperCase()} of every row in ${targetName}`, { kind: kind.toUpperCase() });
  }
}

/** Node types an expression may contain; anything else is refused. */
const EXPRESSION_TYPES = new Set([
  "column_ref",
  "number",
  "bool",
  "boolean",
  "null",
  "single_quote_string",
  "double_quote_string",
  "string",
  "natural_string",
  "hex_string",
  "full_hex_string",
  "bit_string",
  "date",
  "time",
  "timestamp",
  "datetime",
  "binary_expr",
  "unary_expr",
  "function",
  "aggr_func",
  "window_func",
  "cast",
  "case",
  "when",
  "else",
  "expr_list",
  "interval",
  "extract",
  "star",
  "expr",
  "default",
  "values",
  "window",
  "ASC",
  "DESC",
  "asc",
  "desc",
  "backticks_quote_string",
  "array",
  "DISTINCT",
  "origin",
]);

function walkExpression(value: unknown, scope: ReadonlySet<string>, context: Context, inWrite = false): void {
  if (value === null || value === undefined || typeof value !== "object") return;
  if (Array.isArray(value)) {
    for (const item of value) walkExpression(item, scope, context, inWrite);
    return;
  }
  const node = value as Node;
  if (isNode(node.ast) && node.ast.type !== undefined) {
    if (inWrite) context.readsInWrite = true;
    walkSelect(node.ast, scope, context);
    return;
  }
  const type = node.type;
  if (typeof type === "string") {
    if (type === "select") {
      if (inWrite) context.readsInWrite = true;
      walkSelect(node, scope, context);
      return;
    }
    if (!EXPRESSION_TYPES.has(type)) refuse("sql_unsupported_construct", `expression of type ${type}`);
    checkNode(node, type, context);
  }
  for (const qualifier of [node.db, node.schema]) {
    if (typeof qualifier === "string" && qualifier !== "") refuse("sql_qualified_name", qualifier, { name: qualifier });
  }
  for (const [key, entry] of Object.entries(node)) {
    if (key === "loc" || key === "tableList" || key === "columnList") continue;
    if (key === "name" && (type === "function" || type === "aggr_func" || type === "window_func")) continue;
    walkExpression(entry, scope, context, inWrite);
  }
}

function checkNode(node: Node, type: string, context: Context): void {
  switch (type) {
    case "function":
    case "aggr_func":
    case "window_func": {
      const name = functionName(node);
      if (!ALLOWED_FUNCTIONS[context.dialect].has(name.toLowerCase()) && name.toLowerCase() !== "exists") {
        refuse("sql_function_not_allowed", name, { name });
      }
      return;
    }
    case "binary_expr":
    case "unary_expr": {
      const operator = String(node.operator ?? "").toUpperCase();
      if (!ALLOWED_OPERATORS.has(operator)) refuse("sql_unsupported_construct", `operator ${operator}`);
      return;
    }
    case "cast": {
      const targets = Array.isArray(node.target) ? node.target : [node.target];
      for (const target of targets) {
        const dataType = isNode(target) ? String(target.dataType ?? "").toUpperCase() : "";
        if (!ALLOWED_CAST_TYPES.has(dataType)) refuse("sql_unsupported_construct", `cast to ${dataType || "an unknown type"}`);
      }
      return;
    }
    case "origin": {
      // The parser keeps some keywords as raw text; only TRIM's are expected inside expressions.
      if (!TRIM_WORDS.has(String(node.value).toLowerCase())) refuse("sql_unsupported_construct", `"${String(node.value)}"`);
      return;
    }
    case "column_ref": {
      if (isNode(node.table) || (typeof node.table === "string" && node.table.includes(".")))
        refuse("sql_qualified_name", "qualified column", { name: String(node.table) });
      return;
    }
  }
}

const TRIM_WORDS = new Set(["both", "leading", "trailing", "from"]);

function functionName(node: Node): string {
  const name = node.name;
  if (typeof name === "string") return name;
  if (isNode(name) && Array.isArray(name.name)) {
    for (const qualifier of [name.schema, name.db]) {
      const written = isNode(qualifier) ? qualifier.value : qualifier;
      if (written !== null && written !== undefined && written !== "") refuse("sql_qualified_name", `${String(written)}.…()`, { name: String(written) });
    }
    const parts = name.name.map((part) => (isNode(part) ? String(part.value) : String(part)));
    if (parts.length !== 1) refuse("sql_qualified_name", parts.join("."), { name: parts.join(".") });
    return parts[0] as string;
  }
  refuse("sql_unsupported_construct", "function name");
}

/** The parser's own list of tables (`kind::db::table`) must name nothing the walk did not allow. */
function crossCheckTableList(tableList: readonly string[], context: Context): void {
  for (const entry of tableList) {
    const [, db, table] = entry.split("::");
    if (db !== "null" || table === undefined) refuse("sql_qualified_name", `${db}.${table}`, { name: `${db}.${table}` });
    const name = serverName(table, context);
    if (!context.allowed.has(name) && !context.cteNames.has(name)) refuse("sql_table_not_allowed", name, { table: name });
  }
}

/** Words the serialiser writes differently or leaves out without changing the meaning. */
const OPTIONAL_WORDS = new Set(["as", "outer", "inner", "asc"]);

/**
 * Every word and quoted name of the original must appear in the parser's re-serialisation:
 * a clause the grammar accepted but left out of the AST would otherwise run unchecked.
 */
function crossCheckWords(serialised: string, tokens: readonly Token[]): void {
  const words = new Set(serialised.toLowerCase().match(/[\p{L}_][\p{L}\p{N}\p{M}_]*/gu) ?? []);
  for (const token of tokens) {
    if (token.kind !== "word" && token.kind !== "quoted") continue;
    const word = token.text.toLowerCase();
    if (OPTIONAL_WORDS.has(word)) continue;
    const parts = word.match(/[\p{L}_][\p{L}\p{N}\p{M}_]*/gu) ?? [];
    for (const part of parts) {
      if (!words.has(part)) refuse("sql_unsupported_construct", `"${token.text}" is not understood by the checker`);
    }
  }
}

/**
 * Applies the row cap by rewriting the outermost LIMIT (the LIMIT/OFFSET tail at parenthesis
 * depth 0, which binds to the whole statement, UNIONs included, in all three dialects):
 * a smaller LIMIT of the user's stays, an OFFSET stays, anything but integer literals there is
 * refused. Without a LIMIT, one is appended.
 */
function capRows(text: string, tokens: readonly Token[], cap: number): string {
  let start = tokens.length;
  for (let index = tokens.length - 1; index >= 0; index--) {
    const token = tokens[index] as Token;
    if (token.depth !== 0) break;
    const word = token.kind === "word" ? token.text.toLowerCase() : "";
    if (word === "limit" || word === "offset") start = index;
    else if (!(token.kind === "number" || (token.kind === "punct" && token.text === ",") || word === "all" || word === "rows" || word === "row")) break;
  }
  const tail = tokens.slice(start);
  if (tail.length === 0) {
    if (tokens.some((token) => token.depth === 0 && token.kind === "word" && /^(limit|offset|fetch)$/i.test(token.text))) {
      refuse("sql_clause_not_allowed", "LIMIT/OFFSET/FETCH that is not at the end", { clause: "LIMIT, OFFSET or FETCH other than plain numbers at the end" });
    }
    return `${text} LIMIT ${cap}`;
  }
  const shape = tail.map((token) => (token.kind === "number" ? (/^\d+$/.test(token.text) ? "n" : "x") : token.text.toLowerCase())).join(" ");
  const numbers = tail.filter((token) => token.kind === "number").map((token) => Number(token.text));
  let limit: number | undefined;
  let offset: number | undefined;
  switch (shape) {
    case "limit n":
      [limit] = numbers;
      break;
    case "limit n offset n":
      [limit, offset] = numbers;
      break;
    case "limit n , n":
      [offset, limit] = numbers;
      break;
    case "offset n":
      [offset] = numbers;
      break;
    case "offset n limit n":
      [offset, limit] = numbers;
      break;
    default:
      refuse("sql_clause_not_allowed", `LIMIT written as "${tail.map((token) => token.text).join(" ")}"`, {
        clause: "LIMIT or OFFSET other than plain numbers",
      });
  }
  const head = text.slice(0, (tail[0] as Token).start).trimEnd();
  const rows = limit === undefined ? cap : Math.min(limit, cap);
  return offset === undefined || offset === 0 ? `${head} LIMIT ${rows}` : `${head} LIMIT ${rows} OFFSET ${offset}`;
}
