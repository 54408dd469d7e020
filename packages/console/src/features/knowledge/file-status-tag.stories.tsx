import type { Meta, StoryObj } from "@storybook/react-vite";
import { Flex } from "antd";
import { FileStatusTag } from "./file-status-tag";

const meta = {
  title: "Knowledge/FileStatusTag",
  component: FileStatusTag,
  args: { status: "effective" },
} satisfies Meta<typeof FileStatusTag>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Indexed and retrievable. */
export const Effective: Story = {};

/** Uploaded, waiting for the import to be confirmed. */
export const Pending: Story = { args: { status: "pending" } };

/** Being indexed: the bar follows the server's progress. */
export const Processing: Story = { args: { status: "processing", progress: 42 } };

/** Failed: hover the tag for the reason, in the interface language. */
export const Failed: Story = { args: { status: "failed", failureReason: "The PDF is password-protected" } };

/** Every state side by side, as in the file list. */
export const AllStates: Story = {
  render: () => (
    <Flex gap={24} wrap>
      <FileStatusTag status="pending" />
      <FileStatusTag status="processing" progress={70} />
      <FileStatusTag status="effective" />
      <FileStatusTag status="failed" failureReason="The document contains no text" />
    </Flex>
  ),
};
