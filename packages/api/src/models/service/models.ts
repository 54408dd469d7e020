import type { z } from "@hono/zod-openapi";
import type { Deps } from "../../kernel";
import { rerankCreditsPerCall } from "../pricing";
import type { modelSchema, rerankModelSchema } from "../schemas";

/**
 * Every model this instance serves, each flagged when it is the default; the offline responder
 * is always among them. Waits for the first load of the owner's providers.
 */
export async function listModels(deps: Pick<Deps, "models">): Promise<Array<z.infer<typeof modelSchema>>> {
  await deps.models.ready();
  const defaultId = deps.models.defaultModel().id;
  return deps.models.list().map((model) => ({
    id: model.id,
    label: model.label,
    providerId: model.providerId,
    providerKind: model.providerKind,
    offline: model.offline,
    contextWindow: model.contextWindow,
    supportsTools: model.supportsTools,
    supportsImages: model.supportsImages,
    default: model.id === defaultId,
  }));
}

/** Rerank models of the enabled providers, with their price per call. Waits for the first load. */
export async function listRerankModels(deps: Pick<Deps, "models">): Promise<Array<z.infer<typeof rerankModelSchema>>> {
  await deps.models.ready();
  return deps.models.rerankModels().map((model) => ({ ...model, creditsPerCall: rerankCreditsPerCall(model.id) }));
}
