import type { Meta, StoryObj } from "@storybook/react-vite";
import { fn } from "storybook/test";
import { GuidingQuestions } from "./guiding-questions";

const meta = {
  title: "Chat/GuidingQuestions",
  component: GuidingQuestions,
  args: { questions: ["Where is my parcel?", "How do I return an item?", "Can I change the delivery address?"], onPick: fn() },
} satisfies Meta<typeof GuidingQuestions>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The questions of an opening introduction as chips. */
export const Default: Story = {};

/** While an answer streams the chips wait. */
export const Disabled: Story = { args: { disabled: true } };

/** Long questions wrap inside their chip. */
export const LongQuestion: Story = {
  args: { questions: ["What happens to my order if the parcel is lost on the way and the carrier cannot find it within two weeks?"] },
};
