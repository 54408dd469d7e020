import { DeleteOutlined, EditOutlined, FilterOutlined, MinusCircleOutlined, PlusOutlined } from "@ant-design/icons";
import type { FormInstance } from "antd";
import { Button, DatePicker, Empty, Flex, Form, Input, InputNumber, Modal, Popconfirm, Select, Space, Table, Typography } from "antd";
import dayjs from "dayjs";
import { useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { databaseEndpoints, type DatabaseField, type DatabaseRow } from "../../lib/api/databases";
import { handledByRequestLayer } from "../../lib/api/request";
import { invalidateSpace, useSpaceQuery } from "../../lib/api/query";
import { feedback } from "../../lib/feedback";
import { i18n } from "../../i18n";
import { useDatabase } from "./database-section-layout";
import {
  currentAfter,
  DATETIME_FORMAT,
  filtersParam,
  FIRST_PAGE,
  nextPage,
  opsFor,
  pageNumber,
  type PageCursor,
  previousPage,
  type RowFilterInput,
  rowValuesBody,
} from "./database-rules";
import { tablesKey } from "./table-config-page";

const PAGE_SIZE = 20;

/** The typed input of a field: numbers, a date-time picker, a textarea for long text. */
function ValueInput({ field, ...control }: { field: DatabaseField; value?: never; onChange?: never; id?: string }) {
  // Form.Item hands its child value, onChange and id: they go to the typed input.
  const testId = `database-value-${field.name}`;
  if (field.type === "integer") return <InputNumber {...control} className="pl-db-wide" precision={0} data-testid={testId} />;
  if (field.type === "decimal") return <InputNumber {...control} className="pl-db-wide" stringMode data-testid={testId} />;
  if (field.type === "datetime") return <DatePicker {...control} className="pl-db-wide" showTime format={DATETIME_FORMAT} data-testid={testId} />;
  if (field.type === "longtext") return <Input.TextArea {...control} rows={4} data-testid={testId} />;
  return <Input {...control} maxLength={1000} data-testid={testId} />;
}

/** A stored value as the row form's initial value. */
function formValue(field: DatabaseField, value: string | number | null | undefined): unknown {
  if (value === null || value === undefined) return undefined;
  if (field.type === "datetime") return dayjs(String(value), DATETIME_FORMAT);
  return value;
}

type RowFormValues = { values: Record<string, unknown> };

/** The add or edit dialog of a row, with a fresh form each time it opens. */
function RowModal(props: {
  title: string;
  fields: DatabaseField[];
  initial: Record<string, unknown>;
  saving: boolean;
  onSave: (form: FormInstance<RowFormValues>) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<RowFormValues>();
  return (
    <Modal
      open
      title={props.title}
      okText={t("common.save")}
      cancelText={t("common.cancel")}
      confirmLoading={props.saving}
      onOk={() => props.onSave(form)}
      onCancel={props.onClose}
      okButtonProps={{ "data-testid": "database-row-save" } as Record<string, string>}
    >
      <Form form={form} layout="vertical" initialValues={{ values: props.initial }} data-testid="database-row-form">
        {props.fields.map((field) => (
          <Form.Item key={field.id} name={["values", field.name]} label={field.name} extra={field.description || undefined}>
            <ValueInput field={field} />
          </Form.Item>
        ))}
      </Form>
    </Modal>
  );
}

/**
 * /console/database/preview?id=…&table=…: a built-in table's rows, paged by the server's
 * keyset cursor (Next follows `nextAfter`, Previous walks back the cursors seen), filters per
 * field, and add, edit and delete of rows in a modal with typed inputs; a refused value shows
 * under its field.
 */
export function PreviewPage() {
  const { t } = useTranslation();
  const { database, reload } = useDatabase();
  const [params, setParams] = useSearchParams();
  const tablesQuery = useSpaceQuery({
    key: tablesKey(database.id),
    fetch: (signal) => databaseEndpoints.tables(database.id, { signal }),
    enabled: database.type === "builtin",
  });
  const tables = tablesQuery.data ?? [];
  const table = tables.find((item) => item.id === params.get("table")) ?? tables[0];
  const [cursor, setCursor] = useState<PageCursor>(FIRST_PAGE);
  const [draft, setDraft] = useState<(RowFilterInput & { key: number })[]>([]);
  const filterKey = useRef(0);
  const [filters, setFilters] = useState<string | undefined>(undefined);
  const [editing, setEditing] = useState<DatabaseRow | "new" | null>(null);
  const [saving, setSaving] = useState(false);
  const [selected, setSelected] = useState<number[]>([]);
  const after = currentAfter(cursor);
  const rowsKey = useMemo(() => ["database-rows", table?.id ?? "", after ?? 0, filters ?? ""], [table?.id, after, filters]);
  const rows = useSpaceQuery({
    key: rowsKey,
    enabled: table !== undefined,
    keepPreviousPage: true,
    fetch: (signal) =>
      databaseEndpoints.rows(table!.id, { limit: PAGE_SIZE, ...(after !== undefined ? { after } : {}), ...(filters ? { filters } : {}) }, { signal }),
  });

  if (database.type === "remote") {
    return (
      <div className="pl-card" data-testid="database-preview-remote">
        <Empty description={t("database.preview.remoteHint")} />
      </div>
    );
  }
  if (!tablesQuery.isFetching && !table) {
    return (
      <div className="pl-card">
        <Empty description={t("database.preview.noTables")} data-testid="database-preview-empty" />
      </div>
    );
  }

  const fields = table?.fields ?? [];
  const chooseTable = (id: string) => {
    setCursor(FIRST_PAGE);
    setDraft([]);
    setFilters(undefined);
    setSelected([]);
    setParams((current) => ({ ...Object.fromEntries(current), table: id }), { replace: true });
  };
  const applyFilters = () => {
    setCursor(FIRST_PAGE);
    setFilters(filtersParam(draft, fields));
  };
  const refresh = async () => {
    await Promise.all([invalidateSpace(["database-rows", table?.id ?? ""]), invalidateSpace(tablesKey(database.id)), reload()]);
  };

  const open = (row: DatabaseRow | "new") => setEditing(row);
  const initialRow = (row: DatabaseRow | "new" | null) =>
    Object.fromEntries(fields.map((field) => [field.name, row === null || row === "new" ? undefined : formValue(field, row.values[field.name])]));
  const save = async (form: FormInstance<RowFormValues>) => {
    if (!table || editing === null) return;
    const { values } = await form.validateFields();
    const body = rowValuesBody(values ?? {}, fields, editing === "new" ? undefined : editing.values);
    setSaving(true);
    const result = editing === "new" ? await databaseEndpoints.addRow(table.id, body) : await databaseEndpoints.editRow(table.id, editing.rowId, body);
    setSaving(false);
    if (!result.ok) {
      const field = result.error.field;
      if (field && fields.some((item) => item.name === field)) form.setFields([{ name: ["values", field], errors: [result.error.message] }]);
      else if (!handledByRequestLayer(result.error)) feedback.error(result.error.message || i18n.t("errors.generic"));
      return;
    }
    setEditing(null);
    await refresh();
    feedback.success(t("database.saved"));
  };
  const removeRows = async (rowIds: number[]) => {
    if (!table || rowIds.length === 0) return;
    const result = await databaseEndpoints.removeRows(table.id, rowIds);
    if (!result.ok) return;
    setSelected([]);
    await refresh();
    feedback.success(t("database.preview.deleted", { count: result.data.deleted }));
  };

  const page = rows.data;
  return (
    <div className="pl-card" data-testid="database-preview">
      <Flex gap={8} wrap justify="space-between" className="pl-db-toolbar">
        <Space wrap>
          <Select
            style={{ minWidth: 200 }}
            value={table?.id}
            onChange={chooseTable}
            options={tables.map((item) => ({ value: item.id, label: item.name }))}
            data-testid="database-preview-table"
          />
          <Typography.Text type="secondary" data-testid="database-preview-total">
            {page?.total !== null && page?.total !== undefined ? t("database.preview.total", { count: page.total }) : t("database.preview.filtered")}
          </Typography.Text>
        </Space>
        <Space wrap>
          <Popconfirm
            title={t("database.preview.deleteTitle", { count: selected.length })}
            okText={t("common.delete")}
            cancelText={t("common.cancel")}
            disabled={selected.length === 0}
            okButtonProps={{ danger: true, "data-testid": "database-rows-delete-confirm" }}
            onConfirm={() => removeRows(selected)}
          >
            <Button danger icon={<DeleteOutlined />} disabled={selected.length === 0} data-testid="database-rows-delete">
              {t("database.preview.deleteSelected")}
            </Button>
          </Popconfirm>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => open("new")} disabled={!table} data-testid="database-row-add">
            {t("database.preview.add")}
          </Button>
        </Space>
      </Flex>
      <Space direction="vertical" className="pl-db-wide pl-db-toolbar" data-testid="database-filters">
        {draft.map((filter, index) => {
          const type = fields.find((field) => field.name === filter.field)?.type ?? "text";
          const update = (change: Partial<RowFilterInput>) => setDraft((current) => current.map((item, at) => (at === index ? { ...item, ...change } : item)));
          return (
            <Space key={filter.key} wrap>
              <Select
                style={{ width: 160 }}
                value={filter.field}
                onChange={(field: string) => update({ field, op: "eq" })}
                options={fields.map((field) => ({ value: field.name, label: field.name }))}
                data-testid={`database-filter-field-${index}`}
              />
              <Select
                style={{ width: 140 }}
                value={filter.op}
                onChange={(op) => update({ op })}
                options={opsFor(type).map((op) => ({ value: op, label: t(`database.ops.${op}`) }))}
                data-testid={`database-filter-op-${index}`}
              />
              {filter.op !== "empty" && filter.op !== "notEmpty" && (
                <Input
                  style={{ width: 200 }}
                  value={filter.value ?? ""}
                  onChange={(event) => update({ value: event.target.value })}
                  onPressEnter={applyFilters}
                  placeholder={type === "datetime" ? DATETIME_FORMAT : undefined}
                  data-testid={`database-filter-value-${index}`}
                />
              )}
              <Button
                type="text"
                icon={<MinusCircleOutlined />}
                aria-label={t("common.delete")}
                onClick={() => setDraft((current) => current.filter((_, at) => at !== index))}
              />
            </Space>
          );
        })}
        <Space>
          <Button
            icon={<FilterOutlined />}
            disabled={fields.length === 0}
            onClick={() => setDraft((current) => [...current, { key: ++filterKey.current, field: fields[0]!.name, op: "eq", value: "" }])}
            data-testid="database-filter-add"
          >
            {t("database.preview.addFilter")}
          </Button>
          <Button type="primary" ghost onClick={applyFilters} data-testid="database-filter-apply">
            {t("database.preview.applyFilters")}
          </Button>
        </Space>
      </Space>
      <Table<DatabaseRow>
        size="small"
        rowKey="rowId"
        loading={rows.isFetching}
        dataSource={page?.items ?? []}
        pagination={false}
        scroll={{ x: "max-content" }}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) }}
        data-testid="database-rows"
        columns={[
          { title: "#", dataIndex: "rowId", key: "rowId", width: 70 },
          ...fields.map((field) => ({
            title: field.name,
            key: field.name,
            render: (_: unknown, row: DatabaseRow) => <span className="pl-db-cell">{row.values[field.name] ?? ""}</span>,
          })),
          {
            title: t("database.list.actions"),
            key: "actions",
            fixed: "right" as const,
            render: (_: unknown, row: DatabaseRow) => (
              <Space>
                <Button size="small" icon={<EditOutlined />} onClick={() => open(row)} data-testid={`database-row-edit-${row.rowId}`} />
                <Popconfirm
                  title={t("database.preview.deleteTitle", { count: 1 })}
                  okText={t("common.delete")}
                  cancelText={t("common.cancel")}
                  okButtonProps={{ danger: true }}
                  onConfirm={() => removeRows([row.rowId])}
                >
                  <Button size="small" danger icon={<DeleteOutlined />} data-testid={`database-row-delete-${row.rowId}`} />
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <Flex justify="flex-end" gap={8} align="center" className="pl-db-toolbar" style={{ marginTop: 12 }}>
        <Typography.Text type="secondary" data-testid="database-page-number">
          {t("database.preview.page", { page: pageNumber(cursor) })}
        </Typography.Text>
        <Button disabled={pageNumber(cursor) === 1} onClick={() => setCursor(previousPage)} data-testid="database-page-previous">
          {t("database.preview.previous")}
        </Button>
        <Button
          disabled={page?.nextAfter === null || page?.nextAfter === undefined}
          onClick={() => setCursor((current) => nextPage(current, page!.nextAfter!))}
          data-testid="database-page-next"
        >
          {t("database.preview.next")}
        </Button>
      </Flex>
      {editing !== null && (
        <RowModal
          title={editing === "new" ? t("database.preview.add") : t("database.preview.edit", { id: editing.rowId })}
          fields={fields}
          initial={initialRow(editing)}
          saving={saving}
          onSave={(form) => void save(form)}
          onClose={() => setEditing(null)}
        />
      )}
    </div>
  );
}
