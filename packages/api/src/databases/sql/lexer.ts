import type { SqlDialect } from "./dialect";

/** One token of a statement, with its place in the text and its parenthesis depth. */
export type Token = {
  kind: "word" | "quoted" | "string" | "number" | "punct";
  /** Words as written; quoted identifiers and strings without their quotes. */
  text: string;
  start: number;
  end: number;
  depth: number;
};

/** Why the lexer refused a statement; the checker turns it into a refusal code. */
export type LexRefusal = { refusal: "comment" | "ambiguous" | "multiple"; detail: string };

export type LexResult = { tokens: Token[]; end: number } | LexRefusal;

const WORD_START = /[A-Za-z_\p{L}]/u;
const WORD_PART = /[A-Za-z0-9_\p{L}\p{N}\p{M}]/u;
/** Deeper nesting than any question needs; it would only make the parser and the walk recurse. */
const MAX_DEPTH = 32;
const PUNCT = new Set(["(", ")", ",", ".", "+", "-", "*", "/", "%", "=", "<", ">", "!", "|", "&", "^", "~"]);

/**
 * Splits a statement into tokens the way the dialect's server would, and refuses every
 * construct where node-sql-parser and the server may read the text differently: comments of
 * any kind (MySQL runs `/*! … *\/`, `#` starts a comment only in MySQL, `--` needs a space in
 * MySQL, PostgreSQL nests block comments), backslashes in strings (escapes in MySQL and in
 * PostgreSQL `E''`), PostgreSQL dollar quoting, `E''` and `U&''` strings, variables and
 * placeholders (`@`, `$`, `?`, `:name`), ODBC braces, SQLite `[identifiers]`, control and
 * invisible characters outside strings, and any `;` other than one at the very end.
 * `end` is where the statement ends without its trailing `;` and spaces.
 */
export function lex(sql: string, dialect: SqlDialect): LexResult {
  const tokens: Token[] = [];
  let depth = 0;
  let index = 0;
  let end = sql.length;
  const length = sql.length;
  while (index < length) {
    const char = sql[index] as string;
    const next = sql[index + 1] ?? "";
    if (char === " " || char === "\t" || char === "\n" || char === "\r") {
      index++;
      continue;
    }
    if ((char === "-" && next === "-") || (char === "/" && next === "*") || char === "#") {
      return { refusal: "comment", detail: `comment at character ${index + 1}` };
    }
    if (char === ";") {
      if (sql.slice(index + 1).trim() !== "") return { refusal: "multiple", detail: `text after ";" at character ${index + 1}` };
      end = index;
      break;
    }
    if (char === "'") {
      const closed = readQuoted(sql, index, "'");
      if (typeof closed === "string") return { refusal: "ambiguous", detail: closed };
      const previous = tokens[tokens.length - 1];
      if (dialect === "postgresql" && previous && previous.kind === "word" && previous.end === index && /^(e|u&)$/i.test(previous.text)) {
        return { refusal: "ambiguous", detail: "PostgreSQL escape strings (E'…') are not accepted" };
      }
      tokens.push({ kind: "string", text: closed.text, start: index, end: closed.end, depth });
      index = closed.end;
      continue;
    }
    if (char === '"') {
      const closed = readQuoted(sql, index, '"');
      if (typeof closed === "string") return { refusal: "ambiguous", detail: closed };
      tokens.push({ kind: dialect === "mysql" ? "string" : "quoted", text: closed.text, start: index, end: closed.end, depth });
      index = closed.end;
      continue;
    }
    if (char === "`") {
      if (dialect === "postgresql") return { refusal: "ambiguous", detail: "backticks are not PostgreSQL quoting" };
      const closed = readQuoted(sql, index, "`");
      if (typeof closed === "string") return { refusal: "ambiguous", detail: closed };
      tokens.push({ kind: "quoted", text: closed.text, start: index, end: closed.end, depth });
      index = closed.end;
      continue;
    }
    if (char >= "0" && char <= "9") {
      let stop = index + 1;
      while (stop < length && /[0-9A-Za-z_.]/.test(sql[stop] as string)) {
        const current = sql[stop] as string;
        if ((current === "e" || current === "E") && (sql[stop + 1] === "+" || sql[stop + 1] === "-")) stop++;
        stop++;
      }
      tokens.push({ kind: "number", text: sql.slice(index, stop), start: index, end: stop, depth });
      index = stop;
      continue;
    }
    if (WORD_START.test(char)) {
      let stop = index + 1;
      while (stop < length && WORD_PART.test(sql[stop] as string)) stop++;
      if (sql[stop] === "$") return { refusal: "ambiguous", detail: "$ in names or dollar quoting is not accepted" };
      if (dialect === "postgresql" && sql[stop] === "&" && /^u$/i.test(sql.slice(index, stop))) {
        return { refusal: "ambiguous", detail: "PostgreSQL Unicode-escape strings (U&'…') are not accepted" };
      }
      tokens.push({ kind: "word", text: sql.slice(index, stop), start: index, end: stop, depth });
      index = stop;
      continue;
    }
    if (char === ":" && dialect === "postgresql" && next === ":") {
      tokens.push({ kind: "punct", text: "::", start: index, end: index + 2, depth });
      index += 2;
      continue;
    }
    if ((char === "[" || char === "]") && dialect === "postgresql") {
      tokens.push({ kind: "punct", text: char, start: index, end: index + 1, depth });
      index++;
      continue;
    }
    if (PUNCT.has(char)) {
      if (char === "(") {
        depth++;
        if (depth > MAX_DEPTH) return { refusal: "ambiguous", detail: `more than ${MAX_DEPTH} nested parentheses` };
      }
      if (char === ")") {
        depth--;
        if (depth < 0) return { refusal: "ambiguous", detail: `unbalanced ")" at character ${index + 1}` };
      }
      tokens.push({ kind: "punct", text: char, start: index, end: index + 1, depth });
      index++;
      continue;
    }
    const code = char.codePointAt(0) ?? 0;
    return { refusal: "ambiguous", detail: `character "${code < 32 ? `U+${code.toString(16).padStart(4, "0")}` : char}" at ${index + 1} is not accepted` };
  }
  return { tokens, end };
}

function readQuoted(sql: string, start: number, quote: string): { text: string; end: number } | string {
  let text = "";
  let index = start + 1;
  while (index < sql.length) {
    const char = sql[index] as string;
    if (char === "\\") return "backslashes in quoted text are not accepted (servers read them differently)";
    if (char === quote) {
      if (sql[index + 1] === quote) {
        text += quote;
        index += 2;
        continue;
      }
      return { text, end: index + 1 };
    }
    if (char === "\0") return "NUL characters are not accepted";
    text += char;
    index++;
  }
  return "unterminated quoted text";
}
