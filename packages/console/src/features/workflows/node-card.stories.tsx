import type { Meta, StoryObj } from "@storybook/react-vite";
import { Flex } from "antd";
import { NodeCard } from "./node-card";

const meta = {
  title: "Workflows/NodeCard",
  component: NodeCard,
  args: { id: "llm_1", type: "llm", name: "Summarise", summary: "gpt-4.1-mini" },
} satisfies Meta<typeof NodeCard>;

export default meta;
type Story = StoryObj<typeof meta>;

/** A node as placed on the canvas. */
export const Default: Story = {};

/** Selected for editing in the side panel. */
export const Selected: Story = { args: { selected: true } };

/** A problem found by the rules (the first is shown, the count of the others after it). */
export const WithIssues: Story = { args: { summary: "No model chosen", issues: ["Choose a model", "The input cannot be empty"] } };

/** Branch nodes list their branches; each has its own outgoing handle on the canvas. */
export const LogicBranch: Story = {
  args: {
    id: "logic_branch_1",
    type: "logic_branch",
    name: "Which city?",
    summary: "",
    branches: [
      { id: "b1", label: "Paris" },
      { id: "b2", label: "Tokyo" },
      { id: "else", label: "Else", isElse: true },
    ],
  },
};

/** The states a run gives each node, side by side. */
export const RunStates: Story = {
  render: () => (
    <Flex gap={24} wrap>
      <NodeCard id="start" type="start" name="Start" summary="Variables: 1" status="success" durationMs={1} />
      <NodeCard id="llm_1" type="llm" name="Answer" summary="Offline responder" status="running" />
      <NodeCard
        id="code_block_1"
        type="code_block"
        name="Parse"
        summary="JavaScript"
        status="failure"
        durationMs={1000}
        issues={["Time limit of 1000 ms exceeded"]}
      />
      <NodeCard id="fixed_reply_1" type="fixed_reply" name="Sorry" summary="Sorry, try again" status="no_execution" />
      <NodeCard id="end" type="end" name="End" summary="{{llm_1.output}}" status="success" durationMs={0} hasSourceHandle={false} />
    </Flex>
  ),
};
