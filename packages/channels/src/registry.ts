import type { ChannelAdapter, ChannelDescriptor, ChannelKind } from "./types";
import { adapter as wechatOfficialAccount } from "./adapters/wechat-official-account/index";
import { adapter as wechatWork } from "./adapters/wechat-work/index";
import { adapter as wechatCustomerService } from "./adapters/wechat-customer-service/index";
import { adapter as feishu } from "./adapters/feishu/index";
import { adapter as dingtalk } from "./adapters/dingtalk/index";
import { adapter as discord } from "./adapters/discord/index";
import { adapter as telegram } from "./adapters/telegram/index";
import { adapter as slack } from "./adapters/slack/index";
import { adapter as hubspot } from "./adapters/hubspot/index";
import { adapter as whatsapp } from "./adapters/whatsapp/index";

/** Every adapter, by kind. */
export const adapters: Partial<Record<ChannelKind, ChannelAdapter>> = Object.fromEntries(
  [wechatOfficialAccount, wechatWork, wechatCustomerService, feishu, dingtalk, discord, telegram, slack, hubspot, whatsapp]
    .filter((adapter): adapter is ChannelAdapter => adapter !== undefined)
    .map((adapter) => [adapter.kind, adapter]),
);

/** The adapter for `kind`, if that platform is supported. */
export function adapterFor(kind: string): ChannelAdapter | undefined {
  return (adapters as Record<string, ChannelAdapter | undefined>)[kind];
}

/** The channels catalogue: names and configuration forms of every supported platform. */
export function catalogue(): ChannelDescriptor[] {
  return Object.values(adapters).map((adapter) => adapter.descriptor);
}
