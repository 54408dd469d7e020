import { defineMessages } from "../i18n/define";

/** Messages of orders and payments. */
export const paymentsMessages = defineMessages({
  "thing.order": { en: "Order", "zh-CN": "订单" },
  payments_buyer_role: { en: "Only the space owner or an admin can buy for the space", "zh-CN": "只有空间所有者或管理员可以为空间购买" },
  payments_provider_unavailable: { en: "Payment through {provider} is not available on this instance", "zh-CN": "本实例未开通 {provider} 支付" },
  payments_plan_not_for_sale: { en: "The plan {plan} cannot be bought; contact sales", "zh-CN": "套餐 {plan} 不能直接购买，请联系销售" },
  payments_pack_unknown: { en: "There is no credit pack {pack}", "zh-CN": "没有积分包 {pack}" },
  payments_provider_failed: { en: "The payment provider refused the request: {detail}", "zh-CN": "支付服务拒绝了请求：{detail}" },
  payments_order_not_open: { en: "The order is {status} and cannot be cancelled", "zh-CN": "订单状态为 {status}，不能取消" },
  payments_order_not_refundable: {
    en: "Only a fulfilled order can be refunded; this one is {status}",
    "zh-CN": "只有已完成的订单可以退款，此订单状态为 {status}",
  },
  payments_manual_product_required: { en: "Choose a plan and period, or a number of credits", "zh-CN": "请选择套餐和周期，或填写积分数" },
  payments_notification_refused: { en: "Payment notification refused: {reason}", "zh-CN": "支付通知被拒绝：{reason}" },
});
