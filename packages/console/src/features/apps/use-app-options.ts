import type { components } from '@parley/sdk';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { endpoints } from '../../lib/api/endpoints';
import { DEFAULT_MODEL } from './app-rules';

type Schemas = components['schemas'];
export type AppCategory = Schemas['AppCategory'];
export type Model = Schemas['Model'];

/** Categories (localized, reloaded when the language changes) and the model catalogue. */
export function useAppOptions() {
  const { i18n } = useTranslation();
  const [categories, setCategories] = useState<AppCategory[]>([]);
  const [models, setModels] = useState<Model[]>([]);
  const [modelsLoaded, setModelsLoaded] = useState(false);

  useEffect(() => {
    let live = true;
    void endpoints.appCatalogue.categories({ silent: true }).then((result) => {
      if (live && result.ok) setCategories(result.data);
    });
    return () => {
      live = false;
    };
  }, [i18n.language]);

  useEffect(() => {
    let live = true;
    void endpoints.models.list({ silent: true }).then((result) => {
      if (!live) return;
      if (result.ok) setModels(result.data);
      if (result.ok || result.error.kind !== 'aborted') setModelsLoaded(true);
    });
    return () => {
      live = false;
    };
  }, []);

  return { categories, models, modelsLoaded };
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
