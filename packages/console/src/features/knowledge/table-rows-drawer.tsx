import { DeleteOutlined, EditOutlined, FormOutlined, PlusOutlined, UploadOutlined } from "@ant-design/icons";
import { Alert, Button, Drawer, Flex, Form, Input, Modal, Pagination, Popconfirm, Switch, Typography, Upload } from "antd";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { invalidateSpace, setSpaceData, useSpaceQuery } from "../../lib/api/query";
import { feedback } from "../../lib/feedback";
import { KNOWLEDGE_BASES, knowledgeEndpoints, type KnowledgeFile, type KnowledgeImportReport, type KnowledgeTableRow } from "../../lib/api/knowledge";
import { validValues } from "./form-helpers";
import { checkUpload, duplicateFields, KNOWLEDGE_LIMITS, UPLOAD_EXTENSIONS } from "./knowledge-rules";
import { TablePreview } from "./table-preview";
import { handledByRequestLayer } from "../../lib/api/request";

const PAGE_SIZE = 20;

/** Props of {@link TableRowsDrawer}. */
export interface TableRowsDrawerProps {
  /** The table file whose rows are open; undefined closes the drawer. */
  file?: KnowledgeFile;
  onClose: () => void;
  /** Rows changed (the file's counts move). */
  onChanged: () => void;
}

/**
 * A table file's rows under its fields, paged: add, edit, enable/disable and delete rows,
 * rename the fields (the index column stays the same column), and append rows from another
 * sheet with the same fields. The server's refusals are shown as it words them.
 */
export function TableRowsDrawer({ file, onClose, onChanged }: TableRowsDrawerProps) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<{ row?: KnowledgeTableRow }>();
  const [renaming, setRenaming] = useState(false);
  const [report, setReport] = useState<KnowledgeImportReport>();
  const [appending, setAppending] = useState(false);
  const fileId = file?.id;
  const status = file?.status;

  // Another file, or indexing that ends while the drawer is open, starts again on page 1 without a report.
  const [shownFor, setShownFor] = useState(`${fileId}:${status}`);
  if (shownFor !== `${fileId}:${status}`) {
    setShownFor(`${fileId}:${status}`);
    setPage(1);
    setReport(undefined);
  }
  const fileKey = [...KNOWLEDGE_BASES, "table-rows", fileId];
  const pageKey = [...fileKey, status, page];
  const query = useSpaceQuery({
    key: pageKey,
    fetch: (signal) => knowledgeEndpoints.tableRows(fileId ?? "", page, PAGE_SIZE, { signal }),
    enabled: Boolean(fileId),
  });
  const rows = useMemo(() => query.data?.items ?? [], [query.data]);
  const total = query.data?.total ?? 0;
  const loading = query.isFetching;
  // The fields stay while another page loads.
  const [lastFields, setLastFields] = useState<{ fields: string[]; indexColumn?: string }>({ fields: [] });
  if (query.data && (query.data.fields !== lastFields.fields || query.data.indexColumn !== lastFields.indexColumn)) {
    setLastFields({ fields: query.data.fields, indexColumn: query.data.indexColumn });
  }
  const { fields, indexColumn } = lastFields;
  const reload = () => invalidateSpace(fileKey);

  const byId = useMemo(() => new Map(rows.map((row) => [row.id ?? String(row.ordinal), row])), [rows]);
  const replace = (row: KnowledgeTableRow) =>
    setSpaceData<NonNullable<typeof query.data>>(pageKey, (current) =>
      current ? { ...current, items: current.items.map((item) => (item.id === row.id ? row : item)) } : current,
    );

  const toggle = async (row: KnowledgeTableRow, enabled: boolean) => {
    if (!row.id) return;
    const result = await knowledgeEndpoints.updateSegment(row.id, { enabled });
    if (result.ok) replace({ ...row, enabled: result.data.enabled });
  };

  const remove = async (row: KnowledgeTableRow) => {
    if (!fileId || !row.id) return;
    const result = await knowledgeEndpoints.removeTableRow(fileId, row.id);
    if (!result.ok) return;
    feedback.success(t("knowledge.table.rowDeleted"));
    const next = rows.length === 1 && page > 1 ? page - 1 : page;
    setPage(next);
    await reload();
    onChanged();
  };

  const append = async (upload: File) => {
    if (!fileId) return;
    const broken = checkUpload(upload, UPLOAD_EXTENSIONS.table);
    if (broken) {
      feedback.error(t(broken, { name: upload.name, types: UPLOAD_EXTENSIONS.table.join(", "), megabytes: KNOWLEDGE_LIMITS.documentMaxBytes / 1024 / 1024 }));
      return;
    }
    setAppending(true);
    try {
      const result = await knowledgeEndpoints.appendTable(fileId, upload, upload.name);
      if (!result.ok) {
        if (result.error.kind === "http" && !handledByRequestLayer(result.error)) feedback.error(result.error.message);
        return;
      }
      setReport(result.data.report);
      await reload();
      onChanged();
    } finally {
      setAppending(false);
    }
  };

  return (
    <Drawer
      open={Boolean(file)}
      onClose={onClose}
      size="large"
      title={file ? t("knowledge.table.title", { name: file.name }) : ""}
      extra={
        <Flex gap={8} wrap>
          <Upload
            accept={UPLOAD_EXTENSIONS.table.map((extension) => `.${extension}`).join(",")}
            showUploadList={false}
            beforeUpload={(upload) => {
              void append(upload);
              return Upload.LIST_IGNORE;
            }}
          >
            <Button icon={<UploadOutlined />} loading={appending} data-testid="table-append">
              {t("knowledge.table.append")}
            </Button>
          </Upload>
          <Button icon={<FormOutlined />} disabled={fields.length === 0} onClick={() => setRenaming(true)} data-testid="table-rename-fields">
            {t("knowledge.table.renameFields")}
          </Button>
          <Button type="primary" icon={<PlusOutlined />} disabled={fields.length === 0} onClick={() => setEditing({})} data-testid="table-add-row">
            {t("knowledge.table.addRow")}
          </Button>
        </Flex>
      }
      data-testid="table-drawer"
    >
      {status === "processing" ? <Alert type="info" showIcon className="pl-kb-alert" title={t("knowledge.segments.processing")} /> : null}
      {report ? (
        <Alert
          type={report.failedRecords > 0 ? "warning" : "success"}
          showIcon
          closable={{ onClose: () => setReport(undefined) }}
          className="pl-kb-alert"
          title={t("knowledge.import.report", { imported: report.importedRecords, total: report.totalRecords })}
          description={report.message ?? undefined}
          data-testid="table-append-report"
        />
      ) : null}
      <Typography.Paragraph type="secondary" data-testid="table-total">
        {t("knowledge.table.total", { count: total, fields: fields.length })}
      </Typography.Paragraph>
      <TablePreview
        fields={fields}
        indexColumn={indexColumn}
        loading={loading}
        rows={rows.map((row) => ({ key: row.id ?? String(row.ordinal), values: row.values }))}
        actions={(preview) => {
          const row = byId.get(String(preview.key));
          if (!row) return null;
          return (
            <Flex gap={2} align="center">
              <Switch
                size="small"
                checked={row.enabled}
                disabled={!row.id}
                onChange={(checked) => void toggle(row, checked)}
                aria-label={t("knowledge.segments.enabled")}
              />
              <Button
                type="text"
                size="small"
                icon={<EditOutlined />}
                aria-label={t("knowledge.segments.edit")}
                onClick={() => setEditing({ row })}
                data-testid="table-row-edit"
              />
              <Popconfirm
                title={t("knowledge.table.deleteRowTitle")}
                okText={t("common.delete")}
                cancelText={t("common.cancel")}
                okButtonProps={{ danger: true }}
                onConfirm={() => remove(row)}
              >
                <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={t("common.delete")} data-testid="table-row-delete" />
              </Popconfirm>
            </Flex>
          );
        }}
        data-testid="table-rows"
      />
      {total > PAGE_SIZE ? (
        <Flex justify="flex-end" className="pl-kb-actions">
          <Pagination
            current={page}
            pageSize={PAGE_SIZE}
            total={total}
            showSizeChanger={false}
            onChange={(next) => {
              setPage(next);
            }}
          />
        </Flex>
      ) : null}
      {fileId ? (
        <RowModal
          fileId={fileId}
          fields={fields}
          indexColumn={indexColumn}
          editing={editing}
          onClose={() => setEditing(undefined)}
          onSaved={async (row, added) => {
            setEditing(undefined);
            feedback.success(t(added ? "knowledge.table.rowAdded" : "knowledge.table.rowSaved"));
            if (added) {
              const last = Math.max(1, Math.ceil((total + 1) / PAGE_SIZE));
              setPage(last);
              await reload();
            } else replace(row);
            onChanged();
          }}
        />
      ) : null}
      {fileId ? (
        <RenameFieldsModal
          fileId={fileId}
          open={renaming}
          fields={fields}
          indexColumn={indexColumn}
          onClose={() => setRenaming(false)}
          onSaved={async () => {
            setRenaming(false);
            feedback.success(t("knowledge.table.fieldsRenamed"));
            await reload();
          }}
        />
      ) : null}
    </Drawer>
  );
}

function RowModal({
  fileId,
  fields,
  indexColumn,
  editing,
  onClose,
  onSaved,
}: {
  fileId: string;
  fields: string[];
  indexColumn?: string;
  editing?: { row?: KnowledgeTableRow };
  onClose: () => void;
  onSaved: (row: KnowledgeTableRow, added: boolean) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ values: Record<string, string> }>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (editing) form.setFieldsValue({ values: Object.fromEntries(fields.map((field) => [field, editing.row?.values[field] ?? ""])) });
  }, [editing, fields, form]);

  const submit = async () => {
    const values = (await validValues(form))?.values;
    if (!values) return;
    setSaving(true);
    try {
      const row = editing?.row;
      const result = row?.id ? await knowledgeEndpoints.updateTableRow(fileId, row.id, values) : await knowledgeEndpoints.addTableRow(fileId, values);
      if (result.ok) onSaved(result.data, !row);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={Boolean(editing)}
      title={editing?.row ? t("knowledge.table.editRow", { ordinal: editing.row.ordinal + 1 }) : t("knowledge.table.addRow")}
      okText={t("common.save")}
      cancelText={t("common.cancel")}
      confirmLoading={saving}
      onOk={() => void submit()}
      onCancel={onClose}
      okButtonProps={{ "data-testid": "table-row-save" }}
      forceRender
    >
      <Form form={form} layout="vertical">
        {fields.map((field) => (
          <Form.Item
            key={field}
            name={["values", field]}
            label={field}
            rules={field === indexColumn ? [{ required: true, whitespace: true, message: t("knowledge.rules.indexValueRequired", { column: field }) }] : []}
          >
            <Input.TextArea autoSize={{ minRows: 1, maxRows: 6 }} maxLength={10_000} data-testid={`table-row-value-${field}`} />
          </Form.Item>
        ))}
      </Form>
    </Modal>
  );
}

function RenameFieldsModal({
  fileId,
  open,
  fields,
  indexColumn,
  onClose,
  onSaved,
}: {
  fileId: string;
  open: boolean;
  fields: string[];
  indexColumn?: string;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ names: string[] }>();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string>();

  useEffect(() => {
    if (open) {
      form.setFieldsValue({ names: fields });
      setError(undefined);
    }
  }, [open, fields, form]);

  const submit = async () => {
    const names = (await validValues(form))?.names.map((name) => name.trim());
    if (!names) return;
    const repeated = duplicateFields(names);
    if (repeated.length > 0) {
      setError(t("knowledge.rules.tableFieldsDuplicate", { fields: repeated.join(", ") }));
      return;
    }
    setSaving(true);
    try {
      const result = await knowledgeEndpoints.editColumns(fileId, names);
      if (result.ok) onSaved();
      else if (result.error.kind === "http") setError(result.error.message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t("knowledge.table.renameFields")}
      okText={t("common.save")}
      cancelText={t("common.cancel")}
      confirmLoading={saving}
      onOk={() => void submit()}
      onCancel={onClose}
      okButtonProps={{ "data-testid": "table-fields-save" }}
      forceRender
    >
      <Typography.Paragraph type="secondary">{t("knowledge.table.renameFieldsHint")}</Typography.Paragraph>
      <Form form={form} layout="vertical">
        {fields.map((field, index) => (
          <Form.Item
            key={field}
            name={["names", index]}
            label={field === indexColumn ? t("knowledge.table.fieldIndexLabel", { field }) : t("knowledge.table.fieldLabel", { field })}
            rules={[{ required: true, whitespace: true, message: t("knowledge.rules.fieldNameRequired") }]}
          >
            <Input maxLength={100} data-testid={`table-field-${index}`} />
          </Form.Item>
        ))}
      </Form>
      {error ? <Alert type="error" showIcon title={error} data-testid="table-fields-error" /> : null}
    </Modal>
  );
}
