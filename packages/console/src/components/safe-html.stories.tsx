import type { Meta, StoryObj } from "@storybook/react-vite";
import { SafeHtml } from "./safe-html";

const meta = {
  title: "Components/SafeHtml",
  component: SafeHtml,
  args: {
    html: 'Your plan does not include this. <b>Upgrade</b> on the <a href="/console/price">pricing page</a>.<script>alert(1)</script>',
  },
} satisfies Meta<typeof SafeHtml>;

export default meta;
type Story = StoryObj<typeof meta>;

/** A code-440 message: formatting and the safe link survive, the script does not. */
export const ServerMessage: Story = {};
