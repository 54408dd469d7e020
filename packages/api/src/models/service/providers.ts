import { eq } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { newId } from "../../crypto";
import { modelProviders, users } from "../../db/schema/index";
import { fail, ServiceError } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import { type LanguageModelProvider, ModelError } from "../../platform/llm/types";
import { createVendorProvider } from "../../platform/llm/vendors";
import { openValue, sealValue } from "../../platform/sealed";
import type { SecretBox } from "../../platform/secret-box";
import { outboundPolicy, policedFetch } from "../../plugins/service/network";
import type { createModelProviderBody, modelProviderSchema, providerTestSchema, updateModelProviderBody } from "../schemas";

type ProviderView = z.infer<typeof modelProviderSchema>;
type Row = typeof modelProviders.$inferSelect;

/** Only the instance owner manages model providers. */
export async function requireInstanceOwner(deps: Pick<Deps, "db">, auth: Pick<Auth, "userId">): Promise<void> {
  const user = await deps.db.select({ owner: users.isInstanceOwner }).from(users).where(eq(users.id, auth.userId)).get();
  if (!user?.owner) throw fail.forbidden("owner_only");
}

/**
 * A hint that tells stored keys apart without revealing them: the first three and last four
 * characters of keys of 12 or more characters (`sk-…9f2c`), else only asterisks.
 */
export function maskApiKey(key: string): string {
  return key.length >= 12 ? `${key.slice(0, 3)}…${key.slice(-4)}` : "****";
}

function parseModels(text: string): string[] {
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
  } catch {
    return [];
  }
}

function rowView(box: SecretBox, stored: Row): ProviderView {
  const row = { ...stored, apiKey: stored.apiKey ? openValue(box, stored.apiKey) : null };
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    baseUrl: row.baseUrl,
    hasApiKey: !!row.apiKey,
    apiKeyHint: row.apiKey ? maskApiKey(row.apiKey) : null,
    models: parseModels(row.models),
    rerankModels: parseModels(row.rerankModels),
    rerankFormat: row.rerankFormat,
    transcriptionModels: parseModels(row.transcriptionModels),
    imageModels: parseModels(row.imageModels),
    imageFormat: row.imageFormat,
    speechModels: parseModels(row.speechModels),
    speechFormat: row.speechFormat,
    speechVoices: parseModels(row.speechVoices),
    enabled: row.enabled,
    source: "console",
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

const unique = (ids: readonly string[]) => [...new Set(ids.map((id) => id.trim()).filter(Boolean))];

// A rerank-only server (TEI started with a reranker) is a provider too, but one with neither serves nothing.
function checkHasModels(...lists: ReadonlyArray<readonly string[]>) {
  if (lists.every((list) => unique(list).length === 0)) {
    throw fail.invalid("validation_failed", "models", { field: "models", reason: "list at least one chat, rerank, transcription, image or speech model" });
  }
}

// A midjourney-proxy is always the owner's own server: there is no public address to fall back to.
function checkImageAddress(format: "openai" | "midjourney", imageModels: readonly string[], baseUrl: string | null | undefined) {
  if (format === "midjourney" && unique(imageModels).length > 0 && !baseUrl) {
    throw fail.invalid("validation_failed", "baseUrl", { field: "baseUrl", reason: "required for a midjourney-proxy image provider" });
  }
}

function readOnly(): ServiceError {
  return new ServiceError(
    "conflict",
    "validation_failed",
    { field: "id", reason: "this provider is set by environment variables; change them and restart" },
    { field: "id" },
  );
}

/** Console entries (oldest first), then the read-only entries set by environment variables. */
export async function listModelProviders(deps: Pick<Deps, "config" | "db" | "secrets">): Promise<ProviderView[]> {
  const rows = await deps.db.select().from(modelProviders).orderBy(modelProviders.createdAt, modelProviders.id).all();
  const fromConfig: ProviderView[] = deps.config.llm.providers.map((entry) => ({
    id: entry.id,
    kind: entry.kind,
    name: entry.name,
    baseUrl: entry.baseUrl ?? null,
    hasApiKey: !!entry.apiKey,
    apiKeyHint: entry.apiKey ? maskApiKey(entry.apiKey) : null,
    models: entry.models,
    rerankModels: [],
    rerankFormat: "cohere" as const,
    transcriptionModels: [],
    imageModels: [],
    imageFormat: "openai" as const,
    speechModels: [],
    speechFormat: "openai" as const,
    speechVoices: [],
    enabled: true,
    source: "config",
    createdAt: null,
    updatedAt: null,
  }));
  return [...rows.map((row) => rowView(deps.secrets, row)), ...fromConfig];
}

/** Adds a provider and rebuilds the catalogue. An OpenAI-compatible provider needs a base URL. */
export async function createModelProvider(
  deps: Pick<Deps, "db" | "models" | "now" | "secrets">,
  input: z.infer<typeof createModelProviderBody>,
): Promise<ProviderView> {
  if (input.kind === "openai-compatible" && !input.baseUrl) {
    throw fail.invalid("validation_failed", "baseUrl", { field: "baseUrl", reason: "required for openai-compatible providers" });
  }
  checkHasModels(input.models, input.rerankModels, input.transcriptionModels, input.imageModels, input.speechModels);
  checkImageAddress(input.imageFormat, input.imageModels, input.baseUrl);
  const now = deps.now().toISOString();
  const row: Row = {
    id: newId("mp"),
    kind: input.kind,
    name: input.name,
    baseUrl: input.baseUrl?.replace(/\/+$/, "") ?? null,
    apiKey: input.apiKey ? sealValue(deps.secrets, input.apiKey) : null,
    models: JSON.stringify(unique(input.models)),
    rerankModels: JSON.stringify(unique(input.rerankModels)),
    rerankFormat: input.rerankFormat,
    transcriptionModels: JSON.stringify(unique(input.transcriptionModels)),
    imageModels: JSON.stringify(unique(input.imageModels)),
    imageFormat: input.imageFormat,
    speechModels: JSON.stringify(unique(input.speechModels)),
    speechFormat: input.speechFormat,
    speechVoices: JSON.stringify(unique(input.speechVoices)),
    enabled: input.enabled,
    createdAt: now,
    updatedAt: now,
  };
  await deps.db.insert(modelProviders).values(row);
  await deps.models.reload();
  return rowView(deps.secrets, row);
}

async function findRow(deps: Pick<Deps, "config" | "db">, id: string): Promise<Row> {
  if (id.startsWith("env-") && deps.config.llm.providers.some((entry) => entry.id === id)) throw readOnly();
  const row = await deps.db.select().from(modelProviders).where(eq(modelProviders.id, id)).get();
  if (!row) throw fail.notFound("model_provider");
  return row;
}

/** The key to store: its hint sent back keeps the stored key, a new one is sealed, null removes it. */
function nextApiKey(box: SecretBox, stored: string | null, sent: string | null): string | null {
  if (sent === null) return null;
  if (stored && sent === maskApiKey(openValue(box, stored))) return stored;
  return sealValue(box, sent);
}

/** Changes a console provider; an absent field stays, `apiKey: null` removes the key. */
export async function updateModelProvider(
  deps: Pick<Deps, "config" | "db" | "models" | "now" | "secrets">,
  id: string,
  input: z.infer<typeof updateModelProviderBody>,
): Promise<ProviderView> {
  const row = await findRow(deps, id);
  const next: Row = {
    ...row,
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.baseUrl !== undefined ? { baseUrl: input.baseUrl?.replace(/\/+$/, "") ?? null } : {}),
    ...(input.apiKey !== undefined ? { apiKey: nextApiKey(deps.secrets, row.apiKey, input.apiKey) } : {}),
    ...(input.models !== undefined ? { models: JSON.stringify(unique(input.models)) } : {}),
    ...(input.rerankModels !== undefined ? { rerankModels: JSON.stringify(unique(input.rerankModels)) } : {}),
    ...(input.rerankFormat !== undefined ? { rerankFormat: input.rerankFormat } : {}),
    ...(input.transcriptionModels !== undefined ? { transcriptionModels: JSON.stringify(unique(input.transcriptionModels)) } : {}),
    ...(input.imageModels !== undefined ? { imageModels: JSON.stringify(unique(input.imageModels)) } : {}),
    ...(input.imageFormat !== undefined ? { imageFormat: input.imageFormat } : {}),
    ...(input.speechModels !== undefined ? { speechModels: JSON.stringify(unique(input.speechModels)) } : {}),
    ...(input.speechFormat !== undefined ? { speechFormat: input.speechFormat } : {}),
    ...(input.speechVoices !== undefined ? { speechVoices: JSON.stringify(unique(input.speechVoices)) } : {}),
    ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
    updatedAt: deps.now().toISOString(),
  };
  if (next.kind === "openai-compatible" && !next.baseUrl) {
    throw fail.invalid("validation_failed", "baseUrl", { field: "baseUrl", reason: "required for openai-compatible providers" });
  }
  checkHasModels(
    parseModels(next.models),
    parseModels(next.rerankModels),
    parseModels(next.transcriptionModels),
    parseModels(next.imageModels),
    parseModels(next.speechModels),
  );
  checkImageAddress(next.imageFormat, parseModels(next.imageModels), next.baseUrl);
  await deps.db
    .update(modelProviders)
    .set({
      name: next.name,
      baseUrl: next.baseUrl,
      apiKey: next.apiKey,
      models: next.models,
      rerankModels: next.rerankModels,
      rerankFormat: next.rerankFormat,
      transcriptionModels: next.transcriptionModels,
      imageModels: next.imageModels,
      imageFormat: next.imageFormat,
      speechModels: next.speechModels,
      speechFormat: next.speechFormat,
      speechVoices: next.speechVoices,
      enabled: next.enabled,
      updatedAt: next.updatedAt,
    })
    .where(eq(modelProviders.id, id));
  await deps.models.reload();
  return rowView(deps.secrets, next);
}

/** Removes a console provider; its models leave the catalogue at once. */
export async function deleteModelProvider(deps: Pick<Deps, "config" | "db" | "models">, id: string): Promise<{ deleted: true }> {
  await findRow(deps, id);
  await deps.db.delete(modelProviders).where(eq(modelProviders.id, id));
  await deps.models.reload();
  return { deleted: true as const };
}

const TEST_TIMEOUT_MS = 20_000;

/**
 * Sends a tiny request ("reply with pong", at most 16 tokens) to a provider — a console entry
 * (even disabled) or a config entry — and reports whether it answered, how fast, and why not.
 */
export async function testModelProvider(
  deps: Pick<Deps, "config" | "db" | "logger" | "models" | "secrets">,
  id: string,
  model?: string,
): Promise<z.infer<typeof providerTestSchema>> {
  let provider: LanguageModelProvider;
  let models: string[];
  const configured = deps.config.llm.providers.find((entry) => entry.id === id);
  if (configured) {
    const entry = deps.models.provider(id);
    if (!entry) throw fail.notFound("model_provider");
    provider = entry.provider;
    models = configured.models;
  } else {
    const row = await deps.db.select().from(modelProviders).where(eq(modelProviders.id, id)).get();
    if (!row) throw fail.notFound("model_provider");
    models = parseModels(row.models);
    provider = createVendorProvider({
      id: row.id,
      kind: row.kind,
      name: row.name,
      models,
      ...(row.baseUrl ? { baseUrl: row.baseUrl } : {}),
      ...(row.apiKey ? { apiKey: openValue(deps.secrets, row.apiKey) } : {}),
      timeoutMs: Math.min(TEST_TIMEOUT_MS, deps.config.llm.timeoutSeconds * 1000),
      // The owner typed this base URL: it follows the instance's address rules.
      fetch: policedFetch(outboundPolicy(deps.config)),
    });
  }
  const target = model ?? models[0];
  if (!target) throw fail.invalid("validation_failed", "model", { field: "model", reason: "the provider lists no model" });
  const started = performance.now();
  let reply = "";
  try {
    for await (const part of provider.stream({
      model: target,
      messages: [{ role: "user", content: "Reply with the single word: pong" }],
      maxOutputTokens: 16,
      temperature: 0,
      signal: AbortSignal.timeout(TEST_TIMEOUT_MS),
    })) {
      if (part.type === "text-delta") reply += part.text;
    }
    return { ok: true, model: target, latencyMs: Math.round(performance.now() - started), reply: reply.slice(0, 200), error: null };
  } catch (error) {
    const failure = error instanceof ModelError ? error : new ModelError("unavailable", error instanceof Error ? error.message : String(error));
    deps.logger.info("model provider test failed", { providerId: id, model: target, kind: failure.kind, status: failure.details.status });
    return {
      ok: false,
      model: target,
      latencyMs: Math.round(performance.now() - started),
      reply: reply ? reply.slice(0, 200) : null,
      error: { kind: failure.kind, message: failure.message, status: failure.details.status ?? null },
    };
  }
}
