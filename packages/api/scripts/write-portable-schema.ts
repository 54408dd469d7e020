import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { portableJsonSchema } from "../src/portable/format";

/** Writes the portable file format's JSON Schema to docs/ (a test checks it is current). */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const target = path.join(root, "docs", "portable-format.schema.json");
fs.writeFileSync(target, `${JSON.stringify(portableJsonSchema(), null, 2)}\n`);
process.stdout.write(`wrote ${path.relative(process.cwd(), target)}\n`);
