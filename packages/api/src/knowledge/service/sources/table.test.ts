import { describe, expect, it } from "vitest";
import { ServiceError } from "../../../errors";
import { checkFields, checkSameColumns, tableCsvOf, tableRecord, tableRowsOf } from "./table";
import { readSheet } from "./tabular";
import { xlsxOf } from "../../imports-testing";

const utf8 = (text: string) => new TextEncoder().encode(text);

function refusal(run: () => unknown): ServiceError {
  try {
    run();
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("tables", () => {
  it("reads CSV and xlsx alike: header as fields, blank rows and trailing blank columns dropped", async () => {
    const csv = await readSheet("csv", utf8("\uFEFFSKU,Name,Price,\nA-1,Kettle,39,\n\n,,,\nA-2,Toaster,25\n"));
    expect(csv.header).toEqual(["SKU", "Name", "Price"]);
    expect(csv.rows).toEqual([
      { line: 2, cells: ["A-1", "Kettle", "39"] },
      { line: 5, cells: ["A-2", "Toaster", "25"] },
    ]);
    const xlsx = await readSheet("xlsx", xlsxOf([["SKU", "Name", "Price"], ["A-1", "Kettle", 39], [], ["A-2", "Toaster", 25.5]]));
    expect(xlsx.header).toEqual(["SKU", "Name", "Price"]);
    expect(xlsx.rows.map((row) => row.cells)).toEqual([
      ["A-1", "Kettle", "39"],
      ["A-2", "Toaster", "25.5"],
    ]);
  });

  it("refuses empty, duplicate or too many field names, naming them", () => {
    expect(refusal(() => checkFields(["SKU", "Name", "SKU", "Name", "Price"]))).toMatchObject({
      messageId: "table_fields_duplicate",
      params: { fields: "SKU, Name" },
    });
    expect(refusal(() => checkFields(["SKU", " ", "Price"]))).toMatchObject({ messageId: "table_field_empty", params: { column: 2 } });
    expect(refusal(() => checkFields(Array.from({ length: 201 }, (_, index) => `f${index}`)))).toMatchObject({ messageId: "table_too_many_fields" });
    expect(checkFields([" SKU ", "Name"])).toEqual(["SKU", "Name"]);
  });

  it("counts rows with an empty index cell or too many cells, and matches appended columns by name", async () => {
    const sheet = await readSheet("csv", utf8("SKU,Name\nA-1,Kettle\n,Nameless\nA-3,Lamp,extra\n"));
    const table = tableRowsOf(sheet, ["SKU", "Name"], "SKU");
    expect(table.rows).toEqual([{ line: 2, values: { SKU: "A-1", Name: "Kettle" } }]);
    expect(table.failures).toEqual([
      { row: 3, reason: "table_index_value_empty", params: { column: "SKU" } },
      { row: 4, reason: "table_row_too_long" },
    ]);
    const reordered = await readSheet("csv", utf8("Name,SKU\nMug,A-9\n"));
    checkSameColumns(reordered.header, ["SKU", "Name"]);
    expect(tableRowsOf(reordered, ["SKU", "Name"], "SKU").rows[0]!.values).toEqual({ SKU: "A-9", Name: "Mug" });
    expect(refusal(() => checkSameColumns(["SKU", "Title"], ["SKU", "Name"]))).toMatchObject({
      messageId: "table_columns_mismatch",
      params: { missing: "Name", unexpected: "Title" },
    });
  });

  it("shows a row as field: value lines and indexes it index column first", () => {
    expect(tableRecord(["SKU", "Name", "Price"], "Name", { SKU: "A-1", Name: "Kettle", Price: "39" })).toEqual({
      content: "SKU: A-1\nName: Kettle\nPrice: 39",
      indexText: "Name: Kettle\nSKU: A-1\nPrice: 39",
      metadata: { row: { SKU: "A-1", Name: "Kettle", Price: "39" } },
    });
    expect(tableCsvOf(["a", "b"], [{ a: "1", b: "x, y" }])).toBe('\uFEFFa,b\r\n1,"x, y"\r\n');
  });
});
