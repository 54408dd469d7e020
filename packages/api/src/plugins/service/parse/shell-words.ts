/** Thrown when a command line cannot be split into words. */
export class ShellWordsError extends Error {
  override name = "ShellWordsError";
}

const ANSI_ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\", "'": "'", '"': '"', a: "\x07", b: "\b", e: "\x1b", f: "\f", v: "\v" };

/**
 * Splits a POSIX shell command line into words the way a shell would before running it:
 * single quotes keep everything, double quotes honour `\"`, `\\`, `\$` and `` \` ``, a backslash
 * outside quotes escapes the next character, backslash-newline joins lines, and `$'…'` reads
 * C escapes. Also accepts the `^` line continuation of a Windows command prompt copy.
 * Variables and command substitution are left as written.
 */
export function splitShellWords(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let index = 0;
  const text = line.replace(/\^\r?\n/g, " ");
  while (index < text.length) {
    const char = text[index]!;
    if (char === "\\") {
      const next = text[index + 1];
      if (next === undefined) {
        index++;
        continue;
      }
      if (next === "\n") index += 2;
      else if (next === "\r" && text[index + 2] === "\n") index += 3;
      else {
        word += next;
        inWord = true;
        index += 2;
      }
      continue;
    }
    if (char === "'") {
      const end = text.indexOf("'", index + 1);
      if (end < 0) throw new ShellWordsError("a single quote is not closed");
      word += text.slice(index + 1, end);
      inWord = true;
      index = end + 1;
      continue;
    }
    if (char === "$" && text[index + 1] === "'") {
      index += 2;
      let closed = false;
      while (index < text.length) {
        const inner = text[index]!;
        if (inner === "'") {
          closed = true;
          index++;
          break;
        }
        if (inner === "\\" && index + 1 < text.length) {
          const escaped = text[index + 1]!;
          const hex = escaped === "x" ? /^[0-9a-fA-F]{1,2}/.exec(text.slice(index + 2)) : null;
          const unicode = escaped === "u" ? /^[0-9a-fA-F]{1,4}/.exec(text.slice(index + 2)) : null;
          if (hex) {
            word += String.fromCharCode(Number.parseInt(hex[0], 16));
            index += 2 + hex[0].length;
          } else if (unicode) {
            word += String.fromCharCode(Number.parseInt(unicode[0], 16));
            index += 2 + unicode[0].length;
          } else {
            word += ANSI_ESCAPES[escaped] ?? `\\${escaped}`;
            index += 2;
          }
          continue;
        }
        word += inner;
        index++;
      }
      if (!closed) throw new ShellWordsError("a $'…' quote is not closed");
      inWord = true;
      continue;
    }
    if (char === '"') {
      index++;
      let closed = false;
      while (index < text.length) {
        const inner = text[index]!;
        if (inner === '"') {
          closed = true;
          index++;
          break;
        }
        if (inner === "\\" && index + 1 < text.length) {
          const next = text[index + 1]!;
          if (next === "\n") index += 2;
          else if ('"\\$`'.includes(next)) {
            word += next;
            index += 2;
          } else {
            word += inner;
            index++;
          }
          continue;
        }
        word += inner;
        index++;
      }
      if (!closed) throw new ShellWordsError("a double quote is not closed");
      inWord = true;
      continue;
    }
    if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
      index++;
      continue;
    }
    word += char;
    inWord = true;
    index++;
  }
  if (inWord) words.push(word);
  return words;
}
