import type { z } from "@hono/zod-openapi";
import { expect } from "vitest";
import type { ChatEvent } from "../chat/events";
import { expectOk } from "../testing/flows";
import type { TestContext, TestUser } from "../testing/harness";
import { importResultSchema } from "./schemas";

/** Exports through the API and answers the response (YAML or zip). */
export function exportVia(ctx: TestContext, user: TestUser, body: Record<string, unknown>) {
  return ctx.request("/api/v1/portable/export", { method: "POST", token: user.token, json: body });
}

/** Imports a file through the API as the console sends it (multipart). */
export function importVia(
  ctx: TestContext,
  user: TestUser,
  file: Uint8Array | string,
  options: { secrets?: Record<string, string>; dryRun?: boolean; fileName?: string } = {},
) {
  const form = new FormData();
  const bytes = typeof file === "string" ? new TextEncoder().encode(file) : file;
  form.append("file", new File([new Uint8Array(bytes)], options.fileName ?? "parley.yaml"));
  if (options.secrets) form.append("secrets", JSON.stringify(options.secrets));
  if (options.dryRun) form.append("dryRun", "true");
  return ctx.request("/api/v1/portable/import", { method: "POST", token: user.token, body: form });
}

/** Imports and expects success. */
export async function importOk(
  ctx: TestContext,
  user: TestUser,
  file: Uint8Array | string,
  options: { secrets?: Record<string, string>; dryRun?: boolean } = {},
): Promise<z.infer<typeof importResultSchema>> {
  return expectOk(await importVia(ctx, user, file, options), 200, importResultSchema);
}

/** Asks an app a question and answers the streamed events. */
export async function askVia(ctx: TestContext, user: TestUser, appCode: string, message: string): Promise<ChatEvent[]> {
  const response = await ctx.request("/api/v1/chat/stream", { method: "POST", token: user.token, json: { appCode, message } });
  expect(response.status).toBe(200);
  const events: ChatEvent[] = [];
  for (const block of (await response.text()).split("\n\n")) {
    const data = /^data: (.+)$/m.exec(block)?.[1];
    if (data) events.push(JSON.parse(data) as ChatEvent);
  }
  return events;
}

/** The answer text of streamed events. */
export const answerOf = (events: ChatEvent[]) => events.flatMap((event) => (event.type === "text-delta" ? [event.text] : [])).join("");

/** The citations of streamed events, without ids that differ between instances. */
export const citationsOf = (events: ChatEvent[]) =>
  events.flatMap((event) => (event.type === "citation" ? [{ index: event.index, source: event.source, content: event.content, score: event.score }] : []));
