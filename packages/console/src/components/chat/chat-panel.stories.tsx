import type { Meta, StoryObj } from "@storybook/react-vite";
import { Select } from "antd";
import { useState } from "react";
import { fn } from "storybook/test";
import type { ChatTurn } from "./chat-state";
import { ChatPanel } from "./chat-panel";
import { storyFiles } from "./story-files";

const opening = "Hi! I am **Support bot**. I can help with orders and returns.";
const questions = ["Where is my parcel?", "How do I return an item?"];

const meta = {
  title: "Chat/ChatPanel",
  component: ChatPanel,
  args: {
    appName: "Support bot",
    openingText: opening,
    guidingQuestions: questions,
    turns: [],
    streaming: false,
    onSend: fn(),
    onStop: fn(),
    onClearContext: fn(),
    testIdPrefix: "preview",
  },
  decorators: [
    (Story) => (
      <div style={{ height: 560, maxWidth: 460, border: "1px solid #e7e9f2", borderRadius: 12, overflow: "hidden" }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof ChatPanel>;

export default meta;
type Story = StoryObj<typeof meta>;

/** A fresh chat: the opening text and its guiding questions. */
export const Opening: Story = {};

const conversation: ChatTurn[] = [
  { id: "1", role: "user", content: "Where is my parcel?", status: "complete" },
  { id: "2", role: "assistant", content: "It is **on its way** and arrives tomorrow.", status: "complete" },
  { id: "3", role: "user", content: "And the return policy?", status: "complete" },
  { id: "4", role: "assistant", content: "Returns are accepted within", status: "streaming" },
];

/** An answer streaming in: Stop replaces Send. */
export const Streaming: Story = { args: { turns: conversation, streaming: true } };

/** With a header, a model switcher and the bottom slogan. */
export const WithHeaderAndSlogan: Story = {
  args: {
    turns: conversation.slice(0, 2),
    header: <strong>Preview</strong>,
    toolbar: <Select size="small" defaultValue="gpt-4.1-mini" options={[{ value: "gpt-4.1-mini" }, { value: "gpt-4.1" }]} />,
    footer: "Powered by Acme",
  },
};

/** Interactive: sending appends a canned answer. */
export const Interactive: Story = {
  render: (args) => {
    const [turns, setTurns] = useState<ChatTurn[]>([]);
    return (
      <ChatPanel
        {...args}
        turns={turns}
        onSend={(text) =>
          setTurns((current) => [
            ...current,
            { id: `${current.length}-q`, role: "user", content: text, status: "complete" },
            { id: `${current.length}-a`, role: "assistant", content: `You said: *${text}*`, status: "complete" },
          ])
        }
        onClearContext={() => setTurns((current) => [...current, { id: `${current.length}-d`, role: "divider", content: "", status: "complete" }])}
      />
    );
  },
};

/** Files: the person's message with an image and a document, and chips waiting above the input. */
export const WithFiles: Story = {
  args: {
    turns: [
      { id: "1", role: "user", content: "What does this receipt say?", status: "complete", attachments: storyFiles.slice(0, 1) },
      { id: "2", role: "assistant", content: "It is a receipt for **two parcels**, paid on 3 March.", status: "complete" },
      { id: "3", role: "user", content: "", status: "complete", attachments: storyFiles.slice(2, 4) },
    ],
    files: {
      items: [
        { key: "a", name: "photo.png", sizeBytes: 1_048_576, status: "uploading" },
        { key: "b", name: "archive.zip", sizeBytes: 40_960, status: "error", error: "This type of file cannot be sent" },
      ],
      add: fn(),
      remove: fn(),
      clear: fn(),
    },
  },
};
