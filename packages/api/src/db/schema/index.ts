export { appReactions, apps, appTypes, rateLimitRules, thresholdConfigs } from "./apps";
export { conversations, creditLedger, messages, modelProviders, usageRecords } from "./chat";
export { externalIdentities, oauthStates, outbox, sessions, signInGrants, users, verificationCodes } from "./identity";
export { jobs, knowledgeBases, knowledgeChunks, knowledgeFeishuAuth, knowledgeFiles, knowledgeFileTypes, mediaMaterials } from "./knowledge";
export { plugins } from "./plugins";
export { apiKeys, spaceMembers, spaces, userKeys } from "./spaces";
export { webClients, webClientSessions } from "./web-clients";
export { channelClients, customers, keyValues } from "./channels";
export { hostedAccounts, hostedGroups } from "./hosting";
