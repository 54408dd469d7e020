import { DatabaseOutlined, DeleteOutlined, EditOutlined, PlusOutlined } from "@ant-design/icons";
import { Button, Form, Popconfirm, Space, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { EmptyState } from "../../components/empty-state";
import { FormDialog } from "../../components/form-dialog";
import { PageHeader } from "../../components/page-header";
import { DATABASES, databaseEndpoints, type Database } from "../../lib/api/databases";
import { plansEndpoints } from "../../lib/api/plans";
import { invalidateSpace, useSpaceQuery } from "../../lib/api/query";
import { feedback } from "../../lib/feedback";
import { formatDateTime } from "../../lib/format";
import { databasePath } from "./database-section-layout";
import {
  createBody,
  DatabaseBasicFields,
  DatabaseCreateFields,
  type DatabaseValues,
  databaseValues,
  RemoteConnectionFields,
  showDatabaseError,
  updateBody,
} from "./database-form";
import { PERMISSION_KEYS } from "./database-rules";
import "./database.css";

/** Whether the space's plan opens remote databases (spec §6: the customer-service quota). */
export function useRemoteAllowed(): boolean {
  const plan = useSpaceQuery({ key: ["plan", "current"], fetch: (signal) => plansEndpoints.current({ signal, silent: true }) });
  return (plan.data?.usage.find((usage) => usage.quota === "customerService")?.limit ?? 0) > 0;
}

/**
 * /console/database: the space's databases (name, type, permissions, tables, rows, updated),
 * create built-in or remote in a dialog, edit, and delete (the server refuses while apps use
 * the database and says which). A row opens the database's section.
 */
export function DatabaseListPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const query = useSpaceQuery({ key: DATABASES, fetch: (signal) => databaseEndpoints.list({ signal }) });
  const remoteAllowed = useRemoteAllowed();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Database | null>(null);
  const [createForm] = Form.useForm<DatabaseValues>();
  const [editForm] = Form.useForm<DatabaseValues>();
  const databases = query.data ?? [];

  const remove = async (database: Database) => {
    const result = await databaseEndpoints.remove(database.id);
    if (!result.ok) return;
    await invalidateSpace(DATABASES);
    feedback.success(t("database.list.deleted", { name: database.name }));
  };

  const create = async (values: DatabaseValues) => {
    const result = await databaseEndpoints.create(createBody(values));
    if (!result.ok) {
      showDatabaseError(createForm, result.error);
      return false;
    }
    await invalidateSpace(DATABASES);
    setCreating(false);
    feedback.success(t("database.list.created", { name: result.data.name }));
    navigate(databasePath(result.data.type === "builtin" ? "tableConfig" : "databaseConfig", result.data.id));
    return true;
  };

  const save = async (values: DatabaseValues) => {
    if (!editing) return false;
    const result = await databaseEndpoints.update(editing.id, updateBody(values, editing.type === "remote"));
    if (!result.ok) {
      showDatabaseError(editForm, result.error);
      return false;
    }
    await invalidateSpace(DATABASES);
    setEditing(null);
    feedback.success(t("database.saved"));
    return true;
  };

  const createButton = (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="database-create">
      {t("database.list.create")}
    </Button>
  );

  return (
    <div data-testid="database-list">
      <PageHeader title={t("screens.database.title")} subtitle={t("screens.database.description")} extra={createButton} />
      <div className="pl-card">
        {!query.isFetching && databases.length === 0 && !query.isError ? (
          <EmptyState
            icon={<DatabaseOutlined className="pl-db-empty-icon" />}
            title={t("database.list.emptyTitle")}
            description={t("database.list.emptyDescription")}
            action={createButton}
            data-testid="database-empty"
          />
        ) : (
          <Table<Database>
            rowKey="id"
            loading={query.isFetching && databases.length === 0}
            dataSource={databases}
            pagination={false}
            onRow={(database) => ({ "data-testid": `database-row-${database.name}` }) as React.HTMLAttributes<HTMLElement>}
            columns={[
              {
                title: t("database.form.name"),
                key: "name",
                render: (_, database) => (
                  <Space direction="vertical" size={0}>
                    <Typography.Link
                      onClick={() => navigate(databasePath(database.type === "builtin" ? "preview" : "databaseConfig", database.id))}
                      data-testid="database-open"
                    >
                      {database.name}
                    </Typography.Link>
                    {database.description ? <Typography.Text type="secondary">{database.description}</Typography.Text> : null}
                  </Space>
                ),
              },
              {
                title: t("database.form.type"),
                key: "type",
                render: (_, database) => <Tag color={database.type === "remote" ? "purple" : "blue"}>{t(`database.types.${database.type}`)}</Tag>,
              },
              {
                title: t("database.form.permissions"),
                key: "permissions",
                render: (_, database) =>
                  PERMISSION_KEYS.filter((key) => database.permissions[key]).map((key) => <Tag key={key}>{t(`database.permissions.${key}`)}</Tag>),
              },
              { title: t("database.list.tables"), dataIndex: "tableCount", key: "tables" },
              { title: t("database.list.rows"), key: "rows", render: (_, database) => (database.type === "builtin" ? database.rowCount : "—") },
              {
                title: t("database.list.boundApps"),
                key: "boundApps",
                render: (_, database) =>
                  database.boundApps.length === 0 ? (
                    <Typography.Text type="secondary">{t("database.list.noApps")}</Typography.Text>
                  ) : (
                    <span data-testid={`database-bound-${database.id}`}>
                      {database.boundApps.map((app) => (
                        <Tag key={app.id}>{app.name}</Tag>
                      ))}
                    </span>
                  ),
              },
              { title: t("database.list.updated"), key: "updated", render: (_, database) => formatDateTime(database.updatedAt, i18n.language) },
              {
                title: t("database.list.actions"),
                key: "actions",
                render: (_, database) => (
                  <Space>
                    <Button size="small" icon={<EditOutlined />} onClick={() => setEditing(database)} data-testid="database-edit">
                      {t("database.actions.edit")}
                    </Button>
                    <Popconfirm
                      title={t("database.list.deleteTitle", { name: database.name })}
                      description={t("database.list.deleteHint")}
                      okText={t("common.delete")}
                      cancelText={t("common.cancel")}
                      okButtonProps={{ danger: true, "data-testid": "database-delete-confirm" }}
                      onConfirm={() => remove(database)}
                    >
                      <Button size="small" danger icon={<DeleteOutlined />} data-testid="database-delete">
                        {t("common.delete")}
                      </Button>
                    </Popconfirm>
                  </Space>
                ),
              },
            ]}
          />
        )}
      </div>
      <FormDialog<DatabaseValues>
        open={creating}
        title={t("database.list.create")}
        okText={t("database.actions.create")}
        form={createForm}
        initialValues={{ type: "builtin", permissions: ["query"], dialect: "mysql", port: 3306 }}
        onSubmit={create}
        onClose={() => setCreating(false)}
        submitTestId="database-create-submit"
        formTestId="database-create-form"
      >
        <DatabaseCreateFields remoteAllowed={remoteAllowed} />
      </FormDialog>
      <FormDialog<DatabaseValues>
        open={editing !== null}
        title={t("database.list.edit")}
        okText={t("common.save")}
        form={editForm}
        initialValues={editing ? databaseValues(editing) : undefined}
        onSubmit={save}
        onClose={() => setEditing(null)}
        submitTestId="database-edit-submit"
      >
        <DatabaseBasicFields />
        {editing?.type === "remote" && <RemoteConnectionFields editing />}
      </FormDialog>
    </div>
  );
}
