import type { components } from "@parley/sdk";
import { useTranslation } from "react-i18next";
import { endpoints } from "../../lib/api/endpoints";
import { useSpaceQuery } from "../../lib/api/query";
import { DEFAULT_MODEL } from "./app-rules";

type Schemas = components["schemas"];
export type AppCategory = Schemas["AppCategory"];
export type Model = Schemas["Model"];

const NO_CATEGORIES: AppCategory[] = [];
const NO_MODELS: Model[] = [];

/** Categories (localized, reloaded when the language changes) and the model catalogue. */
export function useAppOptions() {
  const { i18n } = useTranslation();
  const categories = useSpaceQuery({ key: ["app-categories", i18n.language], fetch: (signal) => endpoints.appCatalogue.categories({ silent: true, signal }) });
  const models = useSpaceQuery({ key: ["models", "app-options"], fetch: (signal) => endpoints.models.list({ silent: true, signal }) });
  return { categories: categories.data ?? NO_CATEGORIES, models: models.data ?? NO_MODELS, modelsLoaded: !models.isPending };
}

/** The model a new app starts with: gpt-4.1-mini when served, else the catalogue's default. */
export function initialModel(models: Model[]): string {
  if (models.some((model) => model.id === DEFAULT_MODEL)) return DEFAULT_MODEL;
  return models.find((model) => model.default)?.id ?? models[0]?.id ?? DEFAULT_MODEL;
}

/** Select options for models, labelled with their names (and the offline responder marked). */
export function modelOptions(models: Model[], offlineLabel: string, extra: string[] = []) {
  const known = models.map((model) => ({ value: model.id, label: model.offline ? `${model.label} (${offlineLabel})` : model.label }));
  const missing = extra.filter((id) => id && !models.some((model) => model.id === id)).map((id) => ({ value: id, label: id }));
  return [...known, ...missing];
}
