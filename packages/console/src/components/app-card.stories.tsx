import type { Meta, StoryObj } from "@storybook/react-vite";
import { fn } from "storybook/test";
import { AppCard, type AppCardApp } from "./app-card";

const app: AppCardApp = {
  id: "app_01jd7w3k5q9x2m4n6p8r",
  code: "K7P2QX9MRT",
  name: "Support bot",
  type: "LIGHT",
  description: "Answers questions about orders, deliveries and returns, and hands over to a person when needed.",
  avatarUrl: "",
  isPublic: false,
  category: "customer_service",
  thumbCount: 12,
  collectCount: 3,
  thumbed: false,
  collected: true,
  createdAt: "2026-11-21T08:00:00.000Z",
  updatedAt: "2026-11-21T08:00:00.000Z",
  defaultModel: "gpt-4.1-mini",
};

const meta = {
  title: "Apps/AppCard",
  component: AppCard,
  args: {
    app,
    categoryName: "Customer service",
    onOpen: fn(),
    onChat: fn(),
    onThumb: fn(),
    onCollect: fn(),
    onCopy: fn(),
    onDelete: fn(),
  },
  decorators: [
    (Story) => (
      <div style={{ maxWidth: 380 }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof AppCard>;

export default meta;
type Story = StoryObj<typeof meta>;

/** A light app the viewer collected. */
export const LightApp: Story = {};

/** A public agent the viewer thumbed up, selected after a delete. */
export const SelectedAgent: Story = {
  args: {
    app: { ...app, code: "AGENT00001", name: "Research agent", type: "AGENT", isPublic: true, thumbed: true, thumbCount: 13, collected: false },
    selected: true,
  },
};

/** A long name and description are cut, not wrapped endlessly. */
export const LongTexts: Story = {
  args: {
    app: { ...app, code: "LONG000001", type: "KNOWLEDGE", name: "A knowledge app with a very long name that needs ellipsis", description: "x ".repeat(200) },
  },
};
