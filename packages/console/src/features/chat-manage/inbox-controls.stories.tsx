import type { Meta, StoryObj } from "@storybook/react-vite";
import { Flex } from "antd";
import { ExportModal } from "./export-modal";
import { ModeBadge } from "./mode-badge";
import { ReplyBox } from "./reply-box";
import "./chat-manage.css";

const meta = {
  title: "Chat management/Controls",
  component: ReplyBox,
  args: { onSend: async () => true, takesOver: true },
  decorators: [
    (Story) => (
      <div style={{ width: 640, border: "1px solid #eee" }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof ReplyBox>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The operator's reply box while the AI runs the session (sending takes over). */
export const Reply: Story = {};

/** The reply box once an operator has the session. */
export const ReplyManual: Story = { args: { takesOver: false } };

/** The three service modes. */
export const ModeBadges: Story = {
  render: () => (
    <Flex gap={8} style={{ padding: 12 }}>
      <ModeBadge mode="FULL_AUTO_MODE" />
      <ModeBadge mode="MANUAL_MODE" />
      <ModeBadge mode="GROUP_MODE" />
    </Flex>
  ),
};

/** Export of ticked sessions over a range of days (checked like the server on Download). */
export const Export: Story = {
  render: () => <ExportModal open sessionIds={["s1", "s2", "s3"]} onClose={() => undefined} onExport={async () => true} />,
};
