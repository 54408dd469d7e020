import type { ChatApp } from "../apps/service/index";
import type { Responder } from "./types";

/** Responders by the app type they answer for; `default` answers every other type. */
const responders = new Map<ChatApp["type"] | "default", Responder>();

/**
 * Plugs a responder in for apps of `type` (`default`: all types without their own). Called at
 * start-up by the sides that answer (the chat engine, the workflows), so the core imports none
 * of them.
 */
export function plugResponder(type: ChatApp["type"] | "default", responder: Responder): void {
  responders.set(type, responder);
}

/** The responder of an app. */
export function responderFor(app: Pick<ChatApp, "type">): Responder {
  const responder = responders.get(app.type) ?? responders.get("default");
  if (!responder) throw new Error(`no responder is plugged in for ${app.type} apps`);
  return responder;
}
