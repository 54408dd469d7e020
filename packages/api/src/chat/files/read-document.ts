import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { createInflate } from "node:zlib";
import { ServiceError } from "../../errors";
import { DocumentParseError, type DocumentExtension, extractDocumentText } from "../../knowledge/service/parse";

/** Longest a PDF may take to read before it is refused as unreadable. */
const PDF_TIMEOUT_MS = 30_000;

/** Heap a PDF read may use: a stream that inflates to far more (a PDF bomb) ends the thread, not the server. */
const PDF_HEAP_MB = 256;

/** Most characters of text one PDF may give: reading stops there. */
export const PDF_MAX_TEXT_CHARACTERS = 2_000_000;

// Runs in its own thread: pdf.js reads the document page by page and stops at the text cap.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { getDocumentProxy } = require(workerData.modulePath);
(async () => {
  let document;
  try {
    document = await getDocumentProxy(new Uint8Array(workerData.bytes));
    const pages = [];
    let length = 0;
    for (let number = 1; number <= document.numPages && length < workerData.maxCharacters; number++) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      const text = content.items.map((item) => ("str" in item ? item.str + (item.hasEOL ? "\\n" : "") : "")).join("");
      pages.push(text);
      length += text.length;
      page.cleanup();
    }
    parentPort.postMessage({ text: pages.join("\\n\\n").slice(0, workerData.maxCharacters) });
  } catch (error) {
    parentPort.postMessage({ error: error && error.name === "PasswordException" ? "encrypted" : "unreadable" });
  } finally {
    if (document) await document.destroy().catch(() => undefined);
  }
})();
`;

/** Most bytes a PDF's compressed streams may inflate to, all together: past it, the file is a bomb. */
export const PDF_MAX_INFLATED_BYTES = 200 * 1024 * 1024;

/** Bytes one stream inflates to, counted and thrown away; stops (undefined) past `limit`. Not deflate data: 0. */
function inflatedSize(data: Uint8Array, limit: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const inflate = createInflate();
    let size = 0;
    let done = false;
    const end = (value: number | undefined) => {
      if (done) return;
      done = true;
      inflate.destroy();
      resolve(value);
    };
    inflate.on("data", (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) end(undefined);
    });
    inflate.on("end", () => end(size));
    // Image data and other filters are not deflate: they count as what was read before the error.
    inflate.on("error", () => end(size));
    inflate.end(data);
  });
}

/**
 * Refuses a PDF whose compressed streams would inflate past {@link PDF_MAX_INFLATED_BYTES} (a
 * PDF bomb), before pdf.js sees it: pdf.js inflates into buffers outside the thread's heap limit.
 */
async function checkPdfInflation(bytes: Uint8Array): Promise<void> {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  const marker = /stream\r?\n/g;
  let left = PDF_MAX_INFLATED_BYTES;
  for (let found = marker.exec(text); found; found = marker.exec(text)) {
    const start = found.index + found[0].length;
    const stop = text.indexOf("endstream", start);
    if (stop < 0) break;
    const size = await inflatedSize(bytes.subarray(start, stop), left);
    if (size === undefined) {
      throw new ServiceError("validation", "chat_file_unpacks_too_large", { megabytes: PDF_MAX_INFLATED_BYTES / 1024 / 1024 }, { field: "file" });
    }
    left -= size;
    marker.lastIndex = stop + "endstream".length;
  }
}

let modulePath: string | undefined;

/** Reads a PDF's text in a worker thread with a bounded heap and a time limit. */
function readPdf(bytes: Uint8Array): Promise<string> {
  modulePath ??= createRequire(import.meta.url).resolve("unpdf");
  return new Promise((resolve, reject) => {
    const copy = bytes.slice();
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { modulePath, bytes: copy, maxCharacters: PDF_MAX_TEXT_CHARACTERS },
      transferList: [copy.buffer],
      resourceLimits: { maxOldGenerationSizeMb: PDF_HEAP_MB, maxYoungGenerationSizeMb: 32 },
    });
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate().catch(() => undefined);
      outcome();
    };
    const unreadable = () => finish(() => reject(new ServiceError("validation", "chat_file_unreadable", {}, { field: "file" })));
    const timer = setTimeout(unreadable, PDF_TIMEOUT_MS);
    worker.once("message", (answer: { text?: string; error?: string }) => {
      if (typeof answer.text === "string") finish(() => resolve(answer.text as string));
      else unreadable();
    });
    // Out of memory (ERR_WORKER_OUT_OF_MEMORY), a crash inside pdf.js, or an exit without an answer.
    worker.once("error", unreadable);
    worker.once("exit", unreadable);
  });
}

/**
 * A document's text for the turn, read with the knowledge parsers: txt and md must be UTF-8
 * (else the spec's encoding error), a docx is refused when it would unpack past the parsers'
 * limit, and a PDF is read in a thread of its own so that a bomb cannot exhaust the server.
 */
export async function readDocument(extension: DocumentExtension, bytes: Uint8Array): Promise<string> {
  let text: string;
  try {
    if (extension === "pdf") await checkPdfInflation(bytes);
    text = extension === "pdf" ? await readPdf(bytes) : await extractDocumentText(extension, bytes);
  } catch (error) {
    if (error instanceof DocumentParseError) {
      throw new ServiceError("validation", error.messageId === "document_empty" ? "chat_file_no_text" : "chat_file_unreadable", {}, { field: "file" });
    }
    throw error;
  }
  if (text.trim() === "") throw new ServiceError("validation", "chat_file_no_text", {}, { field: "file" });
  return text;
}
