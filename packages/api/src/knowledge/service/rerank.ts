import { newId } from "../../crypto";
import { usageRecords } from "../../db/schema/index";
import { releaseHold, settleHold, takeHold } from "../../billing/service/holds";
import { ServiceError } from "../../errors";
import type { Deps } from "../../kernel";
import { rerankCreditsPerCall } from "../../models/pricing";
import { estimateTokens } from "../../platform/llm/tokens";
import { rerankChunks } from "../retrieval/rerank";
import type { RetrievedChunk } from "../retrieval/search";

/** What reranking an app's hits needs of the kernel: the catalogue and the credit ledger. */
export type RerankDeps = Pick<Deps, "config" | "db" | "logger" | "mail" | "models" | "now" | "sms">;

/** An app's rerank settings for one retrieval. */
export interface RerankRequest {
  /** A rerank model of the catalogue. */
  model: string;
  /** Reranked hits scored under it are dropped (0–1). */
  threshold: number;
  /** The app the call is made for: named by the usage record and the ledger row. */
  appId?: string;
}

/**
 * Reranks fused candidates for a space, charging the space the model's credits for the call:
 * the credits are held before the call, settled when it answered and released when it failed,
 * and the call leaves a usage record (model `rerank:<id>`). Answers undefined, having logged why,
 * when reranking could not be done (model no longer served, credits short, the call failed), so
 * the caller keeps its fused order; it never throws for these.
 */
export async function rerankForSpace(
  deps: RerankDeps,
  spaceId: string,
  request: RerankRequest & { query: string; chunks: readonly RetrievedChunk[]; limit: number },
): Promise<RetrievedChunk[] | undefined> {
  const resolved = deps.models.reranker(request.model);
  const context = { spaceId, appId: request.appId, model: request.model };
  if (!resolved) {
    deps.logger.warn("rerank skipped: the model is not served by an enabled provider", context);
    return undefined;
  }
  if (request.chunks.length === 0) return [];
  const credits = rerankCreditsPerCall(request.model);
  const reference = `rerank:${request.appId ?? spaceId}`;
  let hold;
  try {
    hold = credits > 0 ? await takeHold(deps, { spaceId, amount: credits, reference }) : undefined;
  } catch (error) {
    if (error instanceof ServiceError && error.kind === "insufficient_credits") {
      deps.logger.warn("rerank skipped: the space's credits do not cover the call", { ...context, credits });
      return undefined;
    }
    throw error;
  }
  let reranked: RetrievedChunk[];
  try {
    reranked = await rerankChunks(resolved.reranker, request);
  } catch (error) {
    if (hold) await releaseHold(deps, hold);
    deps.logger.warn("rerank failed: the fused order is kept", { ...context, reason: error instanceof Error ? error.message : String(error) });
    return undefined;
  }
  const charged = hold ? (await settleHold(deps, hold, { credits, reference })).charged : 0;
  await deps.db.insert(usageRecords).values({
    id: newId("use"),
    spaceId,
    appId: request.appId ?? null,
    prompt: request.query,
    answer: "",
    model: `rerank:${request.model}`,
    promptTokens: estimateTokens(request.query) + request.chunks.reduce((sum, chunk) => sum + estimateTokens(chunk.content), 0),
    completionTokens: 0,
    credits: charged,
    createdAt: deps.now().toISOString(),
  });
  return reranked;
}
