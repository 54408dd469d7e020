import type { Meta, StoryObj } from "@storybook/react-vite";
import { PlatformCard } from "./channel-picker-page";

const meta = {
  title: "Clients/PlatformCard",
  component: PlatformCard,
  args: {
    onConnect: () => undefined,
    descriptor: {
      kind: "telegram",
      name: { en: "Telegram", "zh-CN": "Telegram" },
      fields: [],
      capabilities: { ackDeadlineMs: 10000, passiveReply: false, maxText: { unit: "chars", value: 4096 }, markdown: true, edit: true, typing: true },
    },
  },
  decorators: [
    (Story) => (
      <div style={{ width: 360 }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof PlatformCard>;

export default meta;
type Story = StoryObj<typeof meta>;

/** A platform without a reply window. */
export const Telegram: Story = {};

/** WeChat: a passive reply and a 48-hour customer-service window. */
export const WeChatOfficialAccount: Story = {
  args: {
    descriptor: {
      kind: "wechat-official-account",
      name: { en: "WeChat Official Account", "zh-CN": "微信公众号" },
      fields: [],
      capabilities: {
        ackDeadlineMs: 5000,
        passiveReply: true,
        maxText: { unit: "utf8-bytes", value: 2048 },
        replyWindow: { hours: 48 },
        markdown: false,
        edit: false,
        typing: false,
      },
    },
  },
};
