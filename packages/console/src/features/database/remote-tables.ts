import type { OnlineTable, OnlineTableChoice } from "../../lib/api/database-remote";

/** What the online tables chooser holds for one table while it is edited. */
export interface Draft {
  chosen: boolean;
  description: string;
  columns: Record<string, string>;
}

/** The chooser's starting state: what the server answered as chosen and saved. */
export function draftsOf(tables: OnlineTable[]): Record<string, Draft> {
  return Object.fromEntries(
    tables.map((table) => [
      table.name,
      { chosen: table.chosen, description: table.description, columns: Object.fromEntries(table.columns.map((column) => [column.name, column.description])) },
    ]),
  );
}

/** The chosen tables as the online table save takes them; tables left out are no longer chosen. */
export function choicesOf(tables: OnlineTable[], drafts: Record<string, Draft>): OnlineTableChoice[] {
  return tables
    .filter((table) => drafts[table.name]?.chosen)
    .map((table) => {
      const draft = drafts[table.name]!;
      return {
        name: table.name,
        description: draft.description.trim(),
        columns: table.columns.map((column) => ({ name: column.name, description: (draft.columns[column.name] ?? "").trim() })),
      };
    });
}
