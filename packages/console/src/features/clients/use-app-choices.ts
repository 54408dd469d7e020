import { useMemo } from "react";
import { endpoints } from "../../lib/api/endpoints";
import { useSpaceQuery } from "../../lib/api/query";

/** An app a web client can be bound to. */
export interface AppChoice {
  id: string;
  name: string;
}

/** The space's apps (first page of 100) for the app picker. */
export function useAppChoices(): AppChoice[] {
  const { data } = useSpaceQuery({
    key: ["apps", "client-choices"],
    fetch: (signal) => endpoints.apps.list(1, { silent: true, dedupeKey: "client-apps", signal }),
  });
  return useMemo(() => data?.items.map((app) => ({ id: app.id, name: app.name })) ?? [], [data]);
}
