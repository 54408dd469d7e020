import { z } from "@hono/zod-openapi";

const ids = (description: string, example: string) =>
  z
    .array(z.string().min(1).max(64))
    .max(500)
    .optional()
    .openapi({ description, example: [example] });

/** What to export. */
export const exportBody = z
  .object({
    appIds: ids("Apps to export (with their knowledge bases and plugins)", "app_01jd7w3k5q9x2m4n6p8r"),
    workflowIds: ids("Workflows to export (with the apps, knowledge bases and plugins their nodes use)", "wf_01jd7w3k5q9x2m4n6p8r"),
    pluginIds: ids("Custom plugins to export", "plg_01jd7w3k5q9x2m4n6p8r"),
    knowledgeBaseIds: ids("Knowledge bases to export (settings; contents with includeContents)", "kb_01jd7w3k5q9x2m4n6p8r"),
    space: z.boolean().optional().openapi({ description: "Export every app, workflow, plugin and knowledge base the caller may read", example: false }),
    includeContents: z
      .boolean()
      .optional()
      .openapi({ description: "Answer a zip holding parley.yaml and the knowledge bases' segments, instead of the YAML alone", example: false }),
  })
  .openapi("PortableExportRequest");

const secretsField = z
  .record(z.string().max(64), z.string().max(8000))
  .optional()
  .openapi({ description: "Values of the file's placeholders, by name", example: { WEATHER_API_KEY: "sk-…" } });

/** An import sent as JSON: the YAML text. */
export const importJsonBody = z
  .object({
    yaml: z
      .string()
      .max(20 * 1024 * 1024)
      .optional()
      .openapi({ description: "The portable file's YAML text (required)", example: "parley: 1\nkind: bundle\napps: []\n" }),
    secrets: secretsField,
    dryRun: z.boolean().optional().openapi({ description: "Check everything and answer what would be created, writing nothing", example: true }),
  })
  .openapi("PortableImportRequest");

/** An import sent as a multipart form: the file (YAML or zip). */
export const importFormBody = z
  .object({
    file: z
      .any()
      .optional()
      .openapi({ type: "string", format: "binary", description: "The portable file: YAML, or a zip bundle with knowledge contents (required)" }),
    secrets: z.string().optional().openapi({ description: "JSON object of placeholder values, by name", example: '{"WEATHER_API_KEY":"sk-…"}' }),
    dryRun: z.enum(["true", "false"]).optional().openapi({ description: "`true`: check only, write nothing", example: "true" }),
  })
  .openapi("PortableImportForm");

const plannedObject = z
  .object({
    ref: z.string().openapi({ example: "app:support" }),
    name: z.string().openapi({ description: "The name it gets (a suffix when the space already has one)", example: "Support bot" }),
    id: z.string().nullable().openapi({ description: "The new id; null in a dry run", example: "app_01jd7w3k5q9x2m4n6p8r" }),
    code: z.string().nullable().openapi({ description: "The new code (apps, plugins, knowledge bases); null in a dry run", example: "k3v9x2m4n6" }),
  })
  .openapi("PortablePlannedObject");

/** What an import did, or (dry run) would do. */
export const importResultSchema = z
  .object({
    dryRun: z.boolean(),
    fromVersion: z.number().int().openapi({ description: "The format version the file was written in (older ones are migrated)", example: 1 }),
    apps: z.array(plannedObject),
    workflows: z.array(plannedObject),
    plugins: z.array(plannedObject),
    knowledgeBases: z.array(plannedObject),
    knowledgeFiles: z.number().int().openapi({ description: "Knowledge files whose segments are indexed after the import", example: 2 }),
    secrets: z
      .array(z.object({ name: z.string(), description: z.string(), provided: z.boolean() }))
      .openapi({ description: "The file's placeholders and whether the request gave each a value" }),
  })
  .openapi("PortableImportResult");
