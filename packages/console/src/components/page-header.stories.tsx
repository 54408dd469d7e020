import { PlusOutlined } from "@ant-design/icons";
import type { Meta, StoryObj } from "@storybook/react-vite";
import { Button } from "antd";
import { PageHeader } from "./page-header";

const meta = {
  title: "Components/PageHeader",
  component: PageHeader,
  args: { title: "Apps", subtitle: "Light apps, knowledge apps and agents of this space." },
} satisfies Meta<typeof PageHeader>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Title and subtitle only. */
export const Basic: Story = {};

/** With a primary action and a breadcrumb trail. */
export const WithActionsAndBreadcrumb: Story = {
  args: {
    title: "Customer list",
    breadcrumb: [{ label: "Customers", to: "/console/customManage" }, { label: "Customer list" }],
    extra: (
      <>
        <Button>Export</Button>
        <Button type="primary" icon={<PlusOutlined />}>
          Add customer
        </Button>
      </>
    ),
  },
};
