import { describe, expect, it } from "vitest";
import {
  checkIdentifier,
  checkPermissions,
  checkPort,
  chosenPermissions,
  currentAfter,
  duplicateNames,
  filtersParam,
  FIRST_PAGE,
  initialMatching,
  mappingBody,
  matchColumn,
  nextPage,
  pageNumber,
  permissionsOf,
  prefersFastImport,
  previousPage,
  rowValuesBody,
  unmatchedFields,
} from "./database-rules";

describe("database form rules", () => {
  it("needs at least one permission and maps checkboxes to the server's object and back", () => {
    expect(checkPermissions([])).toBe("database.rules.permissionRequired");
    expect(checkPermissions(undefined)).toBe("database.rules.permissionRequired");
    expect(checkPermissions(["edit"])).toBeUndefined();
    expect(permissionsOf(["query", "delete"])).toEqual({ query: true, add: false, edit: false, delete: true });
    expect(chosenPermissions({ query: false, add: true, edit: true, delete: false })).toEqual(["add", "edit"]);
  });

  it("takes table and field names as the server does", () => {
    expect(checkIdentifier("price")).toBeUndefined();
    expect(checkIdentifier("价格_1")).toBeUndefined();
    expect(checkIdentifier(" ")).toBe("database.rules.nameRequired");
    expect(checkIdentifier("1price")).toBe("database.rules.identifier");
    expect(checkIdentifier("unit price")).toBe("database.rules.identifier");
    expect(checkIdentifier("rowid")).toBe("database.rules.identifier");
    expect(checkIdentifier("sqlite_master")).toBe("database.rules.identifier");
    expect(checkIdentifier("a".repeat(65))).toBe("database.rules.identifierTooLong");
  });

  it("finds field names repeated regardless of case", () => {
    expect(duplicateNames(["name", "Price", "price", "", "NAME"])).toEqual(["Price", "name"]);
    expect(duplicateNames(["a", "b"])).toEqual([]);
  });

  it("checks a remote port", () => {
    expect(checkPort(undefined)).toBe("database.rules.portRequired");
    expect(checkPort(0)).toBe("database.rules.port");
    expect(checkPort(65536)).toBe("database.rules.port");
    expect(checkPort(3.5)).toBe("database.rules.port");
    expect(checkPort(5432)).toBeUndefined();
  });
});

describe("import column matching", () => {
  const fields = [{ name: "name" }, { name: "price" }, { name: "city" }];

  it("starts from the server's suggestion and sends only matched columns", () => {
    const matching = initialMatching({
      mapping: [
        { column: "Product", fieldName: "name" },
        { column: "Cost", fieldName: null },
      ],
    });
    expect(matching).toEqual({ Product: "name", Cost: null });
    expect(mappingBody(matching)).toEqual({ Product: "name" });
    expect(unmatchedFields(matching, fields)).toEqual(["price", "city"]);
  });

  it("lets a field fill one column at most", () => {
    let matching = { Product: "name", Cost: null, Town: "city" } as Record<string, string | null>;
    matching = matchColumn(matching, "Cost", "price");
    expect(mappingBody(matching)).toEqual({ Product: "name", Cost: "price", Town: "city" });
    matching = matchColumn(matching, "Cost", "name");
    expect(matching).toEqual({ Product: null, Cost: "name", Town: "city" });
    matching = matchColumn(matching, "Town", null);
    expect(mappingBody(matching)).toEqual({ Cost: "name" });
  });

  it("sends large files through the fast import", () => {
    expect(prefersFastImport(1024)).toBe(false);
    expect(prefersFastImport(6 * 1024 * 1024)).toBe(true);
  });
});

describe("preview paging, filters and row values", () => {
  it("walks keyset pages forward by the server's cursor and back by the cursors seen", () => {
    let state = FIRST_PAGE;
    expect(currentAfter(state)).toBeUndefined();
    state = nextPage(state, 20);
    state = nextPage(state, 40);
    expect([currentAfter(state), pageNumber(state)]).toEqual([40, 3]);
    state = previousPage(state);
    expect([currentAfter(state), pageNumber(state)]).toEqual([20, 2]);
    expect(previousPage(previousPage(state))).toEqual(FIRST_PAGE);
  });

  it("builds the filters JSON: numbers for number fields, half-filled filters left out", () => {
    const fields = [
      { name: "price", type: "decimal" as const },
      { name: "city", type: "text" as const },
    ];
    expect(filtersParam([], fields)).toBeUndefined();
    expect(filtersParam([{ field: "city", op: "eq", value: " " }], fields)).toBeUndefined();
    expect(
      JSON.parse(
        filtersParam(
          [
            { field: "price", op: "gt", value: "3.5" },
            { field: "city", op: "contains", value: "Shang" },
            { field: "city", op: "empty" },
            { field: "gone", op: "eq", value: "x" },
          ],
          fields,
        )!,
      ),
    ).toEqual([
      { field: "price", op: "gt", value: 3.5 },
      { field: "city", op: "contains", value: "Shang" },
      { field: "city", op: "empty" },
    ]);
  });

  it("sends typed row values, empty as null, and on edit only what changed", () => {
    const fields = [
      { name: "name", type: "text" as const },
      { name: "qty", type: "integer" as const },
      { name: "at", type: "datetime" as const },
    ];
    const picked = { format: () => "2026-03-01 10:00:00" };
    expect(rowValuesBody({ name: "Tea", qty: 3, at: picked }, fields)).toEqual({ name: "Tea", qty: 3, at: "2026-03-01 10:00:00" });
    expect(rowValuesBody({ name: "", qty: undefined }, fields)).toEqual({ name: null, qty: null, at: null });
    expect(rowValuesBody({ name: "Tea", qty: 4, at: picked }, fields, { name: "Tea", qty: 3, at: "2026-03-01 10:00:00" })).toEqual({ qty: 4 });
  });
});
