import { fail } from "../../errors";
import { DEFAULT_FULL_TEXT_COUNT, DEFAULT_SEMANTIC_COUNT } from "../../knowledge/retrieval/search";
import { DEFAULT_APP_AVATAR, DEFAULT_APP_MODEL, isAppCategory } from "./catalogue";

/** Numeric and length limits of app settings, shared by the request schemas and the rules. */
export const APP_LIMITS = {
  nameMax: 50,
  /** Spec §5/§9: description and opening introduction must be longer than 5 characters. */
  textMinExclusive: 5,
  descriptionMax: 500,
  openingIntroductionMax: 4000,
  settingsPromptMax: 20_000,
  avatarUrlMax: 1000,
  bottomSloganMax: 20,
  noHitTextMax: 2000,
  modelIdMax: 200,
  optionalModelsMax: 20,
  boundIdsMax: 50,
  memoryTurns: { min: 0, max: 100 },
  memoryRetentionMinutes: { min: 1, max: 43_200 },
  temperature: { min: 0, max: 2 },
  retrievalLength: { min: 1, max: 128_000 },
  threshold: { min: 0, max: 1 },
  retrievalCountsTotalMax: 10,
  maxRounds: { min: 1, max: 20 },
} as const;

/** App kinds a person may create; workflows are made by the workflow editor. */
export const creatableAppTypes = ["LIGHT", "KNOWLEDGE", "AGENT"] as const;

/** Every setting of spec §3 App that a person edits. */
export interface AppSettings {
  name: string;
  description: string;
  openingIntroduction: string;
  avatarUrl: string;
  isPublic: boolean;
  category: string;
  settingsPrompt: string;
  defaultModel: string;
  optionalModels: string[];
  memoryTurns: number;
  memoryRetentionMinutes: number;
  temperature: number;
  retrievalLength: number;
  knowledgeBaseIds: string[];
  databaseIds: string[];
  retrievalMode: "semantic" | "fulltext" | "hybrid";
  similarityThreshold: number;
  semanticCount: number;
  fullTextCount: number;
  /** A rerank model of the catalogue, or null for none (issue 20). */
  rerankModel: string | null;
  /** Hits the rerank model scores below this (0–1) are dropped. */
  rerankThreshold: number;
  noHitStrategy: "default" | "fixed" | "manual";
  noHitText: string | null;
  citationEnabled: boolean;
  citationThreshold: number;
  plugins: string[];
  multiRoundThinking: boolean;
  maxRounds: number;
  pluginStrategy: "knowledge_first" | "plugin_first" | "both";
  voice: string | null;
  /** The speech model {@link voice} is a tone of; null with no voice (issue 21). */
  voiceModel: string | null;
  bottomSlogan: string | null;
}

/** Settings a new app starts from; the required texts start empty so the rules catch them. */
export function defaultAppSettings(): AppSettings {
  return {
    name: "",
    description: "",
    openingIntroduction: "",
    avatarUrl: DEFAULT_APP_AVATAR,
    isPublic: false,
    category: "",
    settingsPrompt: "",
    defaultModel: DEFAULT_APP_MODEL,
    optionalModels: [],
    memoryTurns: 10,
    memoryRetentionMinutes: 1440,
    temperature: 0.7,
    retrievalLength: 4000,
    knowledgeBaseIds: [],
    databaseIds: [],
    // Hybrid finds a passage by its words even when the embedder scores it low (decision 0010).
    retrievalMode: "hybrid",
    similarityThreshold: 0.75,
    semanticCount: DEFAULT_SEMANTIC_COUNT,
    fullTextCount: DEFAULT_FULL_TEXT_COUNT,
    rerankModel: null,
    // 0 keeps every reranked hit: rerank scores are not calibrated alike across models.
    rerankThreshold: 0,
    noHitStrategy: "default",
    noHitText: null,
    citationEnabled: true,
    citationThreshold: 0.8,
    plugins: [],
    multiRoundThinking: false,
    maxRounds: 3,
    pluginStrategy: "both",
    voice: null,
    voiceModel: null,
    bottomSlogan: null,
  };
}

const unique = (values: string[]) => [...new Set(values.map((value) => value.trim()).filter(Boolean))];

/**
 * Trims texts, turns blank optional texts into null, removes duplicate ids, and puts the
 * default model first among the optional models: the default model always counts as one of
 * the app's models, so "at least one model" holds whenever a default model is set.
 */
export function normalizeAppSettings(settings: AppSettings): AppSettings {
  const defaultModel = settings.defaultModel.trim();
  const optional = unique(settings.optionalModels);
  return {
    ...settings,
    name: settings.name.trim(),
    description: settings.description.trim(),
    openingIntroduction: settings.openingIntroduction.trim(),
    avatarUrl: settings.avatarUrl.trim(),
    category: settings.category.trim(),
    settingsPrompt: settings.settingsPrompt.trim(),
    defaultModel,
    optionalModels: defaultModel && !optional.includes(defaultModel) ? [defaultModel, ...optional] : optional,
    knowledgeBaseIds: unique(settings.knowledgeBaseIds),
    databaseIds: unique(settings.databaseIds),
    plugins: unique(settings.plugins),
    noHitText: settings.noHitText?.trim() || null,
    rerankModel: settings.rerankModel?.trim() || null,
    voice: settings.voice?.trim() || null,
    voiceModel: settings.voiceModel?.trim() || null,
    bottomSlogan: settings.bottomSlogan?.trim() || null,
  };
}

function checkRange(field: string, value: number, range: { min: number; max: number }, integer: boolean) {
  if (!Number.isFinite(value) || (integer && !Number.isInteger(value)) || value < range.min || value > range.max) {
    throw fail.invalid("app_value_range", field, { field, min: range.min, max: range.max });
  }
}

function checkLength(field: string, value: string | null, max: number) {
  if (value !== null && [...value].length > max) throw fail.invalid("app_text_too_long", field, { field, max });
}

/**
 * The rules of spec §5 App (and §5 Knowledge for retrieval counts and thresholds), checked on
 * normalized settings. Throws a validation error naming the first offending field.
 */
export function checkAppSettings(settings: AppSettings): void {
  const s = settings;
  const longEnough = (text: string) => [...text].length > APP_LIMITS.textMinExclusive;

  if (!s.name) throw fail.invalid("app_name_required", "name");
  checkLength("name", s.name, APP_LIMITS.nameMax);
  if (!s.description) throw fail.invalid("app_description_required", "description");
  if (!longEnough(s.description)) throw fail.invalid("app_description_too_short", "description");
  checkLength("description", s.description, APP_LIMITS.descriptionMax);
  if (!s.openingIntroduction) throw fail.invalid("app_opening_required", "openingIntroduction");
  if (!longEnough(s.openingIntroduction)) throw fail.invalid("app_opening_too_short", "openingIntroduction");
  checkLength("openingIntroduction", s.openingIntroduction, APP_LIMITS.openingIntroductionMax);
  if (!s.avatarUrl) throw fail.invalid("app_avatar_required", "avatarUrl");
  checkLength("avatarUrl", s.avatarUrl, APP_LIMITS.avatarUrlMax);
  if (s.isPublic && s.avatarUrl === DEFAULT_APP_AVATAR) throw fail.invalid("app_default_avatar_public", "avatarUrl");
  if (!s.category) throw fail.invalid("app_category_required", "category");
  if (!isAppCategory(s.category)) throw fail.invalid("app_category_unknown", "category");
  if (!s.settingsPrompt) throw fail.invalid("app_prompt_required", "settingsPrompt");
  checkLength("settingsPrompt", s.settingsPrompt, APP_LIMITS.settingsPromptMax);
  if (!s.defaultModel) throw fail.invalid("app_default_model_required", "defaultModel");
  checkLength("defaultModel", s.defaultModel, APP_LIMITS.modelIdMax);
  if (s.optionalModels.length === 0) throw fail.invalid("app_model_required", "optionalModels");
  if (s.optionalModels.length > APP_LIMITS.optionalModelsMax)
    throw fail.invalid("app_too_many", "optionalModels", { field: "optionalModels", max: APP_LIMITS.optionalModelsMax });
  s.optionalModels.forEach((model, index) => checkLength(`optionalModels.${index}`, model, APP_LIMITS.modelIdMax));

  checkRange("memoryTurns", s.memoryTurns, APP_LIMITS.memoryTurns, true);
  checkRange("memoryRetentionMinutes", s.memoryRetentionMinutes, APP_LIMITS.memoryRetentionMinutes, true);
  checkRange("temperature", s.temperature, APP_LIMITS.temperature, false);

  if (s.retrievalLength === 0) throw fail.invalid("app_retrieval_length_zero", "retrievalLength");
  checkRange("retrievalLength", s.retrievalLength, APP_LIMITS.retrievalLength, true);
  checkRange("similarityThreshold", s.similarityThreshold, APP_LIMITS.threshold, false);
  checkRange("semanticCount", s.semanticCount, { min: 0, max: APP_LIMITS.retrievalCountsTotalMax }, true);
  checkRange("fullTextCount", s.fullTextCount, { min: 0, max: APP_LIMITS.retrievalCountsTotalMax }, true);
  // Semantic hits take priority: the full-text count is the one that has to give way.
  if (s.semanticCount + s.fullTextCount > APP_LIMITS.retrievalCountsTotalMax) {
    throw fail.invalid("app_retrieval_counts_total", "fullTextCount", { max: APP_LIMITS.retrievalCountsTotalMax });
  }
  checkLength("rerankModel", s.rerankModel, APP_LIMITS.modelIdMax);
  checkRange("rerankThreshold", s.rerankThreshold, APP_LIMITS.threshold, false);
  checkRange("citationThreshold", s.citationThreshold, APP_LIMITS.threshold, false);
  // The citation threshold only matters while citations are shown, so only then must it be consistent.
  if (s.citationEnabled && s.citationThreshold < s.similarityThreshold) throw fail.invalid("app_citation_threshold_low", "citationThreshold");
  if (s.noHitStrategy === "fixed" && !s.noHitText) throw fail.invalid("app_no_hit_text_required", "noHitText");
  checkLength("noHitText", s.noHitText, APP_LIMITS.noHitTextMax);

  for (const field of ["knowledgeBaseIds", "databaseIds", "plugins"] as const) {
    if (s[field].length > APP_LIMITS.boundIdsMax) throw fail.invalid("app_too_many", field, { field, max: APP_LIMITS.boundIdsMax });
  }
  checkRange("maxRounds", s.maxRounds, APP_LIMITS.maxRounds, true);
  checkLength("bottomSlogan", s.bottomSlogan, APP_LIMITS.bottomSloganMax);
}
