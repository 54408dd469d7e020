import { crc32, deflateRawSync } from "node:zlib";
import { expect } from "vitest";
import type { TestContext, TestUser } from "../testing/harness";
import { expectOk } from "../testing/flows";
import { knowledgeBaseSchema, knowledgeFileSchema } from "./schemas";

/** Creates a knowledge base through the API. */
export async function createKnowledgeBaseVia(ctx: TestContext, user: TestUser, body: Record<string, unknown> = {}) {
  const response = await ctx.request("/api/v1/knowledge-bases", { method: "POST", token: user.token, json: { name: "Manuals", ...body } });
  return expectOk(response, 201, knowledgeBaseSchema);
}

/** Uploads bytes as a document, multipart like the console does. */
export function uploadVia(ctx: TestContext, user: TestUser, knowledgeBaseId: string, fileName: string, bytes: Uint8Array | string, name?: string) {
  const form = new FormData();
  form.append("file", new File([typeof bytes === "string" ? bytes : new Uint8Array(bytes)], fileName));
  if (name !== undefined) form.append("name", name);
  return ctx.request(`/api/v1/knowledge-bases/${knowledgeBaseId}/files`, { method: "POST", token: user.token, body: form });
}

/** Uploads and expects a 201; answers the file. */
export async function uploadOk(ctx: TestContext, user: TestUser, knowledgeBaseId: string, fileName: string, bytes: Uint8Array | string) {
  return expectOk(await uploadVia(ctx, user, knowledgeBaseId, fileName, bytes), 201, knowledgeFileSchema);
}

/** A zip archive of the given entries (deflated), built from the format's definition. */
export function zipOf(entries: Array<{ name: string; data: Uint8Array }>): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const compressed = deflateRawSync(entry.data);
    const crc = crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, compressed);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(entry.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

/** A minimal Word document whose body holds the given paragraphs. */
export function docxOf(paragraphs: string[]): Uint8Array {
  const text = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  const body = paragraphs.map((paragraph) => `<w:p><w:r><w:t>${text(paragraph)}</w:t></w:r></w:p>`).join("");
  const files = {
    "[Content_Types].xml":
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    "_rels/.rels":
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    "word/document.xml": `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
  };
  return zipOf(Object.entries(files).map(([name, data]) => ({ name, data: new TextEncoder().encode(data) })));
}

/** A one-page PDF showing one line of text, with a correct cross-reference table. */
export function pdfOf(line: string): Uint8Array {
  const stream = `BT /F1 12 Tf 72 720 Td (${line.replace(/[()\\]/g, "\\$&")}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(out.length);
    out += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((at) => `${String(at).padStart(10, "0")} 00000 n \n`).join("")}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}

/** Asserts nothing went wrong in a list of ordinals: 0..n-1, each once. */
export function expectContiguous(ordinals: number[]) {
  expect([...ordinals].sort((a, b) => a - b)).toEqual(ordinals.map((_, index) => index));
}
