import { Typography } from "antd";
import type { ColumnsType } from "antd/es/table";
import type { TFunction } from "i18next";

/**
 * The columns every key table starts with (API keys, user keys): the key's name and the prefix
 * it is shown by (the secret itself is shown once, at creation).
 */
export function keyColumns<Row extends { name: string; prefix: string }>(t: TFunction): ColumnsType<Row> {
  return [
    { key: "name", title: t("apiKeys.columns.name"), dataIndex: "name", render: (name: string) => <Typography.Text strong>{name}</Typography.Text> },
    {
      key: "prefix",
      title: t("apiKeys.columns.key"),
      dataIndex: "prefix",
      render: (prefix: string) => <Typography.Text code>{`${prefix}…`}</Typography.Text>,
    },
  ];
}
