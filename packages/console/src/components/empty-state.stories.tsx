import { BookOutlined, PlusOutlined } from "@ant-design/icons";
import type { Meta, StoryObj } from "@storybook/react-vite";
import { Button } from "antd";
import { EmptyState } from "./empty-state";

const meta = {
  title: "Components/EmptyState",
  component: EmptyState,
  args: {
    title: "No knowledge bases yet",
    description: "Documents, Q&A, tables and websites your apps answer from.",
  },
} satisfies Meta<typeof EmptyState>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The default illustration and text. */
export const Basic: Story = {};

/** With a screen icon and a call to action, as on list pages. */
export const WithAction: Story = {
  args: {
    icon: (
      <span className="pl-coming-soon__icon">
        <BookOutlined />
      </span>
    ),
    action: (
      <Button type="primary" icon={<PlusOutlined />}>
        Create knowledge base
      </Button>
    ),
  },
};

/** Tighter spacing for tabs, tables and popovers. */
export const Compact: Story = { args: { compact: true, description: undefined } };
