import { DeleteOutlined, DownloadOutlined, EditOutlined, MinusCircleOutlined, PlusOutlined, UploadOutlined } from "@ant-design/icons";
import { Button, Dropdown, Empty, Flex, Form, Input, Menu, Popconfirm, Select, Space, Table, Tag, Typography } from "antd";
import type { FormInstance } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { FormDialog } from "../../components/form-dialog";
import { databaseEndpoints, type DatabaseField, type DatabaseFieldInput, type DatabaseTable, type FileFormat } from "../../lib/api/databases";
import { type ApiFailure, handledByRequestLayer } from "../../lib/api/request";
import { invalidateSpace, useSpaceQuery } from "../../lib/api/query";
import { feedback } from "../../lib/feedback";
import { saveBlob } from "../../lib/save-blob";
import { i18n } from "../../i18n";
import { databaseKey, useDatabase } from "./database-section-layout";
import { checkIdentifier, DATABASE_LIMITS, duplicateNames, FIELD_TYPES } from "./database-rules";
import { ImportWizard } from "./import-wizard";

/** The cache key of a database's tables. */
export const tablesKey = (databaseId: string) => [...databaseKey(databaseId), "tables"];

interface TableValues {
  name: string;
  description?: string;
  fields: DatabaseFieldInput[];
}

const identifierRule = {
  validator: async (_rule: unknown, value: unknown) => {
    const key = checkIdentifier(value as string | undefined);
    if (key) throw new Error(i18n.t(key, { max: DATABASE_LIMITS.fieldNameMax }));
  },
};

/** Shows a refusal under the field the server names (`fields.2.name`, `name`) when the form has it, else as a message. */
function showFieldError(form: FormInstance, error: ApiFailure, roots: readonly string[]) {
  if (error.kind === "aborted" || error.kind === "unauthenticated") return;
  const path = (error.field ?? "").split(".").map((part) => (/^\d+$/.test(part) ? Number(part) : part));
  // A name clash (409) names no field: it belongs under the name.
  if (!error.field && error.status === 409 && roots.includes("name")) path.splice(0, path.length, "name");
  if ((error.field || error.status === 409) && roots.includes(String(path[0]))) {
    form.setFields([{ name: path as never, errors: [error.message] }]);
    return;
  }
  if (!handledByRequestLayer(error)) feedback.error(error.message || i18n.t("errors.generic"));
}

/** One field's inputs: name, type, description (and a remove button in a list). */
function FieldInputs({ prefix, onRemove }: { prefix: (string | number)[]; onRemove?: () => void }) {
  const { t } = useTranslation();
  return (
    <Flex gap={8} align="start">
      <Form.Item name={[...prefix, "name"]} rules={[identifierRule]} className="pl-db-wide">
        <Input placeholder={t("database.fields.name")} data-testid="database-field-name" />
      </Form.Item>
      <Form.Item name={[...prefix, "type"]} initialValue="text">
        <Select
          showSearch
          optionFilterProp="label"
          style={{ width: 150 }}
          options={FIELD_TYPES.map((type) => ({ value: type, label: t(`database.fieldTypes.${type}`) }))}
          data-testid="database-field-type"
        />
      </Form.Item>
      <Form.Item name={[...prefix, "description"]} className="pl-db-wide">
        <Input placeholder={t("database.fields.description")} maxLength={DATABASE_LIMITS.descriptionMax} />
      </Form.Item>
      {onRemove && <Button type="text" icon={<MinusCircleOutlined />} onClick={onRemove} aria-label={t("common.delete")} />}
    </Flex>
  );
}

/**
 * /console/database/tableConfig?id=…: a built-in database's tables on the left; the chosen
 * table's description, fields (add, comment, delete with a data-loss warning), import wizard,
 * template and export on the right; create a table with its fields. A remote database's
 * tables are chosen on its database config.
 */
export function TableConfigPage() {
  const { t } = useTranslation();
  const { database, reload } = useDatabase();
  const [params, setParams] = useSearchParams();
  const query = useSpaceQuery({ key: tablesKey(database.id), fetch: (signal) => databaseEndpoints.tables(database.id, { signal }) });
  const tables = query.data ?? [];
  const chosenId = params.get("table") ?? tables[0]?.id;
  const table = tables.find((item) => item.id === chosenId) ?? tables[0];
  const [creating, setCreating] = useState(false);
  const [addingField, setAddingField] = useState(false);
  const [editingTable, setEditingTable] = useState(false);
  const [editingField, setEditingField] = useState<DatabaseField | null>(null);
  const [importing, setImporting] = useState(false);
  const [createForm] = Form.useForm<TableValues>();
  const [fieldForm] = Form.useForm<DatabaseFieldInput>();
  const [commentForm] = Form.useForm<{ description: string; comment?: string }>();

  const choose = (id: string) => setParams((current) => ({ ...Object.fromEntries(current), table: id }), { replace: true });
  const refresh = async () => {
    await Promise.all([invalidateSpace(tablesKey(database.id)), reload()]);
  };

  useEffect(() => {
    if (editingTable && table) commentForm.setFieldsValue({ description: table.description });
  }, [editingTable, table, commentForm]);

  if (database.type === "remote") {
    return (
      <div className="pl-card" data-testid="database-tables-remote">
        <Empty description={t("database.tables.remoteHint")} />
      </div>
    );
  }

  const createTable = async (values: TableValues) => {
    const fields = (values.fields ?? []).map((field) => ({ ...field, name: field.name.trim(), description: (field.description ?? "").trim() }));
    const repeated = duplicateNames(fields.map((field) => field.name));
    if (repeated.length > 0) {
      const index = fields.findLastIndex((field) => field.name.toLowerCase() === repeated[0]!.toLowerCase());
      createForm.setFields([{ name: ["fields", index, "name"], errors: [t("database.rules.duplicate", { name: repeated[0] })] }]);
      return false;
    }
    const result = await databaseEndpoints.createTable(database.id, { name: values.name.trim(), description: (values.description ?? "").trim(), fields });
    if (!result.ok) {
      showFieldError(createForm, result.error, ["name", "description", "fields"]);
      return false;
    }
    await refresh();
    choose(result.data.id);
    setCreating(false);
    feedback.success(t("database.tables.created", { name: result.data.name }));
    return true;
  };

  const addField = async (values: DatabaseFieldInput) => {
    if (!table) return false;
    const result = await databaseEndpoints.addField(table.id, { ...values, name: values.name.trim() });
    if (!result.ok) {
      showFieldError(fieldForm, result.error, ["name", "type", "description", "comment"]);
      return false;
    }
    await refresh();
    setAddingField(false);
    return true;
  };

  const saveComment = async (values: { description: string; comment?: string }) => {
    if (!table) return false;
    const result = editingField
      ? await databaseEndpoints.updateField(table.id, editingField.id, { description: values.description ?? "", comment: values.comment ?? "" })
      : await databaseEndpoints.updateTable(table.id, values.description ?? "");
    if (!result.ok) {
      showFieldError(commentForm, result.error, ["description", "comment"]);
      return false;
    }
    await refresh();
    setEditingField(null);
    setEditingTable(false);
    feedback.success(t("database.saved"));
    return true;
  };

  const removeField = async (field: DatabaseField) => {
    if (!table) return;
    const result = await databaseEndpoints.removeField(table.id, field.id);
    if (result.ok) await refresh();
  };

  const removeTable = async (target: DatabaseTable) => {
    const result = await databaseEndpoints.removeTable(target.id);
    if (!result.ok) return;
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.delete("table");
      return next;
    });
    await refresh();
    feedback.success(t("database.tables.deleted", { name: target.name }));
  };

  const download = async (kind: "export" | "template", format: FileFormat) => {
    if (!table) return;
    const result = kind === "export" ? await databaseEndpoints.exportFile(table.id, format) : await databaseEndpoints.template(table.id, format);
    if (result.ok) saveBlob(result.data.blob, result.data.fileName ?? `${table.name}.${format}`);
  };

  const formats = (kind: "export" | "template") => ({
    items: (["xlsx", "csv"] as const).map((format) => ({ key: format, label: <span data-testid={`database-${kind}-${format}`}>{format.toUpperCase()}</span> })),
    onClick: ({ key }: { key: string }) => void download(kind, key as FileFormat),
  });

  return (
    <div className="pl-db-split" data-testid="database-table-config">
      <div className="pl-card pl-db-table-list">
        <Button block type="dashed" icon={<PlusOutlined />} onClick={() => setCreating(true)} className="pl-db-toolbar" data-testid="database-table-create">
          {t("database.tables.create")}
        </Button>
        {tables.length === 0 ? (
          <Empty description={t("database.tables.empty")} data-testid="database-tables-empty" />
        ) : (
          <Menu
            selectedKeys={table ? [table.id] : []}
            onClick={({ key }) => choose(key)}
            items={tables.map((item) => ({ key: item.id, label: <span data-testid={`database-table-${item.name}`}>{item.name}</span> }))}
          />
        )}
      </div>
      <div className="pl-card">
        {table ? (
          <Space direction="vertical" size={12} className="pl-db-wide">
            <Flex justify="space-between" wrap gap={8}>
              <div>
                <Typography.Title level={5} data-testid="database-table-name">
                  {table.name} <Tag>{t("database.tables.rowCount", { count: table.rowCount })}</Tag>
                </Typography.Title>
                <Typography.Text type="secondary" data-testid="database-table-description">
                  {table.description || t("database.tables.noDescription")}
                </Typography.Text>
                <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setEditingTable(true)} data-testid="database-table-comment">
                  {t("database.tables.editDescription")}
                </Button>
              </div>
              <Space wrap>
                <Button icon={<UploadOutlined />} onClick={() => setImporting(true)} data-testid="database-import">
                  {t("database.import.open")}
                </Button>
                <Dropdown menu={formats("template")}>
                  <Button icon={<DownloadOutlined />} data-testid="database-template">
                    {t("database.tables.template")}
                  </Button>
                </Dropdown>
                <Dropdown menu={formats("export")}>
                  <Button icon={<DownloadOutlined />} data-testid="database-export">
                    {t("database.tables.export")}
                  </Button>
                </Dropdown>
                <Popconfirm
                  title={t("database.tables.deleteTitle", { name: table.name })}
                  description={t("database.tables.deleteHint", { count: table.rowCount })}
                  okText={t("common.delete")}
                  cancelText={t("common.cancel")}
                  okButtonProps={{ danger: true, "data-testid": "database-table-delete-confirm" }}
                  onConfirm={() => removeTable(table)}
                >
                  <Button danger icon={<DeleteOutlined />} data-testid="database-table-delete">
                    {t("database.tables.delete")}
                  </Button>
                </Popconfirm>
              </Space>
            </Flex>
            <Flex justify="space-between">
              <Typography.Text strong>{t("database.fields.title")}</Typography.Text>
              <Button size="small" icon={<PlusOutlined />} onClick={() => setAddingField(true)} data-testid="database-field-add">
                {t("database.fields.add")}
              </Button>
            </Flex>
            <Table<DatabaseField>
              size="small"
              rowKey="id"
              pagination={false}
              dataSource={table.fields}
              data-testid="database-fields"
              columns={[
                { title: t("database.fields.name"), dataIndex: "name", key: "name" },
                { title: t("database.fields.type"), key: "type", render: (_, field) => <Tag>{t(`database.fieldTypes.${field.type}`)}</Tag> },
                { title: t("database.fields.description"), dataIndex: "description", key: "description" },
                { title: t("database.fields.comment"), dataIndex: "comment", key: "comment" },
                {
                  title: t("database.list.actions"),
                  key: "actions",
                  render: (_, field) => (
                    <Space>
                      <Button
                        size="small"
                        icon={<EditOutlined />}
                        onClick={() => {
                          setEditingField(field);
                          commentForm.setFieldsValue({ description: field.description, comment: field.comment });
                        }}
                        data-testid={`database-field-edit-${field.name}`}
                      />
                      <Popconfirm
                        title={t("database.fields.deleteTitle", { name: field.name })}
                        description={t("database.fields.deleteHint")}
                        okText={t("common.delete")}
                        cancelText={t("common.cancel")}
                        okButtonProps={{ danger: true, "data-testid": "database-field-delete-confirm" }}
                        onConfirm={() => removeField(field)}
                      >
                        <Button size="small" danger icon={<DeleteOutlined />} data-testid={`database-field-delete-${field.name}`} />
                      </Popconfirm>
                    </Space>
                  ),
                },
              ]}
            />
          </Space>
        ) : (
          <Empty description={t("database.tables.chooseOrCreate")} />
        )}
      </div>
      <FormDialog<TableValues>
        open={creating}
        title={t("database.tables.create")}
        okText={t("database.actions.create")}
        form={createForm}
        initialValues={{ fields: [{ name: "", type: "text", description: "" }] }}
        onSubmit={createTable}
        onClose={() => setCreating(false)}
        submitTestId="database-table-create-submit"
        formTestId="database-table-create-form"
      >
        <Form.Item name="name" label={t("database.tables.name")} rules={[identifierRule]}>
          <Input data-testid="database-table-name-input" />
        </Form.Item>
        <Form.Item name="description" label={t("database.tables.description")} extra={t("database.tables.descriptionHint")}>
          <Input.TextArea rows={2} maxLength={DATABASE_LIMITS.descriptionMax} />
        </Form.Item>
        <Typography.Text strong>{t("database.fields.title")}</Typography.Text>
        <Form.List name="fields">
          {(items, { add, remove }) => (
            <>
              {items.map((item) => (
                <FieldInputs key={item.key} prefix={[item.name]} onRemove={items.length > 1 ? () => remove(item.name) : undefined} />
              ))}
              <Button
                type="dashed"
                block
                icon={<PlusOutlined />}
                onClick={() => add({ name: "", type: "text", description: "" })}
                data-testid="database-table-field-more"
              >
                {t("database.fields.add")}
              </Button>
            </>
          )}
        </Form.List>
      </FormDialog>
      <FormDialog<DatabaseFieldInput>
        open={addingField}
        title={t("database.fields.add")}
        okText={t("database.actions.create")}
        form={fieldForm}
        onSubmit={addField}
        onClose={() => setAddingField(false)}
        submitTestId="database-field-add-submit"
      >
        <Typography.Paragraph type="secondary">{t("database.fields.addHint")}</Typography.Paragraph>
        <FieldInputs prefix={[]} />
        <Form.Item name="comment" label={t("database.fields.comment")}>
          <Input maxLength={DATABASE_LIMITS.descriptionMax} />
        </Form.Item>
      </FormDialog>
      <FormDialog<{ description: string; comment?: string }>
        open={editingTable || editingField !== null}
        title={editingField ? t("database.fields.editComment", { name: editingField.name }) : t("database.tables.editDescription")}
        okText={t("common.save")}
        form={commentForm}
        destroyOnHidden={false}
        forceRender
        onSubmit={saveComment}
        onClose={() => {
          setEditingField(null);
          setEditingTable(false);
        }}
        submitTestId="database-comment-submit"
      >
        <Form.Item name="description" label={t("database.fields.description")} rules={[{ max: DATABASE_LIMITS.descriptionMax }]}>
          <Input.TextArea rows={2} maxLength={DATABASE_LIMITS.descriptionMax} data-testid="database-comment-description" />
        </Form.Item>
        {editingField && (
          <Form.Item name="comment" label={t("database.fields.comment")} rules={[{ max: DATABASE_LIMITS.descriptionMax }]}>
            <Input maxLength={DATABASE_LIMITS.descriptionMax} data-testid="database-comment-comment" />
          </Form.Item>
        )}
      </FormDialog>
      {table && <ImportWizard open={importing} table={table} onClose={() => setImporting(false)} onImported={() => void refresh()} />}
    </div>
  );
}
