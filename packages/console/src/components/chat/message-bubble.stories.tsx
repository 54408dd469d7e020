import type { Meta, StoryObj } from "@storybook/react-vite";
import { MessageBubble } from "./message-bubble";

const meta = {
  title: "Chat/MessageBubble",
  component: MessageBubble,
  args: { appName: "Support bot", turn: { id: "1", role: "user", content: "Where is my parcel?", status: "complete" } },
  decorators: [
    (Story) => (
      <div style={{ maxWidth: 640 }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof MessageBubble>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The person's question. */
export const Question: Story = {};

/** A rendered answer: Markdown, code, math normalised from \( \), an image pulled out of the text. */
export const RichAnswer: Story = {
  args: {
    turn: {
      id: "2",
      role: "assistant",
      status: "complete",
      content: [
        "## Your parcel",
        "It is **on its way** and should arrive *tomorrow*. Track it at https://example.com/track.",
        "",
        "- Carrier: Acme Post",
        "- Weight: \\(2.5\\,kg\\)",
        "",
        "```json",
        '{ "status": "in_transit" }',
        "```",
        "",
        "![Map](https://placehold.co/240x160.png) and a clip: https://example.com/route.mp4",
      ].join("\n"),
    },
  },
};

/** Still streaming: the cursor blinks after the text so far. */
export const Streaming: Story = { args: { turn: { id: "3", role: "assistant", status: "streaming", content: "Let me look that up" } } };

/** Waiting for the first words. */
export const Thinking: Story = { args: { turn: { id: "4", role: "assistant", status: "streaming", content: "" } } };

/** A plugin ran, and the answer cites its sources. */
export const WithPluginAndCitations: Story = {
  args: {
    turn: {
      id: "5",
      role: "assistant",
      status: "complete",
      content: "It is 14:05 in Hangzhou. Returns are accepted within 30 days.",
      tools: [{ id: "t1", name: "current_time", status: "ok" }],
      citations: [{ index: 1, source: "returns-policy.md", content: "Returns within 30 days" }],
    },
  },
};

/** Code 870: points not enough, with the way to top up. */
export const PointsNotEnough: Story = {
  args: { turn: { id: "6", role: "assistant", status: "error", content: "", error: { code: 870, message: "Points not enough" } } },
};

/** Any other failure, shown inline. */
export const Failed: Story = {
  args: { turn: { id: "7", role: "assistant", status: "error", content: "Partial answer", error: { code: 502, message: "The model failed to answer" } } },
};

/** Stopped by the person. */
export const Stopped: Story = { args: { turn: { id: "8", role: "assistant", status: "stopped", content: "One, two, three" } } };

/** Where the context was deleted. */
export const ContextDivider: Story = { args: { turn: { id: "9", role: "divider", status: "complete", content: "" } } };
