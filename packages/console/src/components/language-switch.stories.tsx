import type { Meta, StoryObj } from "@storybook/react-vite";
import { LanguageSwitch } from "./language-switch";

const meta = {
  title: "Components/LanguageSwitch",
  component: LanguageSwitch,
} satisfies Meta<typeof LanguageSwitch>;

export default meta;
type Story = StoryObj<typeof meta>;

/** With the current language's name, as in the console header. */
export const WithLabel: Story = {};

/** Icon only, as in the crowded home top bar. */
export const IconOnly: Story = { args: { iconOnly: true } };
