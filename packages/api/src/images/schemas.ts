import { z } from "@hono/zod-openapi";
import { pageQuerySchema } from "../http/schemas";
import { imageFormats, imageSizes } from "../platform/images/types";

/** The longest prompt a task takes (Midjourney's own limit is about 6,000 characters). */
export const MAX_PROMPT_CHARS = 4000;

/** An image model the caller may draw with (GET /api/v1/images/models). */
export const imageModelSchema = z
  .object({
    id: z.string().openapi({ example: "dall-e-3" }),
    providerId: z.string().openapi({ example: "mp_01jd7w3k5q9x2m4n6p8r" }),
    providerName: z.string().openapi({ example: "OpenAI" }),
    format: z.enum(imageFormats).openapi({ description: "`openai` images API or a `midjourney` proxy", example: "openai" }),
    sizes: z.array(z.enum(imageSizes)).openapi({ description: "Sizes it draws", example: ["1024x1024", "1792x1024", "1024x1792"] }),
    maxCount: z.number().int().openapi({ description: "Most images one task asks for (Midjourney draws one grid of four: 1)", example: 4 }),
    operations: z
      .array(z.enum(["upscale", "variation"]))
      .openapi({ description: "Operations on a result: Midjourney's U1–U4 and V1–V4, DALL·E 2's variations", example: ["variation"] }),
    creditsPerImage: z.number().int().openapi({ description: "Credits one image of the default size costs (Midjourney: one task)", example: 400 }),
  })
  .openapi("ImageModel");

/** Body of POST /api/v1/images/tasks. */
export const generateImageBody = z
  .object({
    model: z.string().trim().min(1).max(200).optional().openapi({ description: "An image model; the first served when left out", example: "dall-e-3" }),
    prompt: z
      .string()
      .trim()
      .min(1)
      .max(MAX_PROMPT_CHARS)
      .openapi({ description: `What to draw (1–${MAX_PROMPT_CHARS} characters)`, example: "a lighthouse at dawn, oil painting" }),
    size: z.enum(imageSizes).default("1024x1024").openapi({ description: "One of the model's `sizes`", example: "1024x1024" }),
    count: z.number().int().min(1).max(4).default(1).openapi({ description: "Images to draw, 1–4 (Midjourney: always one grid)", example: 1 }),
  })
  .openapi("GenerateImageRequest");

/** Body of POST /api/v1/images/tasks/{taskId}/operate. */
export const operateImageBody = z
  .object({
    operation: z
      .enum(["upscale", "variation"])
      .openapi({ description: "Upscale (Midjourney U1–U4) or vary (V1–V4, DALL·E 2 variation) a result", example: "upscale" }),
    index: z.number().int().min(1).max(4).openapi({ description: "Which result, 1–4 (Midjourney: the quarter of the grid)", example: 1 }),
  })
  .openapi("OperateImageRequest");

/** One image task as its owner sees it. */
export const imageTaskSchema = z
  .object({
    id: z.string().openapi({ example: "img_01jd7w3k5q9x2m4n6p8r" }),
    model: z.string().openapi({ example: "midjourney" }),
    prompt: z.string(),
    revisedPrompt: z.string().nullable().openapi({ description: "The prompt the provider actually drew (OpenAI rewrites prompts)" }),
    action: z.enum(["generate", "upscale", "variation"]),
    parentTaskId: z.string().nullable(),
    parentIndex: z.number().int().nullable(),
    size: z.string().openapi({ example: "1024x1024" }),
    count: z.number().int(),
    status: z.enum(["queued", "running", "succeeded", "failed"]).openapi({ example: "running" }),
    progress: z.number().int().openapi({ description: "0–100", example: 45 }),
    images: z
      .array(z.object({ index: z.number().int(), url: z.string(), contentType: z.string(), sizeBytes: z.number().int() }))
      .openapi({ description: "Results once succeeded: `url` is this API's download path (GET, the owner's bearer token)" }),
    actions: z.array(z.string()).openapi({
      description: "Operations offered on the results, as buttons: `U1`…`U4` (upscale), `V1`…`V4` (variation)",
      example: ["U1", "U2", "U3", "U4", "V1", "V2", "V3", "V4"],
    }),
    credits: z.number().int().openapi({ description: "Credits held while unfinished, charged once succeeded, 0 after a failure (refunded)", example: 500 }),
    error: z
      .object({ code: z.number().int().openapi({ example: 410 }), message: z.string() })
      .nullable()
      .openapi({ description: "Why it failed, as spec §8's image statuses: 410 not compliant, 503 unavailable, 561 generation issue, 599 unknown" }),
    createdAt: z.string(),
    finishedAt: z.string().nullable(),
  })
  .openapi("ImageTask");

/** A page of the caller's image tasks, newest first. */
export const imageTaskPageSchema = z
  .object({ items: z.array(imageTaskSchema), total: z.number().int(), pageNo: z.number().int(), pageSize: z.number().int() })
  .openapi("ImageTaskPage");

/** Query of GET /api/v1/images/tasks. */
export const imageTaskListQuery = pageQuerySchema;
