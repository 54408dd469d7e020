import { defineMessages } from "../i18n/define";

/** Messages of publishing, the store, the square and the top-bar search. */
export const storeMessages = defineMessages({
  store_square_needs_team: {
    en: "The square is for team spaces: switch to a team space, or publish to the store",
    "zh-CN": "广场仅面向团队空间：请切换到团队空间，或发布到商店",
  },
  store_taken_down: {
    en: "The administrator took this listing down: {reason}. Change it and publish again",
    "zh-CN": "管理员已下架该发布：{reason}。修改后可重新发布",
  },
  store_takedown_reason_required: { en: "Give the publisher a reason for taking the listing down", "zh-CN": "请填写下架原因，发布者会看到" },
  store_query_too_long: { en: "The search text can have at most {max} characters", "zh-CN": "搜索内容最多 {max} 个字符" },
  store_owner_out_of_credits: {
    en: "This app cannot answer right now: its publisher has run out of credits. Please try again later",
    "zh-CN": "该应用暂时无法回答：发布者的积分已用完，请稍后再试",
  },
  store_guest_limit: {
    en: "You have tried this app a lot: wait {seconds} seconds, or sign in and copy it into your space",
    "zh-CN": "试用次数已达上限：请等待 {seconds} 秒，或登录后复制到自己的空间",
  },
  store_copy_suffix: { en: " (from the store)", "zh-CN": "（来自商店）" },
  "thing.store_listing": { en: "Listing", "zh-CN": "发布" },
  "thing.store_app": { en: "Store app", "zh-CN": "商店应用" },
});
