import { defineMessages } from "../i18n/define";

/** Messages of earned credits: check-in, invitations, creator benefits, cash-outs, adjustments and balance alerts. */
export const benefitsMessages = defineMessages({
  check_in_done: { en: "You have already checked in today", "zh-CN": "今天已经签到过了" },
  cash_out_over_balance: {
    en: "You can cash out at most {balance} from your benefits account",
    "zh-CN": "收益账户最多可提现 {balance}",
  },
  cash_out_decided: { en: "This cash-out request was already {status}", "zh-CN": "该提现申请已处理（{status}）" },
  adjustment_below_zero: {
    en: "The balance is {balance}: an adjustment cannot take it below zero",
    "zh-CN": "当前余额为 {balance}，调整后不能低于零",
  },
  adjustment_not_zero: { en: "An adjustment must add or remove at least one credit", "zh-CN": "调整额度不能为 0" },
  balance_alert_channels_required: { en: "Choose at least one way to be notified", "zh-CN": "请至少选择一种通知方式" },
  balance_alert_sms_unavailable: { en: "Text messages are not configured on this instance", "zh-CN": "本实例未配置短信服务" },
  "balance_alert.subject": { en: "Parley: credits below {threshold}", "zh-CN": "Parley：积分低于 {threshold}" },
  "balance_alert.body": {
    en: "The credits of {space} fell to {balance}, below your alert threshold of {threshold}.",
    "zh-CN": "{space} 的积分已降至 {balance}，低于您设置的提醒阈值 {threshold}。",
  },
  "thing.cash_out": { en: "Cash-out request", "zh-CN": "提现申请" },
  "thing.notice": { en: "Notice", "zh-CN": "通知" },
});
