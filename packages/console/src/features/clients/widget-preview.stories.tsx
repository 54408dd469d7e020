import type { Meta, StoryObj } from "@storybook/react-vite";
import { WidgetPreview } from "./widget-preview";
import "./clients.css";

const meta = {
  title: "Clients/WidgetPreview",
  component: WidgetPreview,
  args: { name: "Shop assistant", welcome: "Hi! How can we help?", slogan: "Powered by Parley", position: "right", primaryColor: "#2563eb" },
  decorators: [
    (Story) => (
      <div style={{ width: 340 }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof WidgetPreview>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The default look: bottom right, blue. */
export const Default: Story = {};

/** Bottom left in green, without a slogan. */
export const LeftGreen: Story = { args: { position: "left", primaryColor: "#16a34a", slogan: "" } };

/** An invalid colour falls back to the default blue while the form shows the error. */
export const InvalidColour: Story = { args: { primaryColor: "blue" } };
