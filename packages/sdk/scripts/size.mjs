// Measures what an app pays for the SDK: the minified, gzipped bundle of a browser app that
// imports createClient from the built package (run `npm run build` first).
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const BUDGET_BYTES = 5120;

const result = await build({
  stdin: { contents: "export { createClient } from '@parley/sdk';", resolveDir: fileURLToPath(new URL(".", import.meta.url)) },
  bundle: true,
  minify: true,
  platform: "browser",
  format: "esm",
  write: false,
  logLevel: "error",
});
const bytes = gzipSync(result.outputFiles[0].contents, { level: 9 }).length;
console.log(`sdk_min_gzip_bytes=${bytes}`);
if (bytes > BUDGET_BYTES) {
  console.error(`The SDK is over its budget: ${bytes} > ${BUDGET_BYTES} bytes (min+gzip).`);
  process.exit(1);
}
