import type { ChannelKind } from "../types";
import type { PlatformFake } from "./fake";
import { startFake as wechatOfficialAccount } from "./wechat-official-account";
import { startFake as wechatWork } from "./wechat-work";
import { startFake as wechatCustomerService } from "./wechat-customer-service";
import { startFake as feishu } from "./feishu";
import { startFake as dingtalk } from "./dingtalk";
import { startFake as discord } from "./discord";
import { startFake as telegram } from "./telegram";
import { startFake as slack } from "./slack";
import { startFake as hubspot } from "./hubspot";
import { startFake as whatsapp } from "./whatsapp";

export * from "./fake";

/** Starts the local fake of a platform, where one exists. */
export const fakes: Partial<Record<ChannelKind, () => Promise<PlatformFake>>> = Object.fromEntries(
  (
    [
      ["wechat-official-account", wechatOfficialAccount],
      ["wechat-work", wechatWork],
      ["wechat-customer-service", wechatCustomerService],
      ["feishu", feishu],
      ["dingtalk", dingtalk],
      ["discord", discord],
      ["telegram", telegram],
      ["slack", slack],
      ["hubspot", hubspot],
      ["whatsapp", whatsapp],
    ] as const
  ).filter((entry) => entry[1] !== undefined),
);
export { startOfficialAccountFake, type FakeTemplateMessage, type OfficialAccountFake, type OfficialAccountFakeOptions } from "./wechat-official-account";
export { startWecomFake, type WecomFake } from "./wechat-work";
export { WecomCustomerDesk, type FakeWecomContact } from "./wecom-customers";
export { OfficialAccountUserDesk, type FakeFollower } from "./official-account-users";
