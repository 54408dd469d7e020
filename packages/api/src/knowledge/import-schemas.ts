import { z } from "@hono/zod-openapi";
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
      .openapi({ description: "\"Import failed for N records\" in the request's language when some failed, else null", example: "Import failed for 2 records" }),
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
  language: z.enum(["en", "zh-CN"]).optional().openapi({ description: "Column titles' language; default: the Accept-Language of the request", example: "zh-CN" }),
});

export { id, timestamp };
