import type { components } from "@parley/sdk";
import { call, client } from "../request";
import type { Extra } from "./shared";

type Schemas = components["schemas"];

/** The model catalogue and (instance owner only) the model providers. */
export const modelEndpoints = {
  list: (extra: Extra = {}) => call({ dedupeKey: "models", ...extra }, (init) => client.GET("/api/v1/models", init)),
  rerankModels: (extra: Extra = {}) => call({ dedupeKey: "rerank-models", ...extra }, (init) => client.GET("/api/v1/rerank-models", init)),
  providers: (extra: Extra = {}) => call({ dedupeKey: "model-providers", ...extra }, (init) => client.GET("/api/v1/model-providers", init)),
  createProvider: (body: Schemas["CreateModelProviderRequest"], extra: Extra = {}) =>
    call(extra, (init) => client.POST("/api/v1/model-providers", { ...init, body })),
  updateProvider: (id: string, body: Schemas["UpdateModelProviderRequest"], extra: Extra = {}) =>
    call(extra, (init) => client.PATCH("/api/v1/model-providers/{id}", { ...init, params: { path: { id } }, body })),
  deleteProvider: (id: string, extra: Extra = {}) =>
    call(extra, (init) => client.DELETE("/api/v1/model-providers/{id}", { ...init, params: { path: { id } } })),
  testProvider: (id: string, extra: Extra = {}) =>
    call(extra, (init) => client.POST("/api/v1/model-providers/{id}/test", { ...init, params: { path: { id } } })),
};
