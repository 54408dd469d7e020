import type { Meta, StoryObj } from "@storybook/react-vite";
import { MessageAttachments, PendingFileChips } from "./attachments";
import type { AttachedFile } from "./pending-files";
import { storyFiles } from "./story-files";

const meta = {
  title: "Chat/MessageAttachments",
  component: MessageAttachments,
  args: { files: storyFiles },
  decorators: [
    (Story) => (
      <div style={{ maxWidth: 520 }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof MessageAttachments>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Images as thumbnails (click to preview), documents as chips that download. */
export const Default: Story = {};

/** The person's own message: files on the right. */
export const AlignedEnd: Story = { args: { align: "end" } };

/** The chips above the input: uploading, uploaded, refused by the server. */
export const Pending: Story = {
  render: () => (
    <div style={{ maxWidth: 520 }}>
      <PendingFileChips
        items={[
          { key: "a", name: "photo.png", sizeBytes: 1_048_576, status: "uploading" },
          { key: "b", name: "contract.pdf", sizeBytes: 912_384, status: "done", file: storyFiles[2] as AttachedFile },
          { key: "c", name: "archive.zip", sizeBytes: 40_960, status: "error", error: "This type of file cannot be sent" },
        ]}
        onRemove={() => {}}
      />
    </div>
  ),
};
