import type { Meta, StoryObj } from "@storybook/react-vite";
import { VerificationCodeButton } from "./verification-code-button";

const meta = {
  title: "Components/VerificationCodeButton",
  component: VerificationCodeButton,
  args: { onSend: async (): Promise<number | undefined> => 60 },
} satisfies Meta<typeof VerificationCodeButton>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Sending succeeds; the server asks for 60 s before a resend. */
export const Sends: Story = {};

/** Sending fails; the button is usable again at once. */
export const Fails: Story = { args: { onSend: async () => undefined } };
