import { chatFilesMessages } from "../chat/files/messages";
import { accessMessages } from "../access/messages";
import { announcementsMessages } from "../announcements/messages";
import { analysisColumnMessages, analysisMessages } from "../analysis/messages";
import { appsMessages } from "../apps/messages";
import { voiceMessages } from "../voice/messages";
import { benefitsMessages } from "../benefits/messages";
import { channelsMessages } from "../channels/messages";
import { chatMessages } from "../chat/messages";
import { clientsMessages } from "../clients/messages";
import { creditsMessages } from "../credits/messages";
import { customersMessages } from "../customers/messages";
import { databasesMessages } from "../databases/messages";
import { remoteDatabaseMessages } from "../databases/remote/messages";
import { sqlCheckMessages } from "../databases/sql/messages";
import { hostingMessages } from "../hosting/messages";
import { identityMessages } from "../identity/messages";
import { inboxMessages } from "../inbox/messages";
import { instanceMessages } from "../instance/messages";
import { keysMessages } from "../keys/messages";
import { knowledgeMessages } from "../knowledge/messages";
import { modelsMessages } from "../models/messages";
import { paymentsMessages } from "../payments/messages";
import { plansMessages } from "../plans/messages";
import { pluginsMessages } from "../plugins/messages";
import { portableMessages } from "../portable/messages";
import { rolesMessages } from "../roles/messages";
import { spacesMessages } from "../spaces/messages";
import { speechMessages } from "../speech/messages";
import { storeMessages } from "../store/messages";
import { teamsMessages } from "../teams/messages";
import { templatesMessages } from "../templates/messages";
import { workflowsMessages } from "../workflows/messages";
import { imagesMessages } from "../images/messages";
import { filesMessages } from "../kernel/files/messages";
import { jobsMessages } from "../jobs/messages";
import type { Message } from "./define";
import { generalMessages } from "./general-messages";
import { mcpServerMessages } from "../mcp/messages";
import type { Language } from "./language";

/** Each area's catalogue by name; an id belongs to exactly one of them (a test checks). */
export const catalogues = {
  general: generalMessages,
  identity: identityMessages,
  spaces: spacesMessages,
  access: accessMessages,
  instance: instanceMessages,
  keys: keysMessages,
  apps: appsMessages,
  models: modelsMessages,
  chat: chatMessages,
  clients: clientsMessages,
  channels: channelsMessages,
  inbox: inboxMessages,
  plugins: pluginsMessages,
  portable: portableMessages,
  plans: plansMessages,
  knowledge: knowledgeMessages,
  hosting: hostingMessages,
  workflows: workflowsMessages,
  benefits: benefitsMessages,
  payments: paymentsMessages,
  teams: teamsMessages,
  credits: creditsMessages,
  roles: rolesMessages,
  announcements: announcementsMessages,
  customers: customersMessages,
  analysis: analysisMessages,
  analysisColumns: analysisColumnMessages,
  databases: databasesMessages,
  templates: templatesMessages,
  store: storeMessages,
  remoteDatabases: remoteDatabaseMessages,
  sqlCheck: sqlCheckMessages,
  speech: speechMessages,
  images: imagesMessages,
  voice: voiceMessages,
  files: filesMessages,
  jobs: jobsMessages,
  mcpServer: mcpServerMessages,
  chatFiles: chatFilesMessages,
} as const;

/** Every message Parley can show or send, in English and Chinese: the areas' catalogues in one. */
export const messages = {
  ...generalMessages,
  ...identityMessages,
  ...spacesMessages,
  ...accessMessages,
  ...instanceMessages,
  ...keysMessages,
  ...appsMessages,
  ...modelsMessages,
  ...chatMessages,
  ...clientsMessages,
  ...channelsMessages,
  ...inboxMessages,
  ...pluginsMessages,
  ...portableMessages,
  ...plansMessages,
  ...knowledgeMessages,
  ...hostingMessages,
  ...workflowsMessages,
  ...benefitsMessages,
  ...paymentsMessages,
  ...teamsMessages,
  ...creditsMessages,
  ...rolesMessages,
  ...announcementsMessages,
  ...customersMessages,
  ...analysisMessages,
  ...analysisColumnMessages,
  ...databasesMessages,
  ...templatesMessages,
  ...storeMessages,
  ...remoteDatabaseMessages,
  ...sqlCheckMessages,
  ...speechMessages,
  ...imagesMessages,
  ...jobsMessages,
  ...voiceMessages,
  ...filesMessages,
  ...mcpServerMessages,
  ...chatFilesMessages,
};

/** The id of a message: a key of {@link messages}. */
export type MessageId = keyof typeof messages;

/** The name of a thing (`thing.<name>` is a message), as `{what}` of `not_found` takes it. */
export type Thing = MessageId extends infer Id ? (Id extends `thing.${infer Name}` ? Name : never) : never;

/**
 * Parameters of a message. The value of a parameter that names a thing ({@link THING_PARAMS}:
 * `{what}`, `{resource}`, `{channel}`, `{plan}`, …) is itself translated when `thing.<value>` exists; every other value
 * (a name, a field, a user's text) is shown as given, even when it spells a thing's name.
 */
export type MessageParams = Readonly<Record<string, string | number>>;

/** The parameters whose values name a thing rather than carry a user's or a platform's text. */
const THING_PARAMS: ReadonlySet<string> = new Set(["what", "resource", "channel", "plan", "quota", "feature", "action", "state"]);

const lookup: Readonly<Record<string, Message>> = messages;

/** Whether a string read from storage or a schema issue is a known message id. */
export function isMessageId(id: string): id is MessageId {
  return Object.hasOwn(lookup, id);
}

/**
 * Renders a message in a language, filling `{name}` parameters. For services that write text
 * which is stored or sent (an e-mail, a run's failure, an export); answers are translated at
 * the edges.
 */
export function messageText(language: Language, id: MessageId, params: MessageParams = {}): string {
  return renderMessage(language, id, params);
}

/**
 * Like {@link messageText} for an id that is only known at run time (stored, or carried by a
 * schema issue): an unknown id renders as itself.
 */
export function renderMessage(language: Language, id: string, params: MessageParams = {}): string {
  const entry = isMessageId(id) ? lookup[id] : undefined;
  const template = entry ? entry[language] : id;
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) return `{${name}}`;
    const thing = THING_PARAMS.has(name) ? lookup[`thing.${value}`] : undefined;
    return thing ? thing[language] : String(value);
  });
}
