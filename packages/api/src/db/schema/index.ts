export { appReactions, apps, appTypes, rateLimitRules, thresholdConfigs } from "./apps";
export { conversations, creditLedger, messages, modelProviders, usageRecords } from "./chat";
export { externalIdentities, oauthStates, outbox, sessions, signInGrants, users, verificationCodes } from "./identity";
export { plugins } from "./plugins";
export { apiKeys, spaceMembers, spaces, userKeys } from "./spaces";
