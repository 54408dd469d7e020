import type { Meta, StoryObj } from "@storybook/react-vite";
import { useState } from "react";
import { SchedulerPanel, type SchedulerActions, type SchedulerView } from "./scheduler-panel";

/** Next run times of a daily 9:00 schedule, for the story. */
const daily = (count: number) => Array.from({ length: count }, (_, index) => new Date(Date.UTC(2026, 10, 22 + index, 9)).toISOString());

const actions: SchedulerActions = {
  generate: async () => ({ cron: "0 9 * * *", nextRuns: daily(10) }),
  preview: async (cron) => (cron.trim().split(/\s+/).length === 5 ? { nextRuns: daily(10) } : { error: "Use 5 fields" }),
  save: async (cron, cronTimezone) => ({ cron, cronTimezone, cronEnabled: true, nextRuns: daily(10) }),
  clear: async () => ({ cron: "0 9 * * *", cronTimezone: "UTC", cronEnabled: false, nextRuns: [] }),
};

function Stateful({ initial }: { initial?: SchedulerView }) {
  const [scheduler, setScheduler] = useState(initial);
  return (
    <div style={{ width: 380 }}>
      <SchedulerPanel scheduler={scheduler} actions={actions} onChanged={setScheduler} />
    </div>
  );
}

const meta = {
  title: "Workflows/SchedulerPanel",
  component: Stateful,
  args: {},
} satisfies Meta<typeof Stateful>;

export default meta;
type Story = StoryObj<typeof meta>;

/** No timer yet: describe it, generate, see the next 10 runs, save. */
export const NoTimer: Story = {};

/** A running timer. */
export const Running: Story = { args: { initial: { cron: "0 9 * * *", cronTimezone: "UTC", cronEnabled: true, nextRuns: daily(10) } } };
