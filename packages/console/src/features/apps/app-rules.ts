/**
 * Spec §5 App and Rate limit rules as the console checks them before sending, mirroring the
 * server (which names the offending field when it refuses). Each check answers an i18n key, or
 * undefined when the value is fine, so the rules are testable without antd.
 */

/** Spec §5/§9 limits (the server's APP_LIMITS). */
export const APP_LIMITS = {
  nameMax: 50,
  /** Description and opening introduction must be longer than this. */
  textMinExclusive: 5,
  descriptionMax: 500,
  openingIntroductionMax: 4000,
  settingsPromptMax: 20_000,
  avatarUrlMax: 1000,
  bottomSloganMax: 20,
  memoryTurns: { min: 0, max: 100 },
  memoryRetentionMinutes: { min: 1, max: 43_200 },
  temperature: { min: 0, max: 2 },
  maxRounds: { min: 1, max: 20 },
  retrievalCountsTotalMax: 10,
  rateLimitCountMax: 1_000_000,
  rateLimitReplyMax: 500,
  humanizationDelayMax: 3600,
} as const;

/** The avatar every app starts with; refused when publishing to the square (spec §5). */
export const DEFAULT_APP_AVATAR = "/assets/default-app-avatar.png";
/** Spec §3/§9: the model selected by default. */
export const DEFAULT_MODEL = "gpt-4.1-mini";

const length = (value: string | null | undefined) => [...(value ?? "").trim()].length;

/** A validation message key, or undefined. */
export type RuleResult = string | undefined;

export const appRules = {
  name: (value: string | undefined): RuleResult => {
    if (length(value) === 0) return "apps.validation.nameRequired";
    if (length(value) > APP_LIMITS.nameMax) return "apps.validation.nameLong";
    return undefined;
  },
  description: (value: string | undefined): RuleResult => {
    if (length(value) === 0) return "apps.validation.descriptionRequired";
    if (length(value) <= APP_LIMITS.textMinExclusive) return "apps.validation.descriptionShort";
    if (length(value) > APP_LIMITS.descriptionMax) return "apps.validation.descriptionLong";
    return undefined;
  },
  openingIntroduction: (value: string | undefined): RuleResult => {
    if (length(value) === 0) return "apps.validation.openingRequired";
    if (length(value) <= APP_LIMITS.textMinExclusive) return "apps.validation.openingShort";
    if (length(value) > APP_LIMITS.openingIntroductionMax) return "apps.validation.openingLong";
    return undefined;
  },
  avatarUrl: (value: string | undefined, isPublic = false): RuleResult => {
    const url = (value ?? "").trim();
    if (!url) return "apps.validation.avatarRequired";
    if (isPublic && url === DEFAULT_APP_AVATAR) return "apps.validation.avatarDefaultPublic";
    if (!/^(https?:\/\/|\/(?!\/)|data:image\/(svg\+xml|png|jpeg);base64,)/.test(url)) return "apps.validation.avatarUrl";
    return undefined;
  },
  category: (value: string | undefined): RuleResult => (value ? undefined : "apps.validation.categoryRequired"),
  settingsPrompt: (value: string | undefined): RuleResult => {
    if (length(value) === 0) return "apps.validation.promptRequired";
    if (length(value) > APP_LIMITS.settingsPromptMax) return "apps.validation.promptLong";
    return undefined;
  },
  defaultModel: (value: string | undefined): RuleResult => (value ? undefined : "apps.validation.modelRequired"),
  /** The default model always counts as one of the app's models. */
  models: (defaultModel: string | undefined, optional: string[] | undefined): RuleResult =>
    defaultModel || (optional ?? []).length > 0 ? undefined : "apps.validation.modelsRequired",
  bottomSlogan: (value: string | null | undefined): RuleResult => (length(value) > APP_LIMITS.bottomSloganMax ? "apps.validation.sloganLong" : undefined),
  /** Merge reply needs a delay time (spec §5). */
  mergeDelay: (mergeReply: boolean, delay: number | null | undefined): RuleResult =>
    mergeReply && !(typeof delay === "number" && delay > 0) ? "apps.validation.mergeDelayRequired" : undefined,
};

export const rateLimitRules = {
  /** Spec §5 Rate limit: the count cannot be 0. */
  count: (value: number | null | undefined): RuleResult => {
    if (value === null || value === undefined || Number.isNaN(value)) return "apps.rateLimit.validation.countRequired";
    if (!Number.isInteger(value) || value < 1) return "apps.rateLimit.validation.countMin";
    if (value > APP_LIMITS.rateLimitCountMax) return "apps.rateLimit.validation.countMax";
    return undefined;
  },
  reply: (value: string | null | undefined): RuleResult => (length(value) > APP_LIMITS.rateLimitReplyMax ? "apps.rateLimit.validation.replyLong" : undefined),
};

/**
 * The guiding questions an opening introduction offers: the texts written in [square
 * brackets] (not Markdown links or images), as the server reads them.
 */
export function guidingQuestionsOf(opening: string): string[] {
  const questions: string[] = [];
  for (const match of opening.matchAll(/(!?)\[([^\]\n]+)\](?!\()/g)) {
    const text = (match[2] ?? "").trim();
    if (match[1] !== "!" && text && !questions.includes(text)) questions.push(text);
  }
  return questions;
}

/** Field names the server may name in a 400, mapped to the form's field paths. */
export const SERVER_FIELD_PATHS: Record<string, (string | number)[]> = {
  name: ["name"],
  description: ["description"],
  openingIntroduction: ["openingIntroduction"],
  avatarUrl: ["avatarUrl"],
  isPublic: ["isPublic"],
  category: ["category"],
  settingsPrompt: ["settingsPrompt"],
  defaultModel: ["defaultModel"],
  optionalModels: ["optionalModels"],
  memoryTurns: ["memoryTurns"],
  memoryRetentionMinutes: ["memoryRetentionMinutes"],
  temperature: ["temperature"],
  retrievalLength: ["retrievalLength"],
  knowledgeBaseIds: ["knowledgeBaseIds"],
  retrievalMode: ["retrievalMode"],
  noHitStrategy: ["noHitStrategy"],
  similarityThreshold: ["similarityThreshold"],
  semanticCount: ["semanticCount"],
  fullTextCount: ["fullTextCount"],
  rerankModel: ["rerankModel"],
  voiceModel: ["voiceModel"],
  voice: ["voice"],
  rerankThreshold: ["rerankThreshold"],
  citationThreshold: ["citationThreshold"],
  noHitText: ["noHitText"],
  plugins: ["plugins"],
  maxRounds: ["maxRounds"],
  bottomSlogan: ["bottomSlogan"],
};

/** The form path for a server field name (`optionalModels.2` → `optionalModels`), if the form has it. */
export function formPathOf(field: string | undefined): (string | number)[] | undefined {
  if (!field) return undefined;
  const direct = SERVER_FIELD_PATHS[field];
  if (direct) return direct;
  const head = field.split(".")[0] ?? "";
  if (head === "humanization" || head === "manualService" || head === "database") return field.split(".");
  return SERVER_FIELD_PATHS[head];
}
