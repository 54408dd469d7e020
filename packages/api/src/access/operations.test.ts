import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { isGrant } from "./resources";
import { operationAccess, operationKey } from "./operations";

const document = parse(fs.readFileSync(path.resolve(__dirname, "../../../../openapi.yaml"), "utf8")) as {
  paths: Record<string, Record<string, { security?: unknown[] }>>;
};
const methods = new Set(["get", "post", "put", "patch", "delete"]);

/** Every operation of the contract that needs a signed-in caller. */
function signedInOperations(): string[] {
  const found: string[] = [];
  for (const [route, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (!methods.has(method)) continue;
      if (Array.isArray(operation.security) && operation.security.length === 0) continue;
      found.push(operationKey(method, route));
    }
  }
  return found.sort();
}

describe("the operation access table", () => {
  it("lists every signed-in operation of openapi.yaml, and nothing else", () => {
    const contract = signedInOperations();
    expect(contract.length).toBeGreaterThan(150);
    expect(contract.filter((key) => !(key in operationAccess))).toEqual([]);
    expect(Object.keys(operationAccess).filter((key) => !contract.includes(key))).toEqual([]);
  });

  it("names only grants that exist, member, or instance", () => {
    const wrong = Object.entries(operationAccess).filter(([, needed]) => needed !== "member" && needed !== "instance" && !isGrant(needed));
    expect(wrong).toEqual([]);
  });

  it("asks for view on reads and for edit on every other change of a menu's objects", () => {
    // A read that asked for edit would hide data from viewers; a change that asked for view would let them change it.
    const reads = Object.entries(operationAccess).filter(([key, needed]) => key.startsWith("GET ") && needed.endsWith(".edit"));
    expect(reads).toEqual([]);
  });
});
