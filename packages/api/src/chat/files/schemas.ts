import { z } from "@hono/zod-openapi";

/** A file attached to a chat message, as every message view shows it. */
export const chatFileSchema = z
  .object({
    id: z.string().openapi({ example: "cf_01jd7w3k5q9x2m4n6p8r" }),
    name: z.string().openapi({ example: "invoice.pdf" }),
    kind: z.enum(["image", "document"]),
    mimeType: z.string().openapi({ example: "application/pdf" }),
    sizeBytes: z.number().int(),
    url: z.string().openapi({
      description:
        "The file's bytes, relative to the API origin: a signed address valid for 24 hours that needs no Authorization header (an `<img src>` can use it)",
      example: "/api/v1/chat-files/cf_01jd7w3k5q9x2m4n6p8r/content?expires=1795800000&signature=9f2c…",
    }),
    createdAt: z.string(),
  })
  .openapi("ChatFile");
