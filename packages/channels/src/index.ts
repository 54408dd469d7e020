export * from "./types";
export { createTokenCache, measure, memoryIO, memoryKeyValueStore, readInbound, splitText, TOKEN_REFRESH_MARGIN_SECONDS } from "./runtime";
export { safeEqual } from "./crypto";
export { readBodyUpTo } from "./adapters/global-shared/media";
export { adapters, catalogue, adapterFor } from "./registry";
export { sendOfficialAccountNotice, type OfficialAccountNotice, type OfficialAccountNoticeResult } from "./adapters/wechat-official-account/index";
export {
  createWecomCorpTag,
  deleteWecomCorpTags,
  markWecomTags,
  renameWecomCorpTag,
  wecomContacts,
  type WecomContact,
} from "./adapters/wechat-work/contacts";
export {
  createOfficialAccountTag,
  deleteOfficialAccountTag,
  officialAccountUsers,
  renameOfficialAccountTag,
  tagOfficialAccountUsers,
  type OfficialAccountUser,
} from "./adapters/wechat-official-account/users";
