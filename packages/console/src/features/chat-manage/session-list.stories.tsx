import type { Meta, StoryObj } from "@storybook/react-vite";
import { SessionList } from "./session-list";
import { storySession } from "./story-data";
import "./chat-manage.css";

const meta = {
  title: "Chat management/SessionList",
  component: SessionList,
  args: {
    sessions: [
      storySession("s1", { readStatus: "UNREAD", msgContent: "Can I change the delivery address?" }),
      storySession("s2", {
        senderName: "王小明",
        channelName: "WeChat service",
        channel: "wechat-official-account",
        serviceMode: "MANUAL_MODE",
        lastMessageAt: "2026-11-20T08:00:00Z",
      }),
      storySession("s3", {
        isGroup: true,
        groupName: "Parley testers",
        senderName: "Grace",
        serviceMode: "GROUP_MODE",
        msgContent: "@bot what are the opening hours?",
        lastMessageAt: "2026-11-19T08:00:00Z",
      }),
    ],
    selectedId: "s2",
    checkedIds: new Set(["s3"]),
    onSelect: () => undefined,
    onCheck: () => undefined,
  },
  decorators: [
    (Story) => (
      <div style={{ width: 360, border: "1px solid #eee" }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof SessionList>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Unread (dot, bold), the open session highlighted, a group, each with its mode. */
export const Default: Story = {};

/** More sessions on the server. */
export const WithMore: Story = { args: { hasMore: true } };

/** First load. */
export const Loading: Story = { args: { sessions: [], loading: true } };

/** Nothing matches the filters. */
export const Empty: Story = { args: { sessions: [] } };
