import { z } from "@hono/zod-openapi";

/** The format version this instance writes, and the newest it reads. */
export const PORTABLE_VERSION = 1;

/**
 * Limits of an import, checked before anything is written. A file over one of them is refused
 * with a message naming the limit; the plan's quotas (code 701) may allow fewer objects.
 */
export const PORTABLE_LIMITS = {
  /** The uploaded file (YAML text or zip), as received. */
  fileBytes: 20 * 1024 * 1024,
  /** Everything a zip inflates to, counted while inflating. */
  uncompressedBytes: 100 * 1024 * 1024,
  /** Entries of a zip. */
  zipEntries: 1000,
  /** Apps, workflows, plugins and knowledge bases of one file, together. */
  objects: 500,
  /** Knowledge files of one bundle, and segments of one knowledge file. */
  knowledgeFiles: 1000,
  segmentsPerFile: 20_000,
  /** Placeholders one file may declare. */
  secrets: 200,
} as const;

/** A file-local reference: a kind prefix, a colon and a slug (`app:support`, `kb:manuals`). */
export const REF_PATTERN = /^(app|kb|plugin|workflow):[a-z0-9][a-z0-9_-]{0,62}$/;
/** A built-in plugin named by an app or a plugin node (`builtin:current_time`). */
export const BUILTIN_REF_PATTERN = /^builtin:[a-z0-9_]{1,62}$/;
/** A secret placeholder as it stands in a value: `${secret:NAME}`. */
export const PLACEHOLDER_PATTERN = /^\$\{secret:([A-Z][A-Z0-9_]{0,63})\}$/;
/** The placeholder that stands for a secret in a value: `${secret:NAME}`. */
export function placeholderOf(name: string): string {
  return `\${secret:${name}}`;
}

/** A secret name. */
export const SECRET_NAME_PATTERN = /^[A-Z][A-Z0-9_]{0,63}$/;

const ref = (kind: "app" | "kb" | "plugin" | "workflow", example: string) =>
  z
    .string()
    .max(70)
    .regex(new RegExp(`^${kind}:[a-z0-9][a-z0-9_-]{0,62}$`))
    .meta({ description: `A file-local reference to a ${kind === "kb" ? "knowledge base" : kind} of this file`, examples: [example] });

const text = (max: number) => z.string().max(max);

/** A parameter of a plugin request or response (the plugin editor's tree). */
export const portableParameterSchema: z.ZodType = z.lazy(() =>
  z
    .object({
      name: text(100),
      type: text(20),
      description: text(1000).optional(),
      required: z.boolean().optional(),
      default: z.unknown().optional(),
      children: z.array(portableParameterSchema).max(100).optional(),
    })
    .loose(),
);

/** A secret the importer supplies: the name its placeholders use and what it is for. */
export const portableSecretSchema = z
  .object({
    name: z
      .string()
      .regex(SECRET_NAME_PATTERN)
      .meta({ examples: ["WEATHER_API_KEY"] }),
    description: text(500).meta({ description: "Where the value goes, for the person importing" }),
  })
  .meta({ id: "PortableSecret" });

/** A knowledge base's settings; its contents travel in the zip bundle when exported with contents. */
export const portableKnowledgeBaseSchema = z
  .object({
    ref: ref("kb", "kb:manuals"),
    name: text(100),
    description: text(2000).default(""),
    embeddingModel: text(200).optional().meta({ description: "Kept when the importing instance has it, else its default embedder" }),
    chunkTokens: z.number().int().min(50).max(8000).default(500),
    chunkOverlap: z.number().int().min(0).max(4000).default(50),
    contents: text(300)
      .optional()
      .meta({ description: "Path of this knowledge base's contents inside the zip bundle (knowledge/<slug>.json)", examples: ["knowledge/manuals.json"] }),
  })
  .meta({ id: "PortableKnowledgeBase" });

/** A custom plugin. `kind: http` today; MCP plugins add `mcp: { transport, tools }`. */
const pluginHeaders = z
  .record(z.string().max(200), z.string().max(8000))
  .default({})
  .meta({ description: `Header values; secrets are ${placeholderOf("NAME")} placeholders, never the value` });

const pluginCommon = {
  ref: ref("plugin", "plugin:weather"),
  name: text(200),
  description: text(2000),
  avatar: text(200_000),
  enabled: z.boolean().default(true),
};

/** A plugin that makes one HTTP request per call. */
const portableHttpPluginSchema = z.object({
  ...pluginCommon,
  kind: z.literal("http").default("http"),
  http: z.object({
    url: text(2000),
    method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]),
    requestParams: z.array(portableParameterSchema).max(200).default([]),
    responseParams: z.array(portableParameterSchema).max(200).default([]),
    headers: pluginHeaders,
  }),
});

/** A plugin that is an MCP server: its endpoint, transport and the tools it offered, with their switches. */
const portableMcpPluginSchema = z.object({
  ...pluginCommon,
  kind: z.literal("mcp"),
  mcp: z.object({
    url: text(2000),
    transport: z.enum(["auto", "streamable-http", "sse"]).default("auto"),
    headers: pluginHeaders,
    tools: z
      .array(
        z.object({
          name: text(128),
          title: text(200).optional(),
          description: text(4000).default(""),
          inputSchema: z.record(z.string(), z.unknown()),
          enabled: z.boolean().default(false),
        }),
      )
      .max(128)
      .default([]),
  }),
});

/** A custom plugin: one HTTP request (`kind: http`, the default) or an MCP server (`kind: mcp`). */
export const portablePluginSchema = z.union([portableHttpPluginSchema, portableMcpPluginSchema]).meta({ id: "PortablePlugin" });

/** An app: its settings, and its knowledge bases and plugins by reference. */
export const portableAppSchema = z
  .object({
    ref: ref("app", "app:support"),
    type: z.enum(["LIGHT", "KNOWLEDGE", "AGENT"]),
    name: text(200),
    description: text(2000),
    openingIntroduction: text(16_000),
    avatarUrl: text(4000),
    category: text(100),
    settingsPrompt: text(80_000),
    defaultModel: text(200),
    optionalModels: z.array(text(200)).max(20).default([]),
    memoryTurns: z.number().optional(),
    memoryRetentionMinutes: z.number().optional(),
    temperature: z.number().optional(),
    retrievalLength: z.number().optional(),
    retrievalMode: z.enum(["semantic", "fulltext", "hybrid"]).optional(),
    similarityThreshold: z.number().optional(),
    semanticCount: z.number().optional(),
    fullTextCount: z.number().optional(),
    rerankModel: text(200).nullable().optional(),
    rerankThreshold: z.number().optional(),
    noHitStrategy: z.enum(["default", "fixed", "manual"]).optional(),
    noHitText: text(8000).nullable().optional(),
    citationEnabled: z.boolean().optional(),
    citationThreshold: z.number().optional(),
    multiRoundThinking: z.boolean().optional(),
    maxRounds: z.number().optional(),
    pluginStrategy: z.enum(["knowledge_first", "plugin_first", "both"]).optional(),
    bottomSlogan: text(100).nullable().optional(),
    knowledgeBases: z.array(z.string().max(200)).max(50).default([]).meta({ description: "References (`kb:…`) to knowledge bases of this file" }),
    plugins: z
      .array(z.string().max(200))
      .max(50)
      .default([])
      .meta({ description: "References to plugins of this file (`plugin:…`) or built-in plugins (`builtin:current_time`)" }),
  })
  .meta({ id: "PortableApp" });

/** A workflow: its card and its graph, node references written as file references. */
export const portableWorkflowSchema = z
  .object({
    ref: ref("workflow", "workflow:triage"),
    name: text(200),
    description: text(2000),
    avatarUrl: text(4000),
    category: text(200),
    chatApp: z.boolean().default(false).meta({ description: "Whether the workflow answers chats through its own WORKFLOW app" }),
    elements: z
      .array(z.object({ id: text(64), type: text(40), config: z.record(z.string(), z.unknown()).default({}), position: z.unknown().optional() }).loose())
      .max(2000),
    lines: z.array(z.object({ id: text(200), source: text(64), sourceHandle: text(200).nullable().optional(), target: text(64) }).loose()).max(4000),
  })
  .meta({ id: "PortableWorkflow" });

/** A portable file of format version 1. */
export const portableDocumentSchema = z
  .object({
    parley: z.literal(PORTABLE_VERSION).meta({ description: "Format version" }),
    kind: z.literal("bundle"),
    exportedAt: z.string().max(40).optional(),
    secrets: z.array(portableSecretSchema).max(PORTABLE_LIMITS.secrets).default([]),
    knowledgeBases: z.array(portableKnowledgeBaseSchema).default([]),
    plugins: z.array(portablePluginSchema).default([]),
    apps: z.array(portableAppSchema).default([]),
    workflows: z.array(portableWorkflowSchema).default([]),
  })
  .meta({
    id: "ParleyPortableFile",
    title: "Parley portable file",
    description: "Apps, workflows, plugins and knowledge base settings of a Parley space, with references between them by file-local ref.",
  });

/** A portable file as read (defaults filled in). */
export type PortableDocument = z.infer<typeof portableDocumentSchema>;
/** One app of a portable file. */
export type PortableApp = z.infer<typeof portableAppSchema>;
/** One plugin of a portable file. */
export type PortablePlugin = z.infer<typeof portablePluginSchema>;
/** One workflow of a portable file. */
export type PortableWorkflow = z.infer<typeof portableWorkflowSchema>;
/** One knowledge base of a portable file. */
export type PortableKnowledgeBase = z.infer<typeof portableKnowledgeBaseSchema>;

/** One record of a knowledge file in the contents bundle: a segment (document) or a pair / row (Q&A, table). */
export const portableRecordSchema = z.object({
  content: z.string().max(100_000),
  metadata: z.record(z.string(), z.unknown()).optional(),
  enabled: z.boolean().optional(),
});

/** The contents of one knowledge base in the zip bundle (`knowledge/<slug>.json`). */
export const portableContentsSchema = z.object({
  files: z
    .array(
      z.object({
        name: z.string().max(100),
        type: z.enum(["document", "qa", "table", "website"]),
        source: z.string().max(2000).default(""),
        options: z.record(z.string(), z.unknown()).default({}),
        records: z.array(portableRecordSchema).max(PORTABLE_LIMITS.segmentsPerFile),
      }),
    )
    .max(PORTABLE_LIMITS.knowledgeFiles),
});

/** The contents of one knowledge base. */
export type PortableContents = z.infer<typeof portableContentsSchema>;

/** The JSON Schema of the file format, as committed in docs/portable-format.schema.json. */
export function portableJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(portableDocumentSchema, { target: "draft-2020-12", io: "input", unrepresentable: "any" }) as Record<string, unknown>;
}
