import { availableBalance } from "../billing/service/holds";
import { ServiceError } from "../errors";
import type { Deps } from "../kernel";
import { creditsFor } from "../models/pricing";
import { estimateTokens, IMAGE_TOKENS } from "../platform/llm/tokens";
import { filesForTurn } from "../chat/files/service";
import { holdForTurn } from "./metering";
import { checkRateLimits } from "./rate-limit";
import { findOwnConversation } from "./store";
import type { ChatTurn, PreparedTurn, ResponderPolicy } from "./types";

/** Longest message accepted from a person. */
export const MAX_INPUT_CHARACTERS = 20_000;

/**
 * Everything that can refuse a turn before anything streams: the checks run first so that the
 * caller can answer with an envelope error (400, 404, 429, 870) instead of a broken stream. Rate
 * limits are counted here; credits are held here for responders metered per turn.
 */
export async function prepareTurn(
  deps: Pick<Deps, "config" | "db" | "logger" | "mail" | "models" | "now" | "sms" | "throttle">,
  turn: ChatTurn,
  policy: ResponderPolicy,
): Promise<PreparedTurn> {
  let files = turn.fileIds?.length
    ? await filesForTurn(
        deps,
        {
          spaceId: turn.app.spaceId,
          appId: turn.app.id,
          endUserId: turn.endUserId,
          conversationId: turn.conversationId,
          storedMessageId: turn.storedMessageId,
        },
        turn.fileIds,
      )
    : [];
  const lastMessage = turn.messages?.at(-1);
  const statelessPlaceholder = lastMessage?.role === "user" && lastMessage.images?.length ? "(image)" : "(tool results)";
  const text = turn.messages ? turn.text.trim() || statelessPlaceholder : turn.text.trim();
  if (!text && files.length === 0) throw new ServiceError("validation", "validation_failed", { field: "message", reason: "empty" }, { field: "message" });
  if (!turn.messages && text.length > MAX_INPUT_CHARACTERS) {
    throw new ServiceError(
      "validation",
      "validation_failed",
      { field: "message", reason: `longer than ${MAX_INPUT_CHARACTERS} characters` },
      { field: "message" },
    );
  }
  const modelId = turn.model ?? turn.app.defaultModel;
  if (modelId !== turn.app.defaultModel && !turn.app.optionalModels.includes(modelId))
    throw new ServiceError("validation", "chat_unknown_model", { model: modelId }, { field: "model" });
  // A conversation named but not the caller's (another space's, another user's, or unknown) is a
  // 400 before anything is held or streamed, instead of an error event inside a 200 stream.
  const conversation = turn.conversationId ? await findOwnConversation(deps, { id: turn.conversationId, app: turn.app, endUserId: turn.endUserId }) : undefined;
  if (turn.conversationId && !conversation) {
    throw new ServiceError("validation", "chat_conversation_unknown", { id: turn.conversationId }, { field: "conversationId" });
  }
  const resolved = deps.models.resolve(modelId) ?? deps.models.fallback();
  // Images go only to models that read them: refused before anything is held or stored.
  const images =
    files.filter((file) => file.kind === "image").length +
    (turn.messages ?? []).reduce((sum, message) => sum + (message.role === "user" ? (message.images?.length ?? 0) : 0), 0);
  // A workflow takes files as {{sys.files}} addresses; its own nodes decide what reads them.
  if (images > 0 && turn.app.type !== "WORKFLOW" && !resolved.model.supportsImages && turn.imagesOptional) {
    deps.logger.info("images not shown to a model that does not read them", { conversationId: turn.conversationId, model: resolved.model.id });
    files = files.filter((file) => file.kind !== "image");
    if (!text && files.length === 0) throw new ServiceError("validation", "validation_failed", { field: "message", reason: "empty" }, { field: "message" });
  } else if (images > 0 && turn.app.type !== "WORKFLOW" && !resolved.model.supportsImages) {
    const field = { field: turn.messages ? "messages" : "fileIds" };
    if (resolved.model.offline) throw new ServiceError("validation", "chat_offline_images_unsupported", {}, field);
    throw new ServiceError("validation", "chat_model_images_unsupported", { model: resolved.model.id }, field);
  }
  // A prompt that cannot fit the model's context window is refused before any call is paid for.
  const promptText = turn.messages ? turn.messages.map((message) => message.content).join("\n") : text;
  if (!resolved.model.offline && estimateTokens(promptText) + estimateTokens(turn.app.settingsPrompt) > resolved.model.contextWindow) {
    throw new ServiceError("validation", "chat_model_context_length", {}, { field: turn.messages ? "messages" : "message" });
  }
  const free = creditsFor(resolved.model.id, { promptTokens: 1000, completionTokens: 1000 }) === 0;
  const limited = await checkRateLimits(deps, { appId: turn.app.id, endUserId: turn.endUserId, channel: turn.channel });
  const query = (turn.messages ? turn.text : text).trim();
  const base = { text, query, resolved, limited, conversation, hold: undefined, maxOutputTokens: undefined, files };
  if (policy.credits === "per-call") {
    // The responder's model calls hold credits call by call; the turn itself calls no model.
    if (!free && (await availableBalance(deps, turn.app.spaceId, turn.memberUserId)) <= 0)
      throw new ServiceError("insufficient_credits", "insufficient_credits");
    return base;
  }
  if (free || limited) return base;
  // Attached documents are read into the prompt (cut to the context window), images cost their estimate.
  const fileTokens = files.reduce((sum, file) => sum + (file.kind === "image" ? 0 : estimateTokens(file.textContent ?? "")), images * IMAGE_TOKENS);
  const promptTokens = Math.min(resolved.model.contextWindow, estimateTokens(promptText) + fileTokens) + estimateTokens(turn.app.settingsPrompt);
  return { ...base, ...(await holdForTurn(deps, turn, resolved.model.id, promptTokens)) };
}
