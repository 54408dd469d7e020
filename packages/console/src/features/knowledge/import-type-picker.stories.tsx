import type { Meta, StoryObj } from "@storybook/react-vite";
import { useState } from "react";
import { fn } from "storybook/test";
import { IMPORT_TYPES, ImportTypePicker, type ImportType } from "./import-type-picker";

const meta = {
  title: "Knowledge/ImportTypePicker",
  component: ImportTypePicker,
  args: { value: "document", available: ["document"], onChange: fn() },
} satisfies Meta<typeof ImportTypePicker>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Only documents can be imported by this server; the other types say they are coming. */
export const DocumentsOnly: Story = {};

/** Every type available, with a working selection. */
export const AllTypes: Story = {
  args: { available: IMPORT_TYPES },
  render: function Render(args) {
    const [value, setValue] = useState<ImportType>("qa");
    return (
      <ImportTypePicker
        {...args}
        value={value}
        onChange={(type) => {
          setValue(type);
          args.onChange(type);
        }}
      />
    );
  },
};
