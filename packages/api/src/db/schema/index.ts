export { appReactions, apps, appTypes, rateLimitRules, thresholdConfigs } from "./apps";
export { chatFiles, conversations, creditLedger, messages, modelProviders, publicAssets, usageRecords } from "./chat";
export { externalIdentities, oauthStates, outbox, sessions, signInGrants, users, verificationCodes } from "./identity";
export { jobs, knowledgeBases, knowledgeChunks, knowledgeFeishuAuth, knowledgeFiles, knowledgeFileTypes, mediaMaterials } from "./knowledge";
export { knowledgeEvalQuestions, knowledgeEvalRuns } from "./knowledge-evaluation";
export { plugins } from "./plugins";
export { apiKeys, spaceInvitations, spaceMembers, spaceRoles, spaces, userKeys } from "./spaces";
export { webClients, webClientSessions } from "./web-clients";
export { channelClients, customers, keyValues } from "./channels";
export { hostedAccounts, hostedGroups } from "./hosting";
export { workflowNodeRuns, workflowRuns, workflows, workflowScheduleTicks } from "./workflows";
export { wechatBindings } from "./channels";
export {
  balanceAlerts,
  benefitLedger,
  cashOuts,
  checkIns,
  invitationCodes,
  invitations,
  notices,
  orders,
  orderStatuses,
  paymentEvents,
  planSettings,
  spacePlans,
} from "./billing";
export { announcementReads, announcements } from "./announcements";
export { customerTags, tagGroups, tags } from "./customers";
export { databaseFields, databases, databaseTables, databaseWriteConfirmations } from "./databases";
export { conversationTransfers, usageEndUsers, usageHourly, usageWords } from "./analysis";
export { contactRequests, templates } from "./templates";
export { listingAudiences, listingKinds, storeListings, storeSettings, storeSpaceSettings } from "./store";
export { imageTasks } from "./images";
