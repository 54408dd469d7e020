import type { Meta, StoryObj } from "@storybook/react-vite";
import { ConversationView } from "./conversation-view";
import { storyFiles } from "../../components/chat/story-files";
import { storyMessage } from "./story-data";
import "./chat-manage.css";

const meta = {
  title: "Chat management/ConversationView",
  component: ConversationView,
  args: {
    customerName: "Ada Lovelace",
    messages: [
      storyMessage("m1", "user", "Hello, where is my parcel?"),
      storyMessage("m2", "assistant", "It left the depot this morning and arrives tomorrow.", { delivery: "sent" }),
      storyMessage("m3", "user", "Can a person check the address?"),
      storyMessage("m4", "operator", "Sure — I changed it to the new one.", { senderName: "Olga", delivery: "sent" }),
      storyMessage("m5", "operator", "Anything else I can do?", { senderName: "Olga", delivery: "pending" }),
    ],
  },
  decorators: [
    (Story) => (
      <div style={{ width: 720, height: 520, display: "flex", flexDirection: "column", border: "1px solid #eee" }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof ConversationView>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Customer, AI and a named operator; delivered and sending. */
export const Default: Story = {};

/** A reply the platform refused is shown in red with the reason. */
export const FailedDelivery: Story = {
  args: {
    messages: [
      storyMessage("m1", "user", "Are you there?"),
      storyMessage("m2", "operator", "Yes, one moment please.", { delivery: "failed", deliveryError: "The 48-hour reply window has closed" }),
    ],
  },
};

/** A customer's photo and document, and an operator's image reply. */
export const WithAttachments: Story = {
  args: {
    messages: [
      storyMessage("m1", "user", "The parcel arrived like this:", { attachments: storyFiles.slice(1, 3) }),
      storyMessage("m2", "operator", "", { senderName: "Olga", delivery: "sent", attachments: storyFiles.slice(0, 1) }),
    ],
  },
};

/** Older messages to load above. */
export const WithOlder: Story = { args: { hasMore: true } };

/** Loading the history. */
export const Loading: Story = { args: { messages: [], loading: true } };
