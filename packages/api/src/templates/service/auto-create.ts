import { z } from "@hono/zod-openapi";
import { ServiceError, fail } from "../../errors";
import type { Deps } from "../../kernel";
import type { Language } from "../../i18n/language";
import { appCategoryIds } from "../../apps/service/catalogue";
import { APP_LIMITS } from "../../apps/service/rules";
import { avatarDataUrl } from "./avatar";

/** The draft the model must answer, checked before anyone sees it. */
export const draftSchema = z.object({
  name: z.string().trim().min(1).max(APP_LIMITS.nameMax),
  description: z
    .string()
    .trim()
    .min(APP_LIMITS.textMinExclusive + 1)
    .max(APP_LIMITS.descriptionMax),
  settingsPrompt: z.string().trim().min(1).max(APP_LIMITS.settingsPromptMax),
  openingIntroduction: z
    .string()
    .trim()
    .min(APP_LIMITS.textMinExclusive + 1)
    .max(APP_LIMITS.openingIntroductionMax),
  category: z.enum(appCategoryIds),
  model: z.string().trim().max(APP_LIMITS.modelIdMax).optional(),
});

const instructions = (models: string[], language: Language) =>
  [
    "You design chat assistants. From the user's one-sentence description, draft an app as one JSON object with exactly these keys:",
    '"name" (at most 30 characters), "description" (one sentence, 10-200 characters), "settingsPrompt" (the system prompt, 2-6 sentences),',
    '"openingIntroduction" (a greeting followed by two or three example questions, each in square brackets like [How do I start?]),',
    `"category" (one of ${appCategoryIds.join(", ")}), "model" (one of ${models.join(", ")}).`,
    `Write the texts in ${language === "zh-CN" ? "Simplified Chinese" : "English"}. Answer with the JSON object only, no code fence.`,
  ].join("\n");

function parseDraft(answer: string): z.infer<typeof draftSchema> | undefined {
  const start = answer.indexOf("{");
  const end = answer.lastIndexOf("}");
  if (start < 0 || end <= start) return undefined;
  try {
    const parsed = draftSchema.safeParse(JSON.parse(answer.slice(start, end + 1)));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One-sentence creation: the instance's default model drafts an app's texts, category and model
 * as JSON; an unusable answer is asked for once more, then refused. Offline (no model) is refused
 * with a message that points to the templates. Nothing is stored: the person reviews and creates.
 */
export async function autoCreateApp(deps: Pick<Deps, "logger" | "models">, description: string, language: Language) {
  const text = description.trim();
  if ([...text].length < 5 || [...text].length > 500) throw fail.invalid("auto_create_description_required", "description");
  const resolved = deps.models.resolve(deps.models.defaultModelId);
  if (!resolved || resolved.model.offline) throw new ServiceError("conflict", "auto_create_offline", {}, { field: "description" });
  const models = deps.models
    .list()
    .filter((model) => !model.offline)
    .map((model) => model.id);
  for (let attempt = 0; attempt < 2; attempt++) {
    let answer = "";
    try {
      for await (const part of resolved.provider.stream({
        model: resolved.model.id,
        temperature: attempt === 0 ? 0.7 : 0.2,
        language,
        messages: [
          { role: "system", content: instructions(models, language) },
          { role: "user", content: text },
        ],
      })) {
        if (part.type === "text-delta") answer += part.text;
      }
    } catch (error) {
      deps.logger.warn("app drafting by the model failed", { error: String(error) });
      continue;
    }
    const draft = parseDraft(answer);
    if (draft) {
      const model = draft.model && models.includes(draft.model) ? draft.model : resolved.model.id;
      return { ...draft, model, avatarUrl: avatarDataUrl(draft.name) };
    }
  }
  throw new ServiceError("external", "auto_create_failed");
}

/** Avatar autoCreate: no image provider exists yet, so a deterministic SVG drawn from the name (never the default avatar). */
export function autoCreateAvatar(name: string) {
  const text = name.trim();
  if (!text || [...text].length > APP_LIMITS.nameMax) throw fail.invalid("avatar_name_required", "name");
  return { avatarUrl: avatarDataUrl(text), source: "generated" as const };
}
