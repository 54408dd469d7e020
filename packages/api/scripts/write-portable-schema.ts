import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { portableJsonSchema } from "../src/portable/format";

/** Writes the portable file format's JSON Schema to docs/ (a test checks it is current). */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const target = path.join(root, "docs", "portable-format.schema.json");
fs.writeFileSync(target, `${JSON.stringify(portableJsonSchema(), null, 2)}\n`);
// The repository's formatter owns the layout of JSON files; the test compares parsed values.
execFileSync("npx", ["biome", "format", "--write", target], { cwd: root, stdio: "ignore" });
process.stdout.write(`wrote ${path.relative(process.cwd(), target)}\n`);
