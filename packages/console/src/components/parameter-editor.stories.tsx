import type { Meta, StoryObj } from "@storybook/react-vite";
import { useState } from "react";
import { fromApi, type EditableParameter } from "./parameters";
import { ParameterEditor, type ParameterEditorProps } from "./parameter-editor";

function Stateful(props: Omit<ParameterEditorProps, "value" | "onChange"> & { initial: EditableParameter[] }) {
  const { initial, ...rest } = props;
  const [value, setValue] = useState(initial);
  return <ParameterEditor {...rest} value={value} onChange={setValue} />;
}

const sample = () =>
  fromApi([
    { name: "city", type: "string", description: "City name, e.g. Hangzhou", required: true, location: "query" },
    { name: "days", type: "integer", description: "Forecast days", required: false, default: 3 },
    {
      name: "filter",
      type: "object",
      description: "Optional filter",
      required: false,
      children: [
        { name: "metric", type: "boolean", description: "Metric units", required: false, default: true },
        { name: "metric", type: "string", description: "Duplicate on purpose", required: false },
      ],
    },
    { name: "max-results", type: "integer", description: "Broken name on purpose", required: false },
  ]);

const meta = {
  title: "Components/ParameterEditor",
  component: Stateful,
  args: { initial: sample(), base: "requestParams", showLocation: true, testIdPrefix: "request-param" },
} satisfies Meta<typeof Stateful>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Request parameters with nested children; the §5 naming rule flags the broken and duplicate names. */
export const RequestParameters: Story = {};

/** Response parameters: no location column. */
export const ResponseParameters: Story = { args: { base: "responseParams", showLocation: false, testIdPrefix: "response-param" } };

/** Nothing declared yet. */
export const Empty: Story = { args: { initial: [] } };

/** Read-only (e.g. a built-in plugin's parameters). */
export const ReadOnly: Story = { args: { readOnly: true } };
