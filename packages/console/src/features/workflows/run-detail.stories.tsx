import type { Meta, StoryObj } from "@storybook/react-vite";
import { RunDetail } from "./run-detail";

const meta = {
  title: "Workflows/RunDetail",
  component: RunDetail,
  args: {
    run: {
      id: "wfr_1",
      type: "FLOW",
      status: "success",
      output: { output: "Paris is the capital of France." },
      error: null,
      startedAt: "2026-11-21T08:00:00.000Z",
      durationMs: 420,
      nodes: [
        {
          nodeId: "start",
          nodeType: "start",
          nodeName: "Start",
          status: "success",
          inputs: { query: "Capital of France?" },
          outputs: { query: "Capital of France?" },
          durationMs: 1,
        },
        {
          nodeId: "llm_1",
          nodeType: "llm",
          nodeName: "Answer",
          status: "success",
          inputs: { input: "Capital of France?" },
          outputs: { output: "Paris is the capital of France." },
          durationMs: 410,
        },
        { nodeId: "fixed_reply_1", nodeType: "fixed_reply", nodeName: "Sorry", status: "no_execution" },
        { nodeId: "end", nodeType: "end", nodeName: "End", status: "success", outputs: { output: "Paris is the capital of France." }, durationMs: 0 },
      ],
    },
  },
} satisfies Meta<typeof RunDetail>;

export default meta;
type Story = StoryObj<typeof meta>;

/** A run that ended well: the answer, then every node's state. */
export const Succeeded: Story = {};

/** A failed run: its reason, and the failing node opened with its error. */
export const Failed: Story = {
  args: {
    run: {
      id: "wfr_2",
      type: "NODE",
      status: "failure",
      error: "Node Parse (code_block_1) failed: time limit of 1000 ms exceeded",
      startedAt: "2026-11-21T08:05:00.000Z",
      durationMs: 1003,
      nodes: [
        {
          nodeId: "code_block_1",
          nodeType: "code_block",
          nodeName: "Parse",
          status: "failure",
          inputs: { text: "x" },
          error: "Time limit of 1000 ms exceeded",
          durationMs: 1000,
        },
      ],
    },
  },
};
