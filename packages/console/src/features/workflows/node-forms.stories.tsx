import type { Meta, StoryObj } from "@storybook/react-vite";
import { useState } from "react";
import { NodeForm, type NodeFormOptions } from "./node-forms";
import { createElement, type NodeType, type WorkflowElement } from "./workflow-model";
import { checkNode } from "./workflow-rules";
import { i18n } from "../../i18n";

const options: NodeFormOptions = {
  models: [
    { value: "gpt-4.1-mini", label: "GPT-4.1 mini" },
    { value: "offline", label: "Offline responder (offline)" },
  ],
  apps: [{ value: "app_1", label: "Support bot" }],
  knowledgeBases: [{ value: "kb_1", label: "Returns policy" }],
  plugins: [{ value: "current_time", label: "Current time (built-in)" }],
  clients: [{ value: "chc_1", label: "Telegram support" }],
  databases: [],
};

/** A node form kept in state, showing the local rules' messages as the user types. */
function Editable({ type, prepare }: { type: NodeType; prepare?: (element: WorkflowElement) => void }) {
  const [element, setElement] = useState(() => {
    const created = createElement(type, { x: 0, y: 0 }, type === "llm" ? "Summarise" : type);
    prepare?.(created);
    return created;
  });
  const errors = Object.fromEntries(checkNode(element, new Set(["start", "llm_1"])).map((issue) => [issue.field ?? "", i18n.t(issue.key, issue.params ?? {})]));
  return (
    <div style={{ width: 380 }}>
      <NodeForm element={element} onChange={(config) => setElement({ ...element, config })} errors={errors} options={options} />
    </div>
  );
}

const meta = {
  title: "Workflows/NodeForm",
  component: Editable,
  args: { type: "llm" },
} satisfies Meta<typeof Editable>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The llm node: model, instructions, message and structured output; "Choose a model" until one is picked. */
export const Llm: Story = {};

/** The start node with a variable whose identifier breaks the rule and a select without options. */
export const StartWithProblems: Story = {
  args: {
    type: "start",
    prepare: (element) => {
      element.config.variables = [
        { identifier: "my-city", displayName: "City", type: "text", required: true },
        { identifier: "size", displayName: "Size", type: "select", required: false, options: [] },
      ];
    },
  },
};

/** Logic branch: branches with conditions and the else branch. */
export const LogicBranch: Story = { args: { type: "logic_branch" } };

/** Intent branch: the model classifies the text into intentions. */
export const IntentBranch: Story = { args: { type: "intent_branch" } };

/** Channel send through a robot webhook: URL and secret required. */
export const ChannelSendWebhook: Story = {
  args: {
    type: "channel_send",
    prepare: (element) => {
      element.config.mode = "webhook";
    },
  },
};

/** Code block: named inputs and JavaScript run in a sandbox. */
export const CodeBlock: Story = { args: { type: "code_block" } };

/** Timer: wait a number of seconds or until a time. */
export const Timer: Story = { args: { type: "timer" } };
