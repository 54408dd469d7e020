/** A structured logger. Callers never pass secrets in `fields`. */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

const levels = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;

/** Writes one line per entry to stdout/stderr at or above `level`. */
export function createLogger(level: keyof typeof levels = "info", write: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): Logger {
  const threshold = levels[level];
  const log = (name: "debug" | "info" | "warn" | "error") => (message: string, fields?: Record<string, unknown>) => {
    if (levels[name] < threshold) return;
    const extra = fields && Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : "";
    write(`${new Date().toISOString()} ${name.toUpperCase().padEnd(5)} ${message}${extra}`);
  };
  return { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
}
