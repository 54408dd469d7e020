import type { Deps } from "../../kernel";
import { createAlipay } from "./alipay";
import type { PaymentProvider, ProviderName } from "./port";
import { createStripe } from "./stripe";
import { createWechatPay } from "./wechat";

const built = new WeakMap<object, Map<ProviderName, PaymentProvider>>();

/** The providers this instance's configuration sets up, built once per configuration. */
export function paymentProviders(deps: Pick<Deps, "config" | "now">): Map<ProviderName, PaymentProvider> {
  let providers = built.get(deps.config);
  if (!providers) {
    const { wechat, alipay, stripe } = deps.config.payments;
    providers = new Map();
    if (wechat) providers.set("wechat", createWechatPay(wechat, deps.now));
    if (alipay) providers.set("alipay", createAlipay(alipay, deps.now));
    if (stripe) providers.set("stripe", createStripe(stripe, deps.now));
    built.set(deps.config, providers);
  }
  return providers;
}
