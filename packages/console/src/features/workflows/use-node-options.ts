import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call, client } from '../../lib/api/request';
import { endpoints } from '../../lib/api/endpoints';
import { modelOptions } from '../apps/use-app-options';
import { knowledgeEndpoints } from '../../lib/api/knowledge';
import { EMPTY_OPTIONS, type NodeFormOptions } from './node-forms';

/**
 * What the node forms' pickers offer, loaded once from the SDK: models, the space's apps (not
 * workflow apps), knowledge bases, enabled plugins (custom by code, built-ins by name) and
 * channel clients. A list that fails to load stays empty; the form says so in the picker.
 */
export function useNodeOptions(): NodeFormOptions {
  const { t } = useTranslation();
  const [options, setOptions] = useState<NodeFormOptions>(EMPTY_OPTIONS);

  useEffect(() => {
    let live = true;
    const merge = (change: Partial<NodeFormOptions>) => {
      if (live) setOptions((current) => ({ ...current, ...change }));
    };
    void endpoints.models.list({ silent: true }).then((result) => {
      if (result.ok) merge({ models: modelOptions(result.data, t('workflows.form.offline')) });
    });
    void endpoints.apps.list(1, { silent: true }).then((result) => {
      if (result.ok) merge({ apps: result.data.items.filter((app) => app.type !== 'WORKFLOW').map((app) => ({ value: app.id, label: app.name })) });
    });
    void knowledgeEndpoints.list({ silent: true }).then((result) => {
      if (result.ok) merge({ knowledgeBases: result.data.map((base) => ({ value: base.id, label: base.name })) });
    });
    void Promise.all([endpoints.plugins.list({ silent: true }), endpoints.plugins.builtin({ silent: true })]).then(([custom, builtin]) => {
      const plugins = [
        ...(custom.ok ? custom.data.filter((plugin) => plugin.enabled).map((plugin) => ({ value: plugin.code, label: plugin.name })) : []),
        ...(builtin.ok ? builtin.data.filter((plugin) => plugin.available).map((plugin) => ({ value: plugin.code, label: `${plugin.name} (${t('workflows.form.builtin')})` })) : []),
      ];
      merge({ plugins });
    });
    void call({ silent: true, dedupeKey: 'workflow-channel-clients' }, (init) => client.GET('/api/v1/channel-clients', init)).then((result) => {
      if (result.ok) merge({ clients: result.data.map((item) => ({ value: item.id, label: item.name })) });
    });
    return () => {
      live = false;
    };
  }, [t]);

  return options;
}
