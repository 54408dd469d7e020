import type { Meta, StoryObj } from "@storybook/react-vite";
import { CitationList } from "./citation-list";

const meta = {
  title: "Chat/CitationList",
  component: CitationList,
  args: {
    citations: [
      {
        index: 1,
        source: "store-guide",
        content: "# Shipping\n\nStandard shipping takes three to five working days; express shipping arrives the next day.",
        score: 0.82,
      },
      { index: 3, source: "faq", content: "Q: Can I return a used item?\nA: Only unused items can be returned." },
    ],
  },
  decorators: [
    (Story) => (
      <div style={{ maxWidth: 520 }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof CitationList>;

export default meta;
type Story = StoryObj<typeof meta>;

/** A semantic hit with its similarity, and a full-text-only hit without one. */
export const Sources: Story = {};
