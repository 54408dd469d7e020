/**
 * Arithmetic for the calculator built-in: a small recursive-descent parser over numbers,
 * + - * / % ^, parentheses, a few functions and constants. Nothing is evaluated as code.
 */

/** Longest expression accepted. */
export const MAX_EXPRESSION_LENGTH = 1000;
const MAX_DEPTH = 64;

/** Thrown for an expression that cannot be computed; the message says why, for the model. */
export class CalculatorError extends Error {
  override name = "CalculatorError";
}

type Token = { kind: "number"; value: number; at: number } | { kind: "name"; value: string; at: number } | { kind: "symbol"; value: string; at: number };

const functions: Record<string, { arity: [number, number]; apply: (...args: number[]) => number }> = {
  sqrt: { arity: [1, 1], apply: Math.sqrt },
  abs: { arity: [1, 1], apply: Math.abs },
  round: {
    arity: [1, 2],
    apply: (value, digits = 0) => {
      if (!Number.isInteger(digits) || digits < 0 || digits > 15) throw new CalculatorError("round() takes 0 to 15 digits");
      const factor = 10 ** digits;
      return Math.round(value * factor) / factor;
    },
  },
  min: { arity: [1, 100], apply: Math.min },
  max: { arity: [1, 100], apply: Math.max },
  log: { arity: [1, 2], apply: (value, base) => (base === undefined ? Math.log(value) : Math.log(value) / Math.log(base)) },
  ln: { arity: [1, 1], apply: Math.log },
  log10: { arity: [1, 1], apply: Math.log10 },
  sin: { arity: [1, 1], apply: Math.sin },
  cos: { arity: [1, 1], apply: Math.cos },
  tan: { arity: [1, 1], apply: Math.tan },
  floor: { arity: [1, 1], apply: Math.floor },
  ceil: { arity: [1, 1], apply: Math.ceil },
};

const constants: Record<string, number> = { pi: Math.PI, e: Math.E };

function tokenize(expression: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  while (index < expression.length) {
    const char = expression[index]!;
    if (/\s/.test(char)) {
      index++;
      continue;
    }
    const number = /^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(expression.slice(index));
    if (number) {
      tokens.push({ kind: "number", value: Number(number[0]), at: index });
      index += number[0].length;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z_0-9]*/.exec(expression.slice(index));
    if (name) {
      tokens.push({ kind: "name", value: name[0].toLowerCase(), at: index });
      index += name[0].length;
      continue;
    }
    if ("+-*/%^(),".includes(char)) {
      tokens.push({ kind: "symbol", value: char, at: index });
      index++;
      continue;
    }
    if (char === "×" || char === "÷") {
      tokens.push({ kind: "symbol", value: char === "×" ? "*" : "/", at: index });
      index++;
      continue;
    }
    throw new CalculatorError(`unexpected character "${char}" at position ${index + 1}`);
  }
  return tokens;
}

/** Computes an arithmetic expression such as `2 * (3 + 4) ^ 2 / sqrt(16)`. */
export function evaluateExpression(expression: string): number {
  if (expression.length > MAX_EXPRESSION_LENGTH) throw new CalculatorError(`the expression is longer than ${MAX_EXPRESSION_LENGTH} characters`);
  const tokens = tokenize(expression);
  if (tokens.length === 0) throw new CalculatorError("the expression is empty");
  let position = 0;
  let depth = 0;

  const peek = () => tokens[position];
  const isSymbol = (value: string) => {
    const token = peek();
    return token?.kind === "symbol" && token.value === value;
  };
  const expect = (value: string) => {
    if (!isSymbol(value)) {
      const token = peek();
      throw new CalculatorError(token ? `expected "${value}" at position ${token.at + 1}` : `expected "${value}" at the end`);
    }
    position++;
  };
  const nested = <T>(parse: () => T): T => {
    if (++depth > MAX_DEPTH) throw new CalculatorError("the expression is nested too deeply");
    try {
      return parse();
    } finally {
      depth--;
    }
  };

  // sum := product (("+" | "-") product)*
  const sum = (): number => {
    let value = product();
    while (isSymbol("+") || isSymbol("-")) {
      const operator = tokens[position++]!.value;
      const right = product();
      value = operator === "+" ? value + right : value - right;
    }
    return value;
  };
  // product := unary (("*" | "/" | "%") unary)*
  const product = (): number => {
    let value = unary();
    while (isSymbol("*") || isSymbol("/") || isSymbol("%")) {
      const operator = tokens[position++]!.value;
      const right = unary();
      if ((operator === "/" || operator === "%") && right === 0) throw new CalculatorError("division by zero");
      value = operator === "*" ? value * right : operator === "/" ? value / right : value % right;
    }
    return value;
  };
  // unary := ("+" | "-") unary | power — so that -2^2 is -(2^2), as in mathematics.
  const unary = (): number => {
    if (isSymbol("-")) {
      position++;
      return nested(() => -unary());
    }
    if (isSymbol("+")) {
      position++;
      return nested(() => unary());
    }
    return power();
  };
  // power := atom ("^" unary)?   (right-associative)
  const power = (): number => {
    const base = atom();
    if (isSymbol("^")) {
      position++;
      return base ** nested(() => unary());
    }
    return base;
  };
  const atom = (): number => {
    const token = peek();
    if (!token) throw new CalculatorError("the expression ends too early");
    if (token.kind === "number") {
      position++;
      return token.value;
    }
    if (token.kind === "symbol" && token.value === "(") {
      position++;
      const value = nested(sum);
      expect(")");
      return value;
    }
    if (token.kind === "name") {
      position++;
      // Own properties only: "constructor" or "__proto__" must not reach Object.prototype.
      const fn = Object.hasOwn(functions, token.value) ? functions[token.value] : undefined;
      if (fn) {
        expect("(");
        const args = [nested(sum)];
        while (isSymbol(",")) {
          position++;
          args.push(nested(sum));
        }
        expect(")");
        if (args.length < fn.arity[0] || args.length > fn.arity[1]) {
          throw new CalculatorError(`${token.value}() takes ${fn.arity[0] === fn.arity[1] ? fn.arity[0] : `${fn.arity[0]} to ${fn.arity[1]}`} argument(s)`);
        }
        return fn.apply(...args);
      }
      const constant = Object.hasOwn(constants, token.value) ? constants[token.value] : undefined;
      if (constant !== undefined) return constant;
      throw new CalculatorError(`unknown name "${token.value}"; functions: ${Object.keys(functions).join(", ")}; constants: pi, e`);
    }
    throw new CalculatorError(`unexpected "${token.value}" at position ${token.at + 1}`);
  };

  const value = sum();
  const rest = peek();
  if (rest) throw new CalculatorError(`unexpected "${rest.value}" at position ${rest.at + 1}`);
  if (!Number.isFinite(value)) throw new CalculatorError("the result is not a finite number");
  return value;
}

/** A result as text, without binary floating-point noise (0.1 + 0.2 reads 0.3). */
export function formatNumber(value: number): string {
  return String(Number(value.toPrecision(15)));
}
