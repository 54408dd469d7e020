/** A CSV that cannot be read: the line where it broke and why. */
export class CsvError extends Error {
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super(`line ${line}: ${reason}`);
  }
}

/**
 * Reads CSV text (RFC 4180: commas, double-quoted fields with `""` inside, CR LF or LF lines) in
 * batches of rows, cells trimmed and blank lines skipped. A line without a quote is split at
 * once (the common case of a large export); quoted fields may span lines. Batches let a caller
 * insert and yield between them without a promise per row.
 */
export function* csvBatches(text: string, batchSize: number): Generator<Array<{ line: number; cells: string[] }>> {
  let position = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  let batch: Array<{ line: number; cells: string[] }> = [];
  while (position < text.length) {
    const end = text.indexOf("\n", position);
    const stop = end < 0 ? text.length : end;
    const raw = text.slice(position, stop > position && text.charCodeAt(stop - 1) === 13 ? stop - 1 : stop);
    const startLine = line;
    let cells: string[];
    if (!raw.includes('"')) {
      cells = raw.split(",").map((cell) => cell.trim());
      position = stop + 1;
      line += 1;
    } else {
      cells = [];
      let cell = "";
      let index = position;
      let quoted = false;
      let closed = false;
      for (;;) {
        if (index >= text.length) {
          if (quoted) throw new CsvError(startLine, "a quoted field is not closed");
          cells.push(closed ? cell : cell.trim());
          position = index;
          break;
        }
        const char = text[index]!;
        if (quoted) {
          if (char === '"') {
            if (text[index + 1] === '"') {
              cell += '"';
              index += 2;
              continue;
            }
            quoted = false;
            closed = true;
          } else {
            if (char === "\n") line += 1;
            cell += char;
          }
          index += 1;
          continue;
        }
        if (char === '"' && cell.trim() === "" && !closed) {
          quoted = true;
          cell = "";
          index += 1;
        } else if (char === ",") {
          cells.push(closed ? cell : cell.trim());
          cell = "";
          closed = false;
          index += 1;
        } else if (char === "\n" || (char === "\r" && text[index + 1] === "\n")) {
          cells.push(closed ? cell : cell.trim());
          position = index + (char === "\r" ? 2 : 1);
          line += 1;
          break;
        } else {
          if (closed && char.trim() !== "") throw new CsvError(line, "text after a closing quote");
          if (!closed) cell += char;
          index += 1;
        }
      }
    }
    if (cells.length === 1 && cells[0] === "") continue;
    batch.push({ line: startLine, cells });
    if (batch.length >= batchSize) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
