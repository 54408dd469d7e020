import type { Meta, StoryObj } from "@storybook/react-vite";
import { NodePalette } from "./node-palette";

const meta = {
  title: "Workflows/NodePalette",
  component: NodePalette,
  args: {},
} satisfies Meta<typeof NodePalette>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The fourteen node types grouped as basic, branch and individuality; drag one onto the canvas or click it. */
export const Default: Story = {};

/** Start and end already on the canvas: they cannot be added twice. */
export const StartAndEndPlaced: Story = { args: { disabled: new Set(["start", "end"] as const) } };
