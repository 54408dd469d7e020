import { Checkbox, Col, Form, Input, InputNumber, Radio, Row, Select, Tooltip } from "antd";
import type { FormInstance } from "antd";
import { useTranslation } from "react-i18next";
import type { ConnectionTestInput } from "../../lib/api/database-remote";
import type { CreateDatabase, Database, UpdateDatabase } from "../../lib/api/databases";
import { type ApiFailure, handledByRequestLayer } from "../../lib/api/request";
import { feedback } from "../../lib/feedback";
import { i18n } from "../../i18n";
import { RemoteConnectionTest } from "./remote-config";
import { checkPermissions, checkPort, chosenPermissions, DATABASE_LIMITS, DEFAULT_PORTS, PERMISSION_KEYS, permissionsOf } from "./database-rules";

/** The editable fields of a database. */
export interface DatabaseValues {
  type: "builtin" | "remote";
  name: string;
  description?: string;
  permissions: string[];
  dialect?: "mysql" | "postgres";
  host?: string;
  port?: number | null;
  username?: string;
  password?: string;
  databaseName?: string;
}

const FIELDS = new Set(["type", "name", "description", "permissions", "dialect", "host", "port", "username", "password", "databaseName"]);

/** Shows a refused save on the field the server names, else as a message. */
export function showDatabaseError(form: FormInstance, error: ApiFailure): void {
  if (error.kind === "aborted" || error.kind === "unauthenticated") return;
  const field = error.field?.split(".")[0];
  if (field && FIELDS.has(field)) {
    form.setFields([{ name: field, errors: [error.message] }]);
    return;
  }
  if (error.kind === "http" && !handledByRequestLayer(error)) feedback.error(error.message || i18n.t("errors.generic"));
}

/** The form's values of a database being edited. */
export function databaseValues(database: Database): DatabaseValues {
  return {
    type: database.type,
    name: database.name,
    description: database.description,
    permissions: chosenPermissions(database.permissions),
    dialect: database.remote?.dialect ?? "mysql",
    host: database.remote?.host ?? "",
    port: database.remote?.port ?? null,
    username: database.remote?.username ?? "",
    password: "",
    databaseName: database.remote?.databaseName ?? "",
  };
}

/** What create sends: trimmed, remote fields only for a remote database. */
export function createBody(values: DatabaseValues): CreateDatabase {
  return { ...updateBody(values, values.type === "remote"), type: values.type, name: values.name.trim() };
}

/** What update sends; an empty password keeps the stored one. */
export function updateBody(values: DatabaseValues, remote: boolean): UpdateDatabase {
  const body: UpdateDatabase = {
    name: values.name.trim(),
    description: (values.description ?? "").trim(),
    permissions: permissionsOf(values.permissions),
  };
  if (remote) {
    body.dialect = values.dialect ?? "mysql";
    body.host = (values.host ?? "").trim();
    body.port = values.port ?? undefined;
    body.username = (values.username ?? "").trim();
    body.databaseName = (values.databaseName ?? "").trim();
    if (values.password) body.password = values.password;
  }
  return body;
}

const checked = (check: (value: unknown) => string | undefined) => ({
  validator: async (_rule: unknown, value: unknown) => {
    const key = check(value);
    if (key) throw new Error(i18n.t(key));
  },
});

/** Name, description and permissions (spec §3, §5). */
export function DatabaseBasicFields() {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item
        name="name"
        label={t("database.form.name")}
        rules={[
          { required: true, whitespace: true, message: t("database.rules.nameRequired") },
          { max: DATABASE_LIMITS.nameMax, message: t("database.rules.tooLong", { max: DATABASE_LIMITS.nameMax }) },
        ]}
      >
        <Input maxLength={DATABASE_LIMITS.nameMax} data-testid="database-name" />
      </Form.Item>
      <Form.Item name="description" label={t("database.form.description")} rules={[{ max: DATABASE_LIMITS.descriptionMax }]}>
        <Input.TextArea rows={2} showCount maxLength={DATABASE_LIMITS.descriptionMax} data-testid="database-description" />
      </Form.Item>
      <Form.Item
        name="permissions"
        label={t("database.form.permissions")}
        extra={t("database.form.permissionsHint")}
        rules={[checked((value) => checkPermissions(value as string[]))]}
      >
        <Checkbox.Group
          options={PERMISSION_KEYS.map((key) => ({
            value: key,
            label: <span data-testid={`database-permission-${key}`}>{t(`database.permissions.${key}`)}</span>,
          }))}
        />
      </Form.Item>
    </>
  );
}

/** Host, port, username, password and database name of a remote database (spec §3, §5). */
export function RemoteConnectionFields({ editing }: { editing: boolean }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const required = (key: string) => ({ required: true, whitespace: true, message: t("database.rules.required", { field: t(key) }) });
  return (
    <>
      <Form.Item name="dialect" label={t("database.form.dialect")} rules={[{ required: true }]}>
        <Select
          data-testid="database-dialect"
          onChange={(dialect: "mysql" | "postgres") => {
            const port = form.getFieldValue("port") as number | null | undefined;
            if (!port || Object.values(DEFAULT_PORTS).includes(port as 3306)) form.setFieldValue("port", DEFAULT_PORTS[dialect]);
          }}
          options={[
            { value: "mysql", label: t("database.dialects.mysql") },
            { value: "postgres", label: t("database.dialects.postgres") },
          ]}
        />
      </Form.Item>
      <Row gutter={12}>
        <Col span={16}>
          <Form.Item name="host" label={t("database.form.host")} rules={[required("database.form.host"), { max: DATABASE_LIMITS.hostMax }]}>
            <Input placeholder="db.example.com" data-testid="database-host" />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item name="port" label={t("database.form.port")} rules={[checked(checkPort)]}>
            <InputNumber className="pl-db-wide" precision={0} data-testid="database-port" />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={12}>
        <Col span={12}>
          <Form.Item name="username" label={t("database.form.username")} rules={[required("database.form.username"), { max: DATABASE_LIMITS.usernameMax }]}>
            <Input autoComplete="off" data-testid="database-username" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            name="password"
            label={t("database.form.password")}
            extra={editing ? t("database.form.passwordKeep") : undefined}
            rules={editing ? [{ max: DATABASE_LIMITS.passwordMax }] : [required("database.form.password"), { max: DATABASE_LIMITS.passwordMax }]}
          >
            <Input.Password autoComplete="new-password" data-testid="database-password" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item
        name="databaseName"
        label={t("database.form.databaseName")}
        rules={[required("database.form.databaseName"), { max: DATABASE_LIMITS.databaseNameMax }]}
      >
        <Input data-testid="database-database-name" />
      </Form.Item>
    </>
  );
}

/** The create form: type (remote disabled with the reason when the plan lacks it), then the fields of that type. */
export function DatabaseCreateFields({ remoteAllowed }: { remoteAllowed: boolean }) {
  const { t } = useTranslation();
  const type = Form.useWatch("type") as DatabaseValues["type"] | undefined;
  const form = Form.useFormInstance();
  return (
    <>
      <Form.Item name="type" label={t("database.form.type")}>
        <Radio.Group>
          <Radio value="builtin">
            <span data-testid="database-type-builtin">{t("database.types.builtin")}</span>
          </Radio>
          <Tooltip title={remoteAllowed ? undefined : t("database.form.remoteNeedsPlan")}>
            <Radio value="remote" disabled={!remoteAllowed}>
              <span data-testid="database-type-remote">{t("database.types.remote")}</span>
            </Radio>
          </Tooltip>
        </Radio.Group>
      </Form.Item>
      {!remoteAllowed && (
        <div className="pl-db-note" data-testid="database-remote-locked">
          {t("database.form.remoteNeedsPlan")}
        </div>
      )}
      <DatabaseBasicFields />
      {type === "remote" && (
        <>
          <RemoteConnectionFields editing={false} />
          <Form.Item>
            <RemoteConnectionTest settings={() => connectionSettings(form)} />
          </Form.Item>
        </>
      )}
    </>
  );
}

/** The unsaved connection settings of the create form, for a connection test before saving. */
function connectionSettings(form: FormInstance): ConnectionTestInput {
  const values = form.getFieldsValue(["dialect", "host", "port", "username", "password", "databaseName"]) as Partial<Record<string, unknown>>;
  const text = (key: string) => (typeof values[key] === "string" ? (values[key] as string).trim() : undefined);
  return {
    dialect: values.dialect === "postgres" ? "postgres" : "mysql",
    host: text("host"),
    port: typeof values.port === "number" ? values.port : undefined,
    username: text("username"),
    password: typeof values.password === "string" ? values.password : undefined,
    databaseName: text("databaseName"),
  };
}
