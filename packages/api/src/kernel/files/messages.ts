import { defineMessages } from "../../i18n/define";

/** Messages of the file store: what a request hears when stored files cannot be reached. */
export const filesMessages = defineMessages({
  file_store_unavailable: {
    en: "File storage is unavailable right now; try again shortly",
    "zh-CN": "文件存储暂时不可用，请稍后再试",
  },
});
