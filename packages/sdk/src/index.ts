export { createClient } from "./client";
export type {
  CallOptions,
  ChatEvent,
  ChatRequest,
  ClientMethod,
  ClientOptions,
  EnvelopeData,
  ParleyClient,
  ParleyResult,
  StreamOptions,
} from "./client";
export {
  ParleyError,
  isHtmlMessage,
  isInsufficientCredits,
  isSessionEnded,
  isUpgradeRequired,
} from "./errors";
export type { ParleyErrorDetails, ParleyErrorKind } from "./errors";
export { parseEventStream } from "./stream";
export { playAudioStream } from "./audio";
export type { ServerSentEvent } from "./stream";
export type { components, operations, paths } from "./generated/schema";
