/** Every address of spec §2 the console answers, in one place. */
export const PATHS = {
  root: "/",
  portal: "/portal",
  portalNew: "/portalNew",
  home: "/home",
  square: "/square",
  chat: "/app/:code",
  paint: "/paint",
  templates: "/templates",
  template: "/template/:code",
  login: "/login",
  register: "/register",
  forgotPassword: "/forgot-password",
  console: "/console",
  agents: "/console/agents",
  createApp: "/console/createApp",
  agent: "/console/agent",
  integrations: "/console/Integrations",
  account: "/console/account",
  chatManage: "/console/chatManage",
  clients: "/console/clients",
  clientConfig: "/console/clients/configClient",
  webEmbedConfig: "/console/clients/config",
  analysis: "/console/analysis",
  knowledge: "/console/knowledge",
  knowledgeManage: "/console/knowledge/knowledgeManage",
  database: "/console/database",
  plugins: "/console/plugins",
  pluginDetail: "/console/plugins/detail",
  consoleTemplates: "/console/templates",
  consoleTemplate: "/console/template/:code",
  workflows: "/console/workflows",
  workflow: "/console/workflow",
  teamSpace: "/console/teamSpace",
  instance: "/console/instance",
  roleEdit: "/console/teamSpace/roleEdit",
  price: "/console/price",
  customManage: "/console/customManage",
  customerList: "/console/customManage/customerList",
  tagList: "/console/customManage/tagList",
  pluginKey: "/pluginKey",
  benefits: "/benefits",
  webAgent: "/web/agent/:clientId",
  webIframe: "/web/iframe/:clientId",
  fillForm: "/fillform",
  iframe: "/iframe",
  notFound: "/404",
  docs: "/docs",
} as const;

/** Children of /console/knowledge/knowledgeManage. */
export const KNOWLEDGE_CHILDREN = ["baseAll", "baseFile", "importFile", "retrievalFile", "evaluation", "baseSetting", "mediaResource"] as const;
/** Navigation children of /console/database. */
export const DATABASE_CHILDREN = ["preview", "tableConfig", "databaseConfig"] as const;

/** Console pages a guest may open (spec §6: price is public). */
const PUBLIC_CONSOLE_PATHS: readonly string[] = [PATHS.price];

/** Whether an address needs a signed-in user. */
export function requiresAuth(pathname: string): boolean {
  if (!isUnder(pathname, PATHS.console)) return false;
  return !PUBLIC_CONSOLE_PATHS.some((path) => isUnder(pathname, path));
}

/**
 * Portal pages are everything outside the console: there the 'please login first' warning
 * stays quiet (spec §5).
 */
export function isPortalPath(pathname: string): boolean {
  return !isUnder(pathname, PATHS.console);
}

/** Whether `pathname` is `base` itself or lies below it (segment-wise, not by prefix text). */
export function isUnder(pathname: string, base: string): boolean {
  const trimmed = base.length > 1 ? base.replace(/\/+$/, "") : base;
  return pathname === trimmed || pathname.startsWith(`${trimmed}/`);
}
