import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { requireAuth } from "../http/auth";
import type { AppEnv } from "../http/context";
import { ok } from "../http/envelope";
import { defineRoute, idParam, jsonBody, standardErrors } from "../http/openapi";
import { enqueueImageTask } from "./worker";
import { generateImageBody, imageModelSchema, imageTaskListQuery, imageTaskPageSchema, imageTaskSchema, operateImageBody } from "./schemas";
import { generateImage, getImageTask, listImageModels, listImageTasks, operateImage, readImageResult, taskView } from "./service/tasks";

const tags = ["Images"];
const taskParam = idParam("taskId", "img_01jd7w3k5q9x2m4n6p8r");

/** Spec §8's image statuses each route may answer, besides the standard ones. */
const submitErrors = {
  406: "Insufficient balance: the space's credits do not cover the task (go to My Account)",
  461: "Task not found (none, or another user's)",
  503: "No image model is configured, or its provider is unavailable",
  511: "Wait for the current task to complete: one unfinished task per user",
} as const;

/** Image tasks (spec §7 Images: generate, operate, a task polled by id) and the /paint gallery. */
export function registerImageRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/images/models",
      tags,
      summary: "Image models the caller may draw with",
      description:
        "The image models of the enabled model providers (API access → Models), with sizes, operations and price. An empty list: nothing can be drawn yet.",
      data: z.array(imageModelSchema),
    }),
    async (c) => ok(c, await listImageModels(c.var.deps)),
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/images/tasks",
      tags,
      status: 201,
      summary: "Draw pictures from a prompt (generate)",
      description:
        "Holds the task's credits and queues it; poll `GET /api/v1/images/tasks/{taskId}` until `succeeded` or `failed`. A provider's refusal of the prompt ends the task failed with 410, a failure with 503, 561 or 599; nothing is charged for a failed task.",
      request: { body: jsonBody(generateImageBody) },
      data: imageTaskSchema,
      extraErrors: { 406: submitErrors[406], 503: submitErrors[503], 511: submitErrors[511] },
    }),
    async (c) => {
      const row = await generateImage(c.var.deps, c.var.auth, c.req.valid("json"), (task) => enqueueImageTask(c.var.deps, task));
      return ok(c, taskView(c.var.deps, row, c.var.language), 201);
    },
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/images/tasks/{taskId}/operate",
      tags,
      status: 201,
      summary: "Upscale or vary one result of a finished task (operate)",
      description: "A new task of its own, charged and polled like a generation. Only the operations in the task's `actions` are offered.",
      request: { params: taskParam, body: jsonBody(operateImageBody) },
      data: imageTaskSchema,
      extraErrors: submitErrors,
    }),
    async (c) => {
      const row = await operateImage(c.var.deps, c.var.auth, c.req.valid("param").taskId, c.req.valid("json"), (task) => enqueueImageTask(c.var.deps, task));
      return ok(c, taskView(c.var.deps, row, c.var.language), 201);
    },
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/images/tasks/{taskId}",
      tags,
      summary: "One image task, polled by id",
      description: "Status, progress and, once succeeded, the result images. Answered from the database only: polling never reaches the provider.",
      request: { params: taskParam },
      data: imageTaskSchema,
      extraErrors: { 461: submitErrors[461] },
    }),
    async (c) => ok(c, await getImageTask(c.var.deps, c.var.auth, c.req.valid("param").taskId, c.var.language)),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/images/tasks",
      tags,
      summary: "The caller's image tasks, newest first (the gallery)",
      request: { query: imageTaskListQuery },
      data: imageTaskPageSchema,
    }),
    async (c) => ok(c, await listImageTasks(c.var.deps, c.var.auth, c.req.valid("query"), c.var.language)),
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/api/v1/images/tasks/{taskId}/images/{index}",
      tags,
      summary: "Download one result image of a task (its owner only)",
      security: [{ bearer: [] }],
      middleware: [requireAuth({ operation: "GET /api/v1/images/tasks/{taskId}/images/{index}" })],
      request: {
        params: taskParam.extend({
          index: z.coerce
            .number()
            .int()
            .min(1)
            .max(4)
            .openapi({ param: { name: "index", in: "path" }, example: 1 }),
        }),
      },
      responses: {
        200: {
          description: "The picture (PNG, JPEG or WebP as the provider drew it)",
          content: { "image/png": { schema: z.string().openapi({ format: "binary" }) }, "image/jpeg": { schema: z.string().openapi({ format: "binary" }) } },
        },
        ...standardErrors,
        461: { description: submitErrors[461], content: { "application/json": { schema: standardErrors[404].content["application/json"].schema } } },
      },
    }),
    async (c) => {
      const { taskId, index } = c.req.valid("param");
      const file = await readImageResult(c.var.deps, c.var.auth, taskId, index);
      return c.body(file.stream as ReadableStream, 200, {
        "Content-Type": file.contentType,
        "Content-Length": String(file.sizeBytes),
        "Content-Disposition": `inline; filename="${file.filename}"`,
        "Cache-Control": "private, max-age=86400",
      });
    },
  );
}
