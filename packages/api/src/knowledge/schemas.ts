import { z } from "@hono/zod-openapi";
import { pageNoSchema, pageSizeSchema } from "../http/schemas";

const id = (example: string) => z.string().openapi({ example });

/** A knowledge base with its totals. */
export const knowledgeBaseSchema = z
  .object({
    id: id("kb_01jd7w3k5q9x2m4n6p8r"),
    code: z.string().openapi({ description: "Short unique code", example: "K7M2Q9X4PA" }),
    name: z.string().openapi({ example: "Product manuals" }),
    description: z.string().openapi({ example: "Manuals of every product we sell" }),
    embeddingModel: z.string().openapi({ description: "Model the vectors are made with", example: "parley-lexical-hash-v1-384" }),
    embeddingModelLabel: z.string().nullable().openapi({
      description: "Human label of that model; null when it is no longer configured (semantic search then skips this base)",
      example: "Offline lexical fallback (feature hashing, no semantic model)",
    }),
    lexicalEmbedder: z
      .boolean()
      .openapi({ description: "True when the vectors come from the offline lexical fallback, which measures word overlap rather than meaning", example: true }),
    chunkTokens: z.number().int().openapi({ description: "Target segment size in tokens", example: 500 }),
    chunkOverlap: z.number().int().openapi({ description: "Tokens each segment repeats from the one before", example: 50 }),
    fileCount: z.number().int().openapi({ example: 3 }),
    tokenCount: z.number().int().openapi({ description: "Tokens held by all its files", example: 12000 }),
    createdBy: id("usr_01jd7w3k5q9x2m4n6p8r"),
    createdAt: z.string().openapi({ example: "2026-03-01T10:00:00.000Z" }),
    updatedAt: z.string().openapi({ example: "2026-03-01T10:00:00.000Z" }),
  })
  .openapi("KnowledgeBase");

const chunking = {
  chunkTokens: z.number().int().min(50).max(4000).openapi({ description: "50–4000; default 500", example: 500 }),
  chunkOverlap: z.number().int().min(0).max(1000).openapi({ description: "0–1000 and below chunkTokens; default 50", example: 50 }),
};

/** Body of knowledge base create. */
export const createKnowledgeBaseBody = z
  .object({
    name: z.string().min(1).max(100).openapi({ description: "Required; at most 100 characters", example: "Product manuals" }),
    description: z.string().max(1000).optional().openapi({ example: "Manuals of every product we sell" }),
    chunkTokens: chunking.chunkTokens.optional(),
    chunkOverlap: chunking.chunkOverlap.optional(),
  })
  .openapi("CreateKnowledgeBase");

/** Body of knowledge base update: any field of create. */
export const updateKnowledgeBaseBody = createKnowledgeBaseBody.partial().openapi("UpdateKnowledgeBase");

/** Answer of a delete. */
export const deletedSchema = z.object({ id: z.string().openapi({ example: "kb_01jd7w3k5q9x2m4n6p8r" }), deleted: z.literal(true) });

/** Body of relation add. */
export const bindKnowledgeBasesBody = z
  .object({
    knowledgeBaseIds: z
      .array(z.string().max(100))
      .min(1)
      .max(200)
      .openapi({ description: "Knowledge bases of the same space to bind", example: ["kb_01jd7w3k5q9x2m4n6p8r"] }),
  })
  .openapi("BindKnowledgeBases");

/** Answer of relation add. */
export const boundKnowledgeBasesSchema = z.object({
  appId: id("app_01jd7w3k5q9x2m4n6p8r"),
  knowledgeBaseIds: z.array(z.string()).openapi({ description: "Everything the app binds now", example: ["kb_01jd7w3k5q9x2m4n6p8r"] }),
});

/** A file of a knowledge base and its import state. */
export const knowledgeFileSchema = z
  .object({
    id: id("kf_01jd7w3k5q9x2m4n6p8r"),
    knowledgeBaseId: id("kb_01jd7w3k5q9x2m4n6p8r"),
    name: z.string().openapi({ example: "returns-policy" }),
    type: z.enum(["document", "qa", "table", "website"]).openapi({ example: "document" }),
    source: z.string().openapi({ description: "Uploaded file name, URL or document token", example: "returns-policy.pdf" }),
    sizeBytes: z.number().int().openapi({ example: 52100 }),
    sizeKb: z.number().int().openapi({ example: 51 }),
    status: z.enum(["pending", "processing", "effective", "failed"]).openapi({ description: "pending until confirmed", example: "effective" }),
    progress: z.number().int().openapi({ description: "0–100 while processing", example: 100 }),
    chunkCount: z.number().int().openapi({ example: 12 }),
    tokenCount: z.number().int().openapi({ example: 5400 }),
    failureReason: z.string().nullable().openapi({ description: "Why it failed, in the request's language", example: null }),
    createdAt: z.string().openapi({ example: "2026-03-01T10:00:00.000Z" }),
    updatedAt: z.string().openapi({ example: "2026-03-01T10:00:00.000Z" }),
  })
  .openapi("KnowledgeFile");

/** Multipart body of a document upload. */
export const uploadDocumentBody = z
  .object({
    file: z.any().openapi({ type: "string", format: "binary", description: "txt, md, pdf or docx, at most 10 MB" }),
    name: z
      .string()
      .optional()
      .openapi({ description: "File name without extension (default: the uploaded name); at most 50 letters, digits, _ or -", example: "returns-policy" }),
  })
  .openapi("UploadDocument");

/** A segment shown in a preview. */
export const previewSchema = z
  .object({
    fileId: id("kf_01jd7w3k5q9x2m4n6p8r"),
    type: z.enum(["document", "qa", "table", "website"]).openapi({ example: "document" }),
    totalSegments: z.number().int().openapi({ example: 120 }),
    tokenCount: z.number().int().openapi({ example: 54000 }),
    segments: z
      .array(
        z.object({
          ordinal: z.number().int(),
          content: z.string(),
          tokens: z.number().int(),
          metadata: z.record(z.string(), z.unknown()).optional().openapi({ description: "Q&A pair or table row the segment was made from" }),
        }),
      )
      .openapi({ description: "The first 50 segments (or rows)" }),
  })
  .openapi("KnowledgeFilePreview");

/** Body of a rename. */
export const renameFileBody = z.object({ name: z.string().openapi({ description: "At most 50 letters, digits, _ or -", example: "returns-policy-2026" }) });

/** A segment (chunk) of a file. */
export const segmentSchema = z
  .object({
    id: id("kc_01jd7w3k5q9x2m4n6p8r"),
    fileId: id("kf_01jd7w3k5q9x2m4n6p8r"),
    ordinal: z.number().int().openapi({ example: 0 }),
    content: z.string().openapi({ example: "Returns are accepted within 30 days." }),
    tokens: z.number().int().openapi({ example: 9 }),
    enabled: z.boolean().openapi({ description: "Disabled segments are not retrieved", example: true }),
    updatedAt: z.string().openapi({ example: "2026-03-01T10:00:00.000Z" }),
  })
  .openapi("KnowledgeSegment");

/** A page of segments. */
export const segmentPageSchema = z.object({
  items: z.array(segmentSchema),
  total: z.number().int().openapi({ example: 120 }),
  pageNo: z.number().int().openapi({ example: 1 }),
  pageSize: z.number().int().openapi({ example: 20 }),
});

/** Query of the segment list. */
export const segmentListQuery = z.object({
  pageNo: pageNoSchema.default(1).openapi({ example: 1 }),
  pageSize: pageSizeSchema(100).default(20).openapi({ example: 20 }),
});

/** Body of segment add. */
export const addSegmentBody = z.object({ content: z.string().max(20_000).openapi({ example: "Returns are accepted within 30 days." }) });

/** Body of segment edit. */
export const updateSegmentBody = z.object({
  content: z.string().max(20_000).optional().openapi({ example: "Returns are accepted within 30 days." }),
  enabled: z.boolean().optional().openapi({ example: false }),
});

/** Body of a retrieval test. */
export const retrievalTestBody = z
  .object({
    query: z.string().trim().min(1).max(2000).openapi({ description: "What to search for", example: "How long do returns take?" }),
    similarityThreshold: z.number().min(0).max(1).optional().openapi({
      description:
        "Minimum calibrated similarity of semantic hits (0–1, the scale of an app's threshold); full-text hits are never filtered by it. Default: a new app's (0.75)",
      example: 0.75,
    }),
    mode: z
      .enum(["semantic", "fulltext", "hybrid"])
      .optional()
      .openapi({ description: "Retrieval mode of the `app` list. Default: a new app's (hybrid)", example: "hybrid" }),
    semanticCount: z.number().int().min(0).max(10).optional().openapi({ description: "Semantic hits of the `app` list. Default: a new app's (6)", example: 6 }),
    fullTextCount: z
      .number()
      .int()
      .min(0)
      .max(10)
      .optional()
      .openapi({ description: "Full-text hits of the `app` list. Default: a new app's (4)", example: 4 }),
  })
  .openapi("RetrievalTest");

const retrievedChunkSchema = z
  .object({
    chunkId: id("kc_01jd7w3k5q9x2m4n6p8r"),
    fileId: id("kf_01jd7w3k5q9x2m4n6p8r"),
    fileName: z.string().openapi({ description: "Source file", example: "returns-policy" }),
    content: z.string().openapi({ example: "Returns are accepted within 30 days." }),
    score: z.number().openapi({
      description: "Rank score of its list: calibrated similarity, negated BM25, or the fused score (0–1, 1 = first in both lists; decision 0023)",
      example: 0.82,
    }),
    similarity: z
      .number()
      .nullable()
      .openapi({ description: "Calibrated similarity (0–1, the scale of the similarity threshold) when found by semantic search", example: 0.82 }),
    cosine: z.number().nullable().openapi({ description: "The embedding model's raw cosine similarity when found by semantic search", example: 0.46 }),
    textScore: z.number().nullable().openapi({ description: "Full-text relevance (negated BM25) when found by full text", example: 7.4 }),
    textMatch: z
      .number()
      .nullable()
      .openapi({ description: "Share of the query's search terms the segment holds (0–1) when found by full text", example: 0.75 }),
    metadata: z.record(z.string(), z.unknown()).openapi({ description: "Heading breadcrumb, Q&A pair or table row" }),
  })
  .openapi("RetrievedChunk");

/** Answer of a retrieval test: 10 results of each kind. */
export const retrievalTestSchema = z
  .object({
    query: z.string(),
    embeddingModel: z
      .string()
      .openapi({ description: "Label of the embedding model", example: "Offline lexical fallback (feature hashing, no semantic model)" }),
    lexicalEmbedder: z.boolean().openapi({ description: "True when semantic search is only the offline lexical fallback", example: true }),
    elapsedMs: z.number().openapi({ example: 4.2 }),
    settings: z
      .object({
        mode: z.enum(["semantic", "fulltext", "hybrid"]),
        similarityThreshold: z.number(),
        semanticCount: z.number().int(),
        fullTextCount: z.number().int(),
      })
      .openapi({ description: "The settings the test ran with: those sent, else a new app's defaults" }),
    semantic: z.array(retrievedChunkSchema),
    fullText: z.array(retrievedChunkSchema),
    hybrid: z.array(retrievedChunkSchema),
    app: z.array(retrievedChunkSchema).openapi({ description: "What an app with these settings retrieves for the query, as chat does" }),
  })
  .openapi("RetrievalTestResult");
