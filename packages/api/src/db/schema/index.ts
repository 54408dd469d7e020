export { externalIdentities, oauthStates, outbox, sessions, signInGrants, users, verificationCodes } from "./identity";
export { apiKeys, spaceMembers, spaces, userKeys } from "./spaces";
