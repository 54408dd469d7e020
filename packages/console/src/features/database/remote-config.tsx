import { ApiOutlined, ReloadOutlined } from "@ant-design/icons";
import { Alert, Button, Card, Checkbox, Flex, Input, Space, Table, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { type ConnectionTestInput, type ConnectionTestResult, databaseRemoteEndpoints, type OnlineTable, onlineTablesKey } from "../../lib/api/database-remote";
import { invalidateSpace, useSpaceQuery } from "../../lib/api/query";
import { useGrant } from "../../lib/api/session";
import { feedback } from "../../lib/feedback";
import { choicesOf, type Draft, draftsOf } from "./remote-tables";

type Outcome = { ok: true; result: ConnectionTestResult } | { ok: false; message: string; field?: string | undefined };

/**
 * The "Test connection" button with its result: the latency and the server's version, or the
 * server's reason (down, refused login, refused address). Pass unsaved settings from a create
 * dialog, or `{ databaseId }` (with any field being changed) for a saved database. Nothing is
 * stored by a test.
 */
export function RemoteConnectionTest({ settings, disabled }: { settings: ConnectionTestInput | (() => ConnectionTestInput); disabled?: boolean }) {
  const { t } = useTranslation();
  const [testing, setTesting] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | undefined>();
  const test = async () => {
    setTesting(true);
    setOutcome(undefined);
    try {
      const answer = await databaseRemoteEndpoints.testConnection(typeof settings === "function" ? settings() : settings);
      setOutcome(answer.ok ? { ok: true, result: answer.data } : { ok: false, message: answer.error.message, field: answer.error.field });
    } finally {
      setTesting(false);
    }
  };
  return (
    <Space direction="vertical" style={{ width: "100%" }}>
      <Button icon={<ApiOutlined />} loading={testing} disabled={disabled} onClick={() => void test()} data-testid="remote-connection-test">
        {t("databaseRemote.test.button")}
      </Button>
      {outcome?.ok === true && (
        <Alert
          type="success"
          showIcon
          data-testid="remote-connection-ok"
          message={t("databaseRemote.test.ok")}
          description={t("databaseRemote.test.details", { latency: outcome.result.latencyMs, version: outcome.result.serverVersion })}
        />
      )}
      {outcome?.ok === false && (
        <Alert
          type="error"
          showIcon
          data-testid="remote-connection-failed"
          message={t("databaseRemote.test.failed")}
          description={outcome.field ? `${outcome.message} (${t("databaseRemote.test.field", { field: outcome.field })})` : outcome.message}
        />
      )}
    </Space>
  );
}

/**
 * A remote database's online settings: the connection test, and the online tables chooser (the
 * server's tables with their comments and row estimates; choose the ones the model may use and
 * describe them and their columns; Save re-reads the live schema on the server).
 */
export function RemoteDatabaseConfig({ databaseId }: { databaseId: string }) {
  const { t } = useTranslation();
  const canEdit = useGrant("database.edit");
  const online = useSpaceQuery({ key: onlineTablesKey(databaseId), fetch: (signal) => databaseRemoteEndpoints.onlineTables(databaseId, { signal }) });
  const [edited, setEdited] = useState<Record<string, Draft> | undefined>();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const tables = online.data ?? [];
  const drafts = edited ?? draftsOf(tables);
  const change = (name: string, update: (draft: Draft) => Draft) =>
    setEdited({ ...drafts, [name]: update(drafts[name] ?? { chosen: false, description: "", columns: {} }) });

  const save = async () => {
    setSaving(true);
    setError(undefined);
    try {
      const answer = await databaseRemoteEndpoints.saveOnlineTables(databaseId, choicesOf(tables, drafts));
      if (!answer.ok) {
        setError(answer.error.message);
        return;
      }
      setEdited(undefined);
      await invalidateSpace(["databases"]);
      feedback.success(t("databaseRemote.tables.saved", { count: answer.data.filter((table) => table.chosen).length }));
    } finally {
      setSaving(false);
    }
  };

  const chosenCount = tables.filter((table) => drafts[table.name]?.chosen).length;
  return (
    <Space direction="vertical" size="large" style={{ width: "100%" }}>
      <Card title={t("databaseRemote.test.title")} size="small">
        {canEdit ? <RemoteConnectionTest settings={{ databaseId }} /> : <Typography.Text type="secondary">{t("databaseRemote.test.viewOnly")}</Typography.Text>}
      </Card>
      <Card
        size="small"
        title={t("databaseRemote.tables.title")}
        extra={
          <Space>
            <Button icon={<ReloadOutlined />} loading={online.isFetching} onClick={() => void online.refetch()} data-testid="remote-tables-reload">
              {t("databaseRemote.tables.reload")}
            </Button>
            {canEdit && (
              <Button type="primary" loading={saving} disabled={!online.data} onClick={() => void save()} data-testid="remote-tables-save">
                {t("databaseRemote.tables.save", { count: chosenCount })}
              </Button>
            )}
          </Space>
        }
      >
        <Space direction="vertical" style={{ width: "100%" }}>
          <Typography.Text type="secondary">{t("databaseRemote.tables.hint")}</Typography.Text>
          {online.isError && <Alert type="error" showIcon message={t("databaseRemote.tables.loadFailed")} description={online.error.message} />}
          {error && <Alert type="error" showIcon message={error} data-testid="remote-tables-error" />}
          <Table<OnlineTable>
            rowKey="name"
            size="small"
            loading={online.isPending}
            dataSource={tables}
            pagination={false}
            locale={{ emptyText: t("databaseRemote.tables.empty") }}
            expandable={{
              rowExpandable: (table) => table.columns.length > 0,
              expandedRowRender: (table) => (
                <Table
                  rowKey="name"
                  size="small"
                  pagination={false}
                  dataSource={table.columns}
                  columns={[
                    { title: t("databaseRemote.columns.name"), dataIndex: "name", render: (name: string) => <Typography.Text code>{name}</Typography.Text> },
                    { title: t("databaseRemote.columns.type"), dataIndex: "type" },
                    { title: t("databaseRemote.columns.comment"), dataIndex: "comment" },
                    {
                      title: t("databaseRemote.columns.description"),
                      render: (_, column) => (
                        <Input
                          size="small"
                          maxLength={500}
                          disabled={!canEdit || !drafts[table.name]?.chosen}
                          placeholder={column.comment || t("databaseRemote.columns.descriptionPlaceholder")}
                          value={drafts[table.name]?.columns[column.name] ?? ""}
                          onChange={(event) => change(table.name, (draft) => ({ ...draft, columns: { ...draft.columns, [column.name]: event.target.value } }))}
                          data-testid={`remote-column-description-${table.name}-${column.name}`}
                        />
                      ),
                    },
                  ]}
                />
              ),
            }}
            columns={[
              {
                title: t("databaseRemote.tables.chosen"),
                width: 72,
                render: (_, table) => (
                  <Checkbox
                    checked={drafts[table.name]?.chosen ?? false}
                    disabled={!canEdit}
                    onChange={(event) => change(table.name, (draft) => ({ ...draft, chosen: event.target.checked }))}
                    data-testid={`remote-table-choose-${table.name}`}
                  />
                ),
              },
              { title: t("databaseRemote.tables.name"), dataIndex: "name", render: (name: string) => <Typography.Text code>{name}</Typography.Text> },
              { title: t("databaseRemote.tables.comment"), dataIndex: "comment" },
              {
                title: t("databaseRemote.tables.rows"),
                dataIndex: "rowsEstimate",
                width: 110,
                render: (estimate: number | null) => (estimate === null ? "—" : t("databaseRemote.tables.rowsEstimate", { count: estimate })),
              },
              {
                title: t("databaseRemote.tables.description"),
                render: (_, table) => (
                  <Flex>
                    <Input
                      size="small"
                      maxLength={1000}
                      disabled={!canEdit || !drafts[table.name]?.chosen}
                      placeholder={table.comment || t("databaseRemote.tables.descriptionPlaceholder")}
                      value={drafts[table.name]?.description ?? ""}
                      onChange={(event) => change(table.name, (draft) => ({ ...draft, description: event.target.value }))}
                      data-testid={`remote-table-description-${table.name}`}
                    />
                  </Flex>
                ),
              },
            ]}
          />
        </Space>
      </Card>
    </Space>
  );
}
