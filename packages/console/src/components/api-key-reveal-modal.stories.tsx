import type { Meta, StoryObj } from "@storybook/react-vite";
import { fn } from "storybook/test";
import { ApiKeyRevealModal } from "./api-key-reveal-modal";

const meta = {
  title: "Components/ApiKeyRevealModal",
  component: ApiKeyRevealModal,
  args: {
    // An obviously fake value: stories never carry a real secret.
    revealed: { name: "CI pipeline", key: "pk_example_0000000000000000000000000000" },
    onClose: fn(),
  },
} satisfies Meta<typeof ApiKeyRevealModal>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Right after creating a key: the one time its secret is shown. */
export const Open: Story = {};

/** Nothing to reveal: the modal is closed. */
export const Closed: Story = { args: { revealed: undefined } };
