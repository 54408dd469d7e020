import type { Meta, StoryObj } from "@storybook/react-vite";
import { ChannelStatus } from "./channel-status";

const meta = {
  title: "Clients/ChannelStatus",
  component: ChannelStatus,
  args: { status: "online", lastActiveAt: "2026-11-21T10:14:00Z", configured: true },
} satisfies Meta<typeof ChannelStatus>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Configured and the last exchange with the platform succeeded. */
export const Online: Story = {};

/** Never talked to the platform, and a required field is still empty. */
export const NotConfigured: Story = { args: { status: "offline", lastActiveAt: null, configured: false } };

/** The platform refused the last call: the error stays until the next success. */
export const Failing: Story = {
  args: { status: "offline", lastError: "Unauthorized: the bot token was revoked", lastErrorAt: "2026-11-21T10:20:00Z" },
};
