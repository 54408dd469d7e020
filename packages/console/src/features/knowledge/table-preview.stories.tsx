import type { Meta, StoryObj } from "@storybook/react-vite";
import { TablePreview } from "./table-preview";

const meta = {
  title: "Knowledge/TablePreview",
  component: TablePreview,
  args: {
    fields: ["Name", "SKU", "Price"],
    indexColumn: "SKU",
    rows: [
      { key: 0, values: { Name: "Kettle", SKU: "A-100", Price: "39" } },
      { key: 1, values: { Name: "Toaster", SKU: "B-200", Price: "25" } },
      { key: 2, values: { Name: "Blender with a name long enough to be cut", SKU: "C-300", Price: "59" } },
    ],
  },
} satisfies Meta<typeof TablePreview>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The first rows of a table import, the index column marked. */
export const Preview: Story = {};

/** Many fields scroll sideways instead of squeezing. */
export const ManyFields: Story = {
  args: {
    fields: Array.from({ length: 10 }, (_, index) => `Field ${index + 1}`),
    indexColumn: "Field 1",
    rows: [{ key: 0, values: Object.fromEntries(Array.from({ length: 10 }, (_, index) => [`Field ${index + 1}`, `value ${index + 1}`])) }],
  },
};
