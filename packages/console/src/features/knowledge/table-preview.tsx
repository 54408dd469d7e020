import { KeyOutlined } from "@ant-design/icons";
import { Table, Tag, Tooltip } from "antd";
import type { ColumnsType } from "antd/es/table";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import "./knowledge.css";

/** One row of a table as the preview shows it. */
export interface TablePreviewRow {
  key: string | number;
  values: Record<string, string>;
}

/** Props of {@link TablePreview}. */
export interface TablePreviewProps {
  fields: readonly string[];
  /** The field rows are looked up by; marked in its header. */
  indexColumn?: string;
  rows: readonly TablePreviewRow[];
  /** Extra columns on the right (row actions). */
  actions?: (row: TablePreviewRow) => ReactNode;
  loading?: boolean;
  "data-testid"?: string;
}

/** The rows of a knowledge table under its fields, the index column marked with a key. */
export function TablePreview({ fields, indexColumn, rows, actions, loading, "data-testid": testId }: TablePreviewProps) {
  const { t } = useTranslation();
  const columns: ColumnsType<TablePreviewRow> = fields.map((field) => ({
    key: field,
    title:
      field === indexColumn ? (
        <Tooltip title={t("knowledge.table.indexColumnHint")}>
          <span className="pl-kb-table__index" data-testid="table-index-column">
            {field}{" "}
            <Tag color="gold" icon={<KeyOutlined />}>
              {t("knowledge.table.index")}
            </Tag>
          </span>
        </Tooltip>
      ) : (
        field
      ),
    ellipsis: { showTitle: true },
    render: (_, row) => row.values[field] ?? "",
  }));
  if (actions) columns.push({ key: "__actions", title: t("knowledge.files.columns.actions"), fixed: "right", width: 150, render: (_, row) => actions(row) });
  return (
    <Table<TablePreviewRow>
      size="small"
      rowKey="key"
      bordered
      loading={loading}
      columns={columns}
      dataSource={[...rows]}
      pagination={false}
      scroll={{ x: Math.max(600, fields.length * 160) }}
      data-testid={testId}
    />
  );
}

/** The values of a table row kept in a segment's metadata (`metadata.row`), if any. */
export function rowValuesOf(metadata: Record<string, unknown> | undefined): Record<string, string> | undefined {
  const row = metadata?.row;
  if (!row || typeof row !== "object") return undefined;
  return Object.fromEntries(
    Object.entries(row as Record<string, unknown>).map(([field, value]) => [field, value === null || value === undefined ? "" : String(value)]),
  );
}
