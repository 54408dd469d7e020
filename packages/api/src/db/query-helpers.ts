import { or, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { ServiceError } from "../errors";

/**
 * A keyword search over text columns: `column LIKE %keyword%` on any of them, with LIKE's
 * wildcards in the keyword taken literally. Undefined for a blank keyword (no condition).
 */
export function keywordMatch(columns: SQLiteColumn[], keyword: string | undefined): SQL | undefined {
  const text = keyword?.trim();
  if (!text) return undefined;
  const pattern = `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  return or(...columns.map((column) => sql`${column} LIKE ${pattern} ESCAPE '\\'`));
}

/** An opaque cursor for lists ordered by a time then an id (newest first). */
export function encodeCursor(at: string | null, id: string): string {
  return Buffer.from(JSON.stringify([at ?? "", id])).toString("base64url");
}

/** The time and id an {@link encodeCursor} cursor holds; a 400 naming `cursor` for anything else. */
export function decodeCursor(cursor: string): [string, string] {
  try {
    const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown;
    if (Array.isArray(value) && value.length === 2 && value.every((item) => typeof item === "string")) return value as [string, string];
  } catch {
    // Not base64url JSON: refused below like any other stranger.
  }
  throw new ServiceError("validation", "validation_failed", { field: "cursor", reason: "not a cursor from this list" }, { field: "cursor" });
}
