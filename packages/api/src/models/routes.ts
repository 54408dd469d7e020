import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";
import { ok } from "../http/envelope";
import { defineRoute, idParam, jsonBody } from "../http/openapi";
import { createModelProviderBody, modelProviderSchema, modelSchema, providerTestSchema, rerankModelSchema, updateModelProviderBody } from "./schemas";
import { listModels, listRerankModels } from "./service/models";
import {
  createModelProvider,
  deleteModelProvider,
  listModelProviders,
  requireInstanceOwner,
  testModelProvider,
  updateModelProvider,
} from "./service/providers";

const ownerOnly = { 403: "Only the instance owner manages model providers" };
const providerId = () => idParam("id", "mp_01jd7w3k5q9x2m4n6p8r");

/** The model catalogue and the owner's provider settings. */
export function registerModelRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/models",
      tags: ["Models"],
      summary: "List all models",
      description:
        "Every model the configured providers serve, plus the offline responder (`offline: true`), which answers from knowledge hits when no language model is configured.",
      data: z.array(modelSchema),
    }),
    async (c) => ok(c, await listModels(c.var.deps)),
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/rerank-models",
      tags: ["Models"],
      summary: "List rerank models",
      description:
        "Rerank models the enabled providers serve (their `rerankModels`), with what one call costs. An app's `rerankModel` names one of them; an empty list means reranking cannot be turned on.",
      data: z.array(rerankModelSchema),
    }),
    async (c) => ok(c, await listRerankModels(c.var.deps)),
  );

  const tags = ["Model providers"];
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/model-providers",
      tags,
      summary: "Model providers (instance owner only)",
      description:
        "Console entries first, then read-only entries set by environment variables. API keys are never returned: only `hasApiKey` and a masked hint.",
      data: z.array(modelProviderSchema),
      extraErrors: ownerOnly,
    }),
    async (c) => {
      await requireInstanceOwner(c.var.deps, c.var.auth);
      return ok(c, await listModelProviders(c.var.deps));
    },
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/model-providers",
      tags,
      status: 201,
      summary: "Add a model provider (instance owner only)",
      description: "Its models join the catalogue at once when enabled.",
      request: { body: jsonBody(createModelProviderBody) },
      data: modelProviderSchema,
      extraErrors: ownerOnly,
    }),
    async (c) => {
      await requireInstanceOwner(c.var.deps, c.var.auth);
      return ok(c, await createModelProvider(c.var.deps, c.req.valid("json")), 201);
    },
  );
  app.openapi(
    defineRoute({
      method: "patch",
      path: "/api/v1/model-providers/{id}",
      tags,
      summary: "Change a model provider (instance owner only)",
      description: "Send only what changes; `apiKey: null` removes the stored key. Entries set by environment variables answer 409.",
      request: { params: providerId(), body: jsonBody(updateModelProviderBody) },
      data: modelProviderSchema,
      extraErrors: { ...ownerOnly, 409: "The provider is set by environment variables" },
    }),
    async (c) => {
      await requireInstanceOwner(c.var.deps, c.var.auth);
      return ok(c, await updateModelProvider(c.var.deps, c.req.valid("param").id, c.req.valid("json")));
    },
  );
  app.openapi(
    defineRoute({
      method: "delete",
      path: "/api/v1/model-providers/{id}",
      tags,
      summary: "Remove a model provider (instance owner only)",
      request: { params: providerId() },
      data: z.object({ deleted: z.literal(true) }),
      extraErrors: { ...ownerOnly, 409: "The provider is set by environment variables" },
    }),
    async (c) => {
      await requireInstanceOwner(c.var.deps, c.var.auth);
      return ok(c, await deleteModelProvider(c.var.deps, c.req.valid("param").id));
    },
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/model-providers/{id}/test",
      tags,
      summary: "Send a tiny request to a provider (instance owner only)",
      description:
        "Asks one model (the first listed unless `model` is given) for a one-word answer and reports ok, latency and the error kind when it fails. Works for disabled and environment entries too.",
      request: {
        params: providerId(),
        query: z.object({ model: z.string().min(1).max(200).optional().openapi({ description: "Model id to try", example: "deepseek-chat" }) }),
      },
      data: providerTestSchema,
      extraErrors: ownerOnly,
    }),
    async (c) => {
      await requireInstanceOwner(c.var.deps, c.var.auth);
      return ok(c, await testModelProvider(c.var.deps, c.req.valid("param").id, c.req.valid("query").model));
    },
  );
}
