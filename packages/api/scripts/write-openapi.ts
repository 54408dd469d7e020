import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { stringify } from "yaml";
import { buildOpenApiDocument } from "../src/openapi-document";

/** Writes the contract to the repository root (or to the path given as the first argument). */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const target = process.argv[2] ? path.resolve(process.argv[2]) : path.join(root, "openapi.yaml");
const header = "# Generated from packages/api route definitions by `npm run openapi:generate`. Do not edit.\n";
fs.writeFileSync(target, header + stringify(buildOpenApiDocument(), { lineWidth: 0, aliasDuplicateObjects: false }));
process.stdout.write(`wrote ${path.relative(process.cwd(), target)}\n`);
