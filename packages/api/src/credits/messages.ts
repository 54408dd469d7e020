import { defineMessages } from "../i18n/define";

/** Messages of enterprise credits: members' allocations and the space's balance. */
export const creditsMessages = defineMessages({
  credits_team_only: { en: "Enterprise credits belong to team spaces", "zh-CN": "企业积分仅适用于团队空间" },
  credits_owner_allocation: {
    en: "The owner spends the space's unallocated credits and has no allocation",
    "zh-CN": "所有者直接使用空间未分配的积分，不能为其分配积分",
  },
  credits_own_allocation: { en: "You cannot change your own allocation", "zh-CN": "不能修改自己的积分分配" },
  credits_allocation_over_balance: {
    en: "Not enough unallocated credits: at most {available} can be allocated to this member",
    "zh-CN": "未分配的积分不足：最多可为该成员分配 {available} 积分",
  },
  "thing.credit_member": { en: "Member", "zh-CN": "成员" },
});
