import { Button, Descriptions, Form, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { DATABASES, databaseEndpoints } from "../../lib/api/databases";
import { invalidateSpace, setSpaceData } from "../../lib/api/query";
import { feedback } from "../../lib/feedback";
import { formatDateTime } from "../../lib/format";
import { DatabaseBasicFields, type DatabaseValues, databaseValues, RemoteConnectionFields, showDatabaseError, updateBody } from "./database-form";
import { databaseKey, useDatabase } from "./database-section-layout";
import { RemoteDatabaseConfig } from "./remote-config";

/**
 * /console/database/databaseConfig?id=…: name, description and permissions (at least one);
 * a built-in database's table and row counts; a remote database's connection (host, port,
 * username, database name, a write-only password that blank keeps). The remote connection
 * test and online tables go below the connection.
 */
export function DatabaseConfigPage() {
  const { t, i18n } = useTranslation();
  const { database } = useDatabase();
  const [form] = Form.useForm<DatabaseValues>();
  const [saving, setSaving] = useState(false);
  const remote = database.type === "remote";

  useEffect(() => {
    form.setFieldsValue(databaseValues(database));
  }, [database, form]);

  const save = async (values: DatabaseValues) => {
    setSaving(true);
    const result = await databaseEndpoints.update(database.id, updateBody(values, remote));
    setSaving(false);
    if (!result.ok) {
      showDatabaseError(form, result.error);
      return;
    }
    setSpaceData(databaseKey(database.id), () => result.data);
    await invalidateSpace(DATABASES);
    form.setFieldValue("password", "");
    feedback.success(t("database.saved"));
  };

  return (
    <div className="pl-card" data-testid="database-config">
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2, lg: 4 }}
        className="pl-db-toolbar"
        items={[
          { key: "type", label: t("database.form.type"), children: t(`database.types.${database.type}`) },
          { key: "tables", label: t("database.list.tables"), children: <span data-testid="database-config-tables">{database.tableCount}</span> },
          ...(remote ? [] : [{ key: "rows", label: t("database.list.rows"), children: <span data-testid="database-config-rows">{database.rowCount}</span> }]),
          {
            key: "created",
            label: t("database.config.created"),
            children: `${formatDateTime(database.createdAt, i18n.language)}${database.creatorName ? ` · ${database.creatorName}` : ""}`,
          },
        ]}
      />
      <Form<DatabaseValues> form={form} layout="vertical" onFinish={(values) => void save(values)} style={{ maxWidth: 720 }} data-testid="database-config-form">
        <DatabaseBasicFields />
        {remote && (
          <>
            <Typography.Title level={5}>{t("database.config.connection")}</Typography.Title>
            <RemoteConnectionFields editing />
          </>
        )}
        <Button type="primary" htmlType="submit" loading={saving} data-testid="database-config-save">
          {t("common.save")}
        </Button>
      </Form>
      {remote && <RemoteDatabaseConfig databaseId={database.id} />}
    </div>
  );
}
