import type { components } from "@parley/sdk";
import { call, client, type CallOptions } from "./request";

type Schemas = components["schemas"];
type Extra = Pick<CallOptions, "silent" | "signal" | "dedupeKey" | "startup">;

/** An image model the caller may draw with. */
export type ImageModel = Schemas["ImageModel"];
/** A drawing task as its owner sees it. */
export type ImageTask = Schemas["ImageTask"];

/** Image tasks through the SDK (spec §7 Images: generate, operate, a task polled by id). */
export const imageEndpoints = {
  models: (extra: Extra = {}) => call({ dedupeKey: "image-models", ...extra }, (init) => client.GET("/api/v1/images/models", init)),
  generate: (body: Schemas["GenerateImageRequest"], extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/images/tasks", { ...init, body })),
  operate: (taskId: string, body: Schemas["OperateImageRequest"], extra: Extra = {}) =>
    call(extra, (init) => client.POST("/api/v1/images/tasks/{taskId}/operate", { ...init, params: { path: { taskId } }, body })),
  task: (taskId: string, extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/images/tasks/{taskId}", { ...init, params: { path: { taskId } } })),
  tasks: (pageNo: number, pageSize: number, extra: Extra = {}) =>
    call({ dedupeKey: "image-tasks", ...extra }, (init) => client.GET("/api/v1/images/tasks", { ...init, params: { query: { pageNo, pageSize } } })),
  /** One result's bytes (the owner's token goes in the header, so an <img> cannot fetch it itself). */
  image: async (taskId: string, index: number, extra: Extra = {}) => {
    const result = await call(extra, (init) =>
      client.GET("/api/v1/images/tasks/{taskId}/images/{index}", { ...init, params: { path: { taskId, index } }, parseAs: "blob" }),
    );
    return result.ok ? { ok: true as const, data: result.data as unknown as Blob } : result;
  },
};
