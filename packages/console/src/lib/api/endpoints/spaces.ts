import type { components } from "@parley/sdk";
import { call, client } from "../request";
import type { Extra } from "./shared";

type Schemas = components["schemas"];

/** Creating a team space and switching to a space. */
export const spaceEndpoints = {
  create: (body: Schemas["CreateSpaceRequest"], extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/spaces", { ...init, body })),
  select: (spaceId: string, extra: Extra = {}) =>
    call(extra, (init) => client.POST("/api/v1/spaces/{spaceId}/select", { ...init, params: { path: { spaceId } } })),
};
