// Prints the gzip size of the loader (dist/widget.js), of everything the open chat loads
// (every other file in dist/, i.e. chat.js and any chunk or asset it pulls in) and, apart, of
// the upload chunk (dist/attach-*.js, loaded on the first file picked or dropped, issue 24);
// exits 1 over the budgets of issue 5 and 24. Run `npm run build -w @parley/widget` first.
import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";

const LOADER_BUDGET = 2000;
const CHAT_BUDGET = 22000;
const ATTACH_BUDGET = 6000;
const dist = fileURLToPath(new URL("../dist/", import.meta.url));
const gzip = (file) => gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;

if (!fs.existsSync(path.join(dist, "widget.js")) || !fs.existsSync(path.join(dist, "chat.js"))) {
  console.error("dist/widget.js or dist/chat.js is missing: run `npm run build -w @parley/widget` first.");
  process.exit(1);
}
const loader = gzip("widget.js");
const files = fs
  .readdirSync(dist, { recursive: true })
  .filter((file) => file !== "widget.js" && fs.statSync(path.join(dist, file)).isFile() && /\.(js|css)$/.test(file));
const isAttach = (file) => /^attach-[^/\\]*\.js$/.test(file);
const attachFiles = files.filter(isAttach);
if (attachFiles.length !== 1) {
  console.error(`Expected one upload chunk dist/attach-*.js, found ${attachFiles.length}: is the upload code still imported lazily?`);
  process.exit(1);
}
const chat = files.filter((file) => !isAttach(file)).reduce((sum, file) => sum + gzip(file), 0);
const attach = gzip(attachFiles[0]);
console.log(`widget_loader_gzip_bytes=${loader}`);
console.log(`widget_chat_gzip_bytes=${chat}`);
console.log(`widget_attach_gzip_bytes=${attach}`);
let failed = false;
if (loader > LOADER_BUDGET) failed = !!console.error(`The loader is over its budget: ${loader} > ${LOADER_BUDGET} bytes gzip.`) || true;
if (chat > CHAT_BUDGET) failed = !!console.error(`The chat is over its budget: ${chat} > ${CHAT_BUDGET} bytes gzip.`) || true;
if (attach > ATTACH_BUDGET) failed = !!console.error(`The upload chunk is over its budget: ${attach} > ${ATTACH_BUDGET} bytes gzip.`) || true;
process.exit(failed ? 1 : 0);
