import { z } from "@hono/zod-openapi";
import { pageNoSchema, pageSizeSchema } from "../http/schemas";
import { knowledgeFileSchema } from "./schemas";

const id = (example: string) => z.string().openapi({ example });
const timestamp = z.string().openapi({ example: "2026-03-01T10:00:00.000Z" });
const binary = (description: string) => z.any().openapi({ type: "string", format: "binary", description });
const fileName = z
  .string()
  .optional()
  .openapi({ description: "File name without extension (default: the uploaded name); at most 50 letters, digits, _ or -", example: "faq-2026" });

/** How an import of records (Q&A pairs, table rows) went. */
export const importReportSchema = z
  .object({
    totalRecords: z.number().int().openapi({ description: "Non-empty rows below the header", example: 120 }),
    importedRecords: z.number().int().openapi({ description: "Rows kept as records", example: 118 }),
    failedRecords: z.number().int().openapi({ description: "Rows that failed (all counted)", example: 2 }),
    message: z
      .string()
      .nullable()
      .openapi({ description: '"Import failed for N records" in the request\'s language when some failed, else null', example: "Import failed for 2 records" }),
    failures: z
      .array(
        z.object({
          row: z.number().int().openapi({ description: "1-based line of the CSV (or row of the sheet), the header being line 1", example: 7 }),
          reason: z.string().openapi({ description: "Why, in the request's language", example: "The answer is empty" }),
        }),
      )
      .openapi({ description: "The first 100 failed rows" }),
  })
  .openapi("KnowledgeImportReport");

/** Answer of a Q&A or table import: the pending file and the import report. */
export const importResultSchema = z
  .object({
    file: knowledgeFileSchema,
    report: importReportSchema,
  })
  .openapi("KnowledgeImportResult");

/** Multipart body of a Q&A import. */
export const qaImportBody = z
  .object({
    file: binary("A UTF-8 CSV made from the template (columns question, answer, search method, attached material; English or Chinese titles); at most 10 MB"),
    name: fileName,
  })
  .openapi("QaImportUpload");

/** Query of the Q&A template download. */
export const templateQuery = z.object({
  language: z
    .enum(["en", "zh-CN"])
    .optional()
    .openapi({ description: "Column titles' language; default: the Accept-Language of the request", example: "zh-CN" }),
});

export { id, timestamp };

/** Multipart body of a table import. */
export const tableImportBody = z
  .object({
    file: binary("CSV (UTF-8) or xlsx; the first row names the fields, which must be unique; at most 10 MB"),
    name: fileName,
    indexColumn: z
      .string()
      .optional()
      .openapi({ description: "The field rows are looked up by (default: the first); it cannot change afterwards", example: "SKU" }),
  })
  .openapi("TableImportUpload");

/** Multipart body of appending rows to a table. */
export const tableAppendBody = z
  .object({
    file: binary("CSV (UTF-8) or xlsx whose columns are exactly the table's fields, in any order; at most 10 MB"),
  })
  .openapi("TableAppendUpload");

/** A table file's layout. */
export const tableSchema = z
  .object({
    fileId: id("kf_01jd7w3k5q9x2m4n6p8r"),
    fields: z.array(z.string()).openapi({ description: "Field names in column order", example: ["SKU", "Name", "Price"] }),
    indexColumn: z.string().openapi({ description: "The index column; fixed once set", example: "SKU" }),
    rowCount: z.number().int().openapi({ example: 240 }),
    status: z.enum(["pending", "processing", "effective", "failed"]).openapi({ example: "effective" }),
  })
  .openapi("KnowledgeTable");

/** Body of a column edit. */
export const editColumnsBody = z
  .object({
    fields: z
      .array(z.string().max(100))
      .min(1)
      .max(200)
      .openapi({ description: "New names of all fields, in the table's order (renames by position); unique", example: ["SKU", "Product name", "Price"] }),
    indexColumn: z
      .string()
      .optional()
      .openapi({ description: "Optional check: must name the current index column (after renaming); another column answers 409", example: "SKU" }),
  })
  .openapi("EditTableColumns");

/** A row of a table file. */
export const tableRowSchema = z
  .object({
    id: z.string().nullable().openapi({ description: "The row's segment id; null while the file is pending", example: "kc_01jd7w3k5q9x2m4n6p8r" }),
    ordinal: z.number().int().openapi({ example: 0 }),
    values: z.record(z.string(), z.string()).openapi({ description: "Value of each field", example: { SKU: "A-100", Name: "Kettle", Price: "39" } }),
    enabled: z.boolean().openapi({ example: true }),
    tokens: z.number().int().openapi({ example: 12 }),
    updatedAt: timestamp,
  })
  .openapi("KnowledgeTableRow");

/** A page of table rows with the table's layout. */
export const tableRowPageSchema = z
  .object({
    fields: z.array(z.string()),
    indexColumn: z.string(),
    items: z.array(tableRowSchema),
    total: z.number().int().openapi({ example: 240 }),
    pageNo: z.number().int().openapi({ example: 1 }),
    pageSize: z.number().int().openapi({ example: 20 }),
  })
  .openapi("KnowledgeTableRowPage");

/** Body of a row add or edit. */
export const tableRowBody = z
  .object({
    values: z.record(z.string(), z.string().max(10_000)).openapi({
      description: "Values by field name; on add, missing fields are empty; on edit, only the given fields change. The index column may not be empty",
      example: { Price: "42" },
    }),
  })
  .openapi("TableRowValues");

/** Query of a paged list. */
export const pageQuery = z.object({
  pageNo: pageNoSchema.default(1).openapi({ example: 1 }),
  pageSize: pageSizeSchema(100).default(20).openapi({ example: 20 }),
});

/** Body of a website import. */
export const websiteImportBody = z
  .object({
    url: z.string().max(2048).openapi({ description: "The page's address; must start with http:// or https://", example: "https://example.com/help/returns" }),
    name: z
      .string()
      .optional()
      .openapi({ description: "File name (default: from the page title); at most 50 letters, digits, _ or -", example: "returns-help" }),
  })
  .openapi("WebsiteImport");

/** A space's Feishu authorization, without its secret. */
export const feishuAuthorizationSchema = z
  .object({
    appId: z.string().nullable().openapi({ description: "The Feishu app's App ID; null when not configured", example: "cli_a1b2c3d4e5f6" }),
    configured: z.boolean().openapi({ example: true }),
    secretSet: z.boolean().openapi({ description: "Whether an App Secret is saved (it is never answered)", example: true }),
    updatedAt: z.string().nullable().openapi({ example: "2026-03-01T10:00:00.000Z" }),
  })
  .openapi("FeishuAuthorization");

/** Body of saving the Feishu authorization. */
export const saveFeishuAuthorizationBody = z
  .object({
    appId: z.string().min(1).max(200).openapi({ description: "App ID of a self-built Feishu app that can read the documents", example: "cli_a1b2c3d4e5f6" }),
    appSecret: z.string().max(500).optional().openapi({ description: "App Secret; omit to keep the saved one", example: "dskLLdkasdjlasdKK" }),
  })
  .openapi("SaveFeishuAuthorization");

/** Body of a Feishu document import. */
export const feishuImportBody = z
  .object({
    url: z.string().max(2048).openapi({
      description: "The document's https address, https://<tenant>.feishu.cn/docx/<document_id>",
      example: "https://example.feishu.cn/docx/B4EPdAYx8oi8HRxgPQQbM15UcBf",
    }),
    name: z
      .string()
      .optional()
      .openapi({ description: "File name (default: from the document title); at most 50 letters, digits, _ or -", example: "onboarding-guide" }),
  })
  .openapi("FeishuImport");

/** A media material of a knowledge base. */
export const mediaSchema = z
  .object({
    id: id("mm_01jd7w3k5q9x2m4n6p8r"),
    knowledgeBaseId: id("kb_01jd7w3k5q9x2m4n6p8r"),
    name: z.string().openapi({ description: "Display name; can be changed", example: "shipping-map.png" }),
    mimeType: z.enum(["image/jpeg", "image/png", "image/gif", "image/webp", "application/pdf", "video/mp4"]).openapi({ example: "image/png" }),
    kind: z.enum(["image", "document", "video"]).openapi({ example: "image" }),
    sizeBytes: z.number().int().openapi({ example: 48213 }),
    url: z
      .string()
      .openapi({ description: "Where its bytes are downloaded (signed-in GET)", example: "/api/v1/knowledge-media/mm_01jd7w3k5q9x2m4n6p8r/content" }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .openapi("KnowledgeMedia");

/** A page of media materials, newest first. */
export const mediaPageSchema = z
  .object({
    items: z.array(mediaSchema),
    total: z.number().int().openapi({ example: 12 }),
    pageNo: z.number().int().openapi({ example: 1 }),
    pageSize: z.number().int().openapi({ example: 20 }),
  })
  .openapi("KnowledgeMediaPage");

/** Multipart body of a media upload. */
export const mediaUploadBody = z
  .object({
    file: binary("jpeg, png, gif or webp image, pdf or mp4; at most 15 MB; the content must match the extension"),
    name: z.string().optional().openapi({ description: "Display name (default: the uploaded file name); 1–100 characters", example: "shipping-map.png" }),
  })
  .openapi("MediaUpload");

/** Body of a media rename. */
export const renameMediaBody = z
  .object({ name: z.string().max(200).openapi({ description: "1–100 characters, no slashes", example: "shipping-map-2026.png" }) })
  .openapi("RenameMedia");

/** Multipart body of the create-app document upload. */
export const appDocumentBody = z
  .object({
    file: binary("txt, md, pdf or docx, at most 15 MB"),
    name: fileName,
  })
  .openapi("AppDocumentUpload");

const searchMethod = z
  .enum(["question", "question_answer"])
  .openapi({ description: "question: found by its question only; question_answer: by question and answer", example: "question" });

/** A Q&A pair of a Q&A file. */
export const qaPairSchema = z
  .object({
    id: z.string().nullable().openapi({ description: "The pair's segment id; null while the file is pending", example: "kc_01jd7w3k5q9x2m4n6p8r" }),
    ordinal: z.number().int().openapi({ example: 0 }),
    question: z.string().openapi({ example: "How long do refunds take?" }),
    answer: z.string().openapi({ example: "Refunds reach your account within 5 working days." }),
    searchMethod,
    material: z
      .union([
        z.object({ type: z.literal("media"), id: z.string().openapi({ example: "mm_01jd7w3k5q9x2m4n6p8r" }) }),
        z.object({ type: z.literal("url"), url: z.string().openapi({ example: "https://example.com/map.png" }) }),
      ])
      .nullable()
      .openapi({ description: "Attached material: a media material of the knowledge base, or a link" }),
    enabled: z.boolean().openapi({ example: true }),
    updatedAt: timestamp,
  })
  .openapi("QaPair");

/** A page of Q&A pairs. */
export const qaPairPageSchema = z
  .object({
    items: z.array(qaPairSchema),
    total: z.number().int().openapi({ example: 118 }),
    pageNo: z.number().int().openapi({ example: 1 }),
    pageSize: z.number().int().openapi({ example: 20 }),
  })
  .openapi("QaPairPage");

const pairFields = {
  question: z.string().max(10_000).openapi({ example: "How long do refunds take?" }),
  answer: z.string().max(10_000).openapi({ example: "Refunds reach your account within 5 working days." }),
  searchMethod: searchMethod.optional(),
  material: z
    .string()
    .max(2048)
    .nullable()
    .optional()
    .openapi({ description: "A media material id of this knowledge base or an http(s) URL; null or empty removes it", example: "mm_01jd7w3k5q9x2m4n6p8r" }),
};

/** Body of a pair add: question and answer required; search method defaults to question only. */
export const addQaPairBody = z.object(pairFields).openapi("AddQaPair");

/** Body of a pair edit: any field. */
export const updateQaPairBody = z.object(pairFields).partial().openapi("UpdateQaPair");
