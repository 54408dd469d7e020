import type { Config } from "../config";
import type { Db } from "../db/client";
import { openValue } from "../platform/sealed";
import type { SecretBox } from "../platform/secret-box";
import { modelProviders } from "../db/schema/index";
import type { Logger } from "../logger";
import { createOfflineProvider } from "../platform/llm/offline";
import type { LanguageModelProvider, ModelInfo } from "../platform/llm/types";
import { createVendorProvider, normalizeBaseUrl, type VendorSettings } from "../platform/llm/vendors";
import { createRemoteReranker } from "../platform/rerank/remote";
import type { Reranker } from "../platform/rerank/types";
import { createOpenAiTranscriber } from "../platform/transcription/openai";
import type { Transcriber } from "../platform/transcription/types";
import { createMidjourneyGenerator } from "../platform/images/midjourney";
import { createOpenAiImageGenerator } from "../platform/images/openai";
import type { ImageFormat, ImageGenerator } from "../platform/images/types";
import { createAzureSpeech } from "../platform/speech/azure";
import { createOpenAiSpeech } from "../platform/speech/openai";
import type { SpeechFormat, SpeechSynthesizer } from "../platform/speech/types";
import { type AddressPolicy, policedFetch } from "../plugins/service/network";

/** A model the catalogue can serve, with the provider that serves it. */
export interface ResolvedModel {
  provider: LanguageModelProvider;
  model: ModelInfo;
}

/** A rerank model of the catalogue: served by a provider's `POST {baseUrl}/rerank`. */
export interface RerankModelInfo {
  id: string;
  providerId: string;
  /** The provider's display name. */
  providerName: string;
}

/** A rerank model with the client that calls it. */
export interface ResolvedReranker {
  model: RerankModelInfo;
  reranker: Reranker;
}

/** A speech-to-text model of the catalogue: served by a provider's `POST {baseUrl}/audio/transcriptions`. */
export interface TranscriptionModelInfo {
  id: string;
  providerId: string;
  /** The provider's display name. */
  providerName: string;
}

/** A transcription model with the client that calls it. */
export interface ResolvedTranscriber {
  model: TranscriptionModelInfo;
  transcriber: Transcriber;
}

/** How long one transcription may take: up to the longest recording speech input accepts. */
export const TRANSCRIPTION_TIMEOUT_MS = 120_000;

/** An image model of the catalogue: drawn by a provider's image API. */
export interface ImageModelInfo {
  id: string;
  providerId: string;
  providerName: string;
  format: ImageFormat;
}

/** An image model with the client that calls it. */
export interface ResolvedImageGenerator {
  model: ImageModelInfo;
  generator: ImageGenerator;
}

/** A speech (text-to-speech) model of the catalogue, served by a provider (issue 21). */
export interface SpeechModelInfo {
  id: string;
  providerId: string;
  providerName: string;
  format: SpeechFormat;
}

/** A speech model with the client that calls it. */
export interface ResolvedSpeech {
  model: SpeechModelInfo;
  synthesizer: SpeechSynthesizer;
}

/** How long one rerank call may take: an answer waits for it, so it is kept short. */
export const RERANK_TIMEOUT_MS = 15_000;

/** How long a speech call may wait for its audio to start. */
export const SPEECH_TIMEOUT_MS = 30_000;

/** Where a provider entry comes from: environment variables or the owner's console settings. */
export type ProviderSource = "config" | "console";

/** One provider the catalogue holds, with its origin. */
export interface CatalogProvider {
  provider: LanguageModelProvider;
  name: string;
  source: ProviderSource;
}

/**
 * The models this instance can use. Reads are synchronous over a snapshot; the snapshot is
 * rebuilt from config plus the enabled `model_providers` rows by {@link ModelCatalog.reload},
 * which the provider-settings service calls after every change.
 */
export interface ModelCatalog {
  /** The configured default model id (`gpt-4.1-mini` unless PARLEY_DEFAULT_MODEL says otherwise). */
  readonly defaultModelId: string;
  /** Every servable model, the offline responder last (always present, `offline: true`). */
  list(): ModelInfo[];
  /** The provider and model for an id, or undefined when no enabled provider serves it. */
  resolve(modelId: string): ResolvedModel | undefined;
  /**
   * What the engine uses when {@link resolve} answers undefined: the offline responder, which
   * answers from knowledge hits or says that no model is configured.
   */
  fallback(): ResolvedModel;
  /** The model a request without a choice gets: the configured default when served, else the offline responder. */
  defaultModel(): ModelInfo;
  /** Providers of the current snapshot, console entries first, then config, then offline. */
  providers(): CatalogProvider[];
  /** A provider by id (`env-openai`, a row id such as `mp_…`, or `offline`). */
  provider(id: string): CatalogProvider | undefined;
  /** Rerank models of the enabled console providers, in provider order; the first provider of an id wins. */
  rerankModels(): RerankModelInfo[];
  /** The client of a rerank model, or undefined when no enabled provider serves it. */
  reranker(modelId: string): ResolvedReranker | undefined;
  /** Speech-to-text models of the enabled console providers, in provider order; the first provider of an id wins. */
  transcriptionModels(): TranscriptionModelInfo[];
  /** The client of a transcription model, or undefined when no enabled provider serves it. */
  transcriber(modelId: string): ResolvedTranscriber | undefined;
  /** Image models of the enabled console providers, in provider order; the first provider of an id wins. */
  imageModels(): ImageModelInfo[];
  /** The client of an image model, or undefined when no enabled provider serves it. */
  imageGenerator(modelId: string): ResolvedImageGenerator | undefined;
  /** Speech models of the enabled console providers, in provider order; the first provider of an id wins. */
  speechModels(): SpeechModelInfo[];
  /** The client of a speech model, or undefined when no enabled provider serves it. */
  speech(modelId: string): ResolvedSpeech | undefined;
  /** Re-reads the owner's rows and rebuilds the snapshot. */
  reload(): Promise<void>;
  /** Resolves once the first load of the owner's rows finished (failed loads keep config only). */
  ready(): Promise<void>;
}

/** What {@link createModelCatalog} needs. */
export interface ModelCatalogOptions {
  llm: Config["llm"];
  /** Without a database only config providers are served. */
  db?: Db;
  logger?: Logger;
  /** HTTP client handed to every vendor provider. */
  fetch?: typeof globalThis.fetch;
  /**
   * Address rules for providers the owner added in the console (config providers are the
   * operator's own choice and are trusted). Without it, console providers are not policed.
   */
  policy?: AddressPolicy;
  /** Opens the API keys stored sealed; without it stored keys are used as they are. */
  secrets?: SecretBox;
}

interface Snapshot {
  entries: CatalogProvider[];
  byModel: Map<string, ResolvedModel>;
  byProvider: Map<string, CatalogProvider>;
  list: ModelInfo[];
  rerankers: Map<string, ResolvedReranker>;
  transcribers: Map<string, ResolvedTranscriber>;
  imageGenerators: Map<string, ResolvedImageGenerator>;
  speech: Map<string, ResolvedSpeech>;
}

/** Resolved clients by model id, in provider order: the first provider of an id wins. */
function firstById<T extends { model: { id: string } }>(resolved: ReadonlyArray<T>): Map<string, T> {
  const byId = new Map<string, T>();
  for (const entry of resolved) if (!byId.has(entry.model.id)) byId.set(entry.model.id, entry);
  return byId;
}

function parseModels(text: string): string[] {
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string" && item.length > 0) : [];
  } catch {
    return [];
  }
}

/**
 * Builds the model catalogue from config and the owner's `model_providers` rows. When two
 * providers offer the same model id, the owner's console entries win over config (they are the
 * later, deliberate choice), and among entries of one kind the older wins.
 */
export function createModelCatalog(options: ModelCatalogOptions): ModelCatalog {
  const offline = createOfflineProvider();
  const offlineEntry: CatalogProvider = { provider: offline, name: "Offline responder", source: "config" };
  const offlineResolved: ResolvedModel = { provider: offline, model: offline.models()[0]! };
  const timeoutMs = options.llm.timeoutSeconds * 1000;
  const vendor = (settings: Omit<VendorSettings, "timeoutMs" | "fetch">) =>
    createVendorProvider({ ...settings, timeoutMs, ...(options.fetch ? { fetch: options.fetch } : {}) });
  const policed = options.policy ? policedFetch(options.policy) : undefined;
  const consoleVendor = (settings: Omit<VendorSettings, "timeoutMs" | "fetch">) =>
    createVendorProvider({ ...settings, timeoutMs, ...(options.fetch ? { fetch: options.fetch } : policed ? { fetch: policed } : {}) });

  const configEntries: CatalogProvider[] = options.llm.providers.map((entry) => ({
    provider: vendor({
      id: entry.id,
      kind: entry.kind,
      name: entry.name,
      models: entry.models,
      ...(entry.baseUrl ? { baseUrl: entry.baseUrl } : {}),
      ...(entry.apiKey ? { apiKey: entry.apiKey } : {}),
    }),
    name: entry.name,
    source: "config",
  }));

  const build = (
    consoleEntries: CatalogProvider[],
    rerankers: ReadonlyArray<ResolvedReranker> = [],
    transcribers: ReadonlyArray<ResolvedTranscriber> = [],
    imageGenerators: ReadonlyArray<ResolvedImageGenerator> = [],
    speeches: ReadonlyArray<ResolvedSpeech> = [],
  ): Snapshot => {
    const entries = [...consoleEntries, ...configEntries, offlineEntry];
    const byModel = new Map<string, ResolvedModel>();
    const byProvider = new Map<string, CatalogProvider>();
    for (const entry of entries) {
      byProvider.set(entry.provider.id, entry);
      for (const model of entry.provider.models()) {
        if (!byModel.has(model.id)) byModel.set(model.id, { provider: entry.provider, model });
      }
    }
    return {
      entries,
      byModel,
      byProvider,
      list: [...byModel.values()].map((resolved) => resolved.model),
      rerankers: firstById(rerankers),
      transcribers: firstById(transcribers),
      imageGenerators: firstById(imageGenerators),
      speech: firstById(speeches),
    };
  };

  let snapshot = build([]);
  let generation = 0;

  const reload = async () => {
    if (!options.db) return;
    const mine = ++generation;
    const rows = await options.db.select().from(modelProviders).orderBy(modelProviders.createdAt, modelProviders.id).all();
    const consoleEntries: CatalogProvider[] = [];
    const rerankers: ResolvedReranker[] = [];
    const transcribers: ResolvedTranscriber[] = [];
    const imageGenerators: ResolvedImageGenerator[] = [];
    const speeches: ResolvedSpeech[] = [];
    for (const row of rows) {
      if (!row.enabled) continue;
      try {
        const apiKey = row.apiKey ? (options.secrets ? openValue(options.secrets, row.apiKey) : row.apiKey) : undefined;
        const baseUrl = normalizeBaseUrl(row.kind, row.baseUrl ?? undefined);
        const fetchImpl = options.fetch ?? policed;
        for (const model of parseModels(row.rerankModels)) {
          if (!baseUrl) continue;
          rerankers.push({
            model: { id: model, providerId: row.id, providerName: row.name },
            reranker: createRemoteReranker({
              baseUrl,
              model,
              format: row.rerankFormat,
              timeoutMs: Math.min(RERANK_TIMEOUT_MS, timeoutMs),
              ...(apiKey ? { apiKey } : {}),
              ...(fetchImpl ? { fetch: fetchImpl } : {}),
            }),
          });
        }
        for (const model of parseModels(row.transcriptionModels)) {
          if (!baseUrl) continue;
          transcribers.push({
            model: { id: model, providerId: row.id, providerName: row.name },
            transcriber: createOpenAiTranscriber({
              baseUrl,
              model,
              timeoutMs: TRANSCRIPTION_TIMEOUT_MS,
              ...(apiKey ? { apiKey } : {}),
              ...(fetchImpl ? { fetch: fetchImpl } : {}),
            }),
          });
        }
        for (const model of parseModels(row.imageModels)) {
          // Midjourney is only ever a proxy the owner runs: it has no public address to default to.
          const imageBase = row.imageFormat === "midjourney" ? row.baseUrl?.replace(/\/+$/, "") : baseUrl;
          if (!imageBase) continue;
          const settings = { baseUrl: imageBase, model, ...(apiKey ? { apiKey } : {}), ...(fetchImpl ? { fetch: fetchImpl } : {}) };
          imageGenerators.push({
            model: { id: model, providerId: row.id, providerName: row.name, format: row.imageFormat },
            generator: row.imageFormat === "midjourney" ? createMidjourneyGenerator(settings) : createOpenAiImageGenerator(settings),
          });
        }
        for (const model of parseModels(row.speechModels)) {
          if (!baseUrl) continue;
          const common = {
            baseUrl,
            model,
            timeoutMs: Math.min(SPEECH_TIMEOUT_MS, timeoutMs),
            ...(apiKey ? { apiKey } : {}),
            ...(fetchImpl ? { fetch: fetchImpl } : {}),
          };
          speeches.push({
            model: { id: model, providerId: row.id, providerName: row.name, format: row.speechFormat },
            synthesizer: row.speechFormat === "azure" ? createAzureSpeech(common) : createOpenAiSpeech({ ...common, voices: parseModels(row.speechVoices) }),
          });
        }
        // A provider that serves only rerank, transcription, image or speech models has no chat models to offer.
        if (parseModels(row.models).length === 0) continue;
        consoleEntries.push({
          provider: consoleVendor({
            id: row.id,
            kind: row.kind,
            name: row.name,
            models: parseModels(row.models),
            ...(row.baseUrl ? { baseUrl: row.baseUrl } : {}),
            ...(row.apiKey ? { apiKey: options.secrets ? openValue(options.secrets, row.apiKey) : row.apiKey } : {}),
          }),
          name: row.name,
          source: "console",
        });
      } catch (error) {
        options.logger?.warn("model provider skipped", { providerId: row.id, reason: error instanceof Error ? error.message : String(error) });
      }
    }
    // A slower, older reload must not overwrite a newer one.
    if (mine === generation) snapshot = build(consoleEntries, rerankers, transcribers, imageGenerators, speeches);
  };

  const first = reload().catch((error: unknown) => {
    options.logger?.error("model providers could not be loaded", { reason: error instanceof Error ? error.message : String(error) });
  });

  return {
    defaultModelId: options.llm.defaultModel,
    list: () => snapshot.list,
    resolve: (modelId) => snapshot.byModel.get(modelId),
    fallback: () => offlineResolved,
    defaultModel: () => (snapshot.byModel.get(options.llm.defaultModel) ?? offlineResolved).model,
    providers: () => snapshot.entries,
    provider: (id) => snapshot.byProvider.get(id),
    rerankModels: () => [...snapshot.rerankers.values()].map((resolved) => resolved.model),
    reranker: (modelId) => snapshot.rerankers.get(modelId),
    transcriptionModels: () => [...snapshot.transcribers.values()].map((resolved) => resolved.model),
    transcriber: (modelId) => snapshot.transcribers.get(modelId),
    imageModels: () => [...snapshot.imageGenerators.values()].map((resolved) => resolved.model),
    imageGenerator: (modelId) => snapshot.imageGenerators.get(modelId),
    speechModels: () => [...snapshot.speech.values()].map((resolved) => resolved.model),
    speech: (modelId) => snapshot.speech.get(modelId),
    reload,
    ready: () => first,
  };
}
