import { apiAccessApps, appCatalogueEndpoints, appEndpoints } from "./apps";
import { authEndpoints } from "./auth";
import { billingEndpoints } from "./billing";
import { chatEndpoints } from "./chat";
import { instanceEndpoints, outbox, privileges } from "./instance";
import { meEndpoints } from "./me";
import { modelEndpoints } from "./models";
import { pluginEndpoints } from "./plugins";
import { spaceEndpoints } from "./spaces";
import { teamEndpoints } from "./team";
import { userKeyEndpoints } from "./user-keys";

export type { Attribution } from "./auth";
export type { InstanceListQuery } from "./instance";

/**
 * Every call the console shell makes, one file per area beside this one; request and answer
 * types come from the contract. (Knowledge, workflows, the inbox and the clients have their own
 * maps in lib/api.)
 */
export const endpoints = {
  auth: authEndpoints,
  me: meEndpoints,
  apps: appEndpoints,
  appCatalogue: appCatalogueEndpoints,
  chat: chatEndpoints,
  spaces: spaceEndpoints,
  instance: instanceEndpoints,
  outbox,
  privileges,
  plugins: pluginEndpoints,
  models: modelEndpoints,
  userKeys: userKeyEndpoints,
  billing: billingEndpoints,
  apiAccessApps,
  team: teamEndpoints,
};
