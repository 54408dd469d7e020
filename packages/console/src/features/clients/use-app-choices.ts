import { useEffect, useState } from 'react';
import { endpoints } from '../../lib/api/endpoints';

/** An app a web client can be bound to. */
export interface AppChoice {
  id: string;
  name: string;
}

/** The space's apps (first page of 100) for the app picker. */
export function useAppChoices() {
  const [apps, setApps] = useState<AppChoice[]>([]);
  useEffect(() => {
    let live = true;
    void endpoints.apps.list(1, { silent: true, dedupeKey: 'client-apps' }).then((result) => {
      if (live && result.ok) setApps(result.data.items.map((app) => ({ id: app.id, name: app.name })));
    });
    return () => {
      live = false;
    };
  }, []);
  return apps;
}
