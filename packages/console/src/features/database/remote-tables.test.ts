import { describe, expect, it } from "vitest";
import type { OnlineTable } from "../../lib/api/database-remote";
import { choicesOf, draftsOf } from "./remote-tables";

const table = (name: string, chosen: boolean): OnlineTable => ({
  name,
  comment: "",
  rowsEstimate: null,
  chosen,
  tableId: chosen ? `dbt_${name}` : null,
  description: chosen ? "saved" : "",
  primaryKey: [],
  columns: [{ name: "id", type: "int", nullable: false, comment: "", description: chosen ? "key" : "" }],
});

describe("online tables chooser", () => {
  it("starts from what was saved and sends only the chosen tables, trimmed, with every column", () => {
    const tables = [table("orders", true), table("stock", false), table("audit", false)];
    const drafts = draftsOf(tables);
    expect(choicesOf(tables, drafts)).toEqual([{ name: "orders", description: "saved", columns: [{ name: "id", description: "key" }] }]);
    drafts.stock = { chosen: true, description: "  Stock per warehouse ", columns: {} };
    drafts.orders = { ...drafts.orders!, chosen: false };
    expect(choicesOf(tables, drafts)).toEqual([{ name: "stock", description: "Stock per warehouse", columns: [{ name: "id", description: "" }] }]);
  });
});
