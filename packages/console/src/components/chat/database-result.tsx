import { Alert, Button, Card, Flex, Table, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { endpoints } from "../../lib/api/endpoints";
import type { ResultTable, WriteConfirmation } from "./chat-state";

/** Rows a database read answered, as a compact table under the answer. */
export function DatabaseResultTable({ table }: { table: ResultTable }) {
  const { t } = useTranslation();
  const columns = table.columns.map((name, index) => ({
    key: String(index),
    title: name,
    dataIndex: String(index),
    render: (value: unknown) => (value === null ? <Typography.Text type="secondary">NULL</Typography.Text> : String(value)),
  }));
  const rows = table.rows.map((row, index) => ({ key: index, ...Object.fromEntries(row.map((value, column) => [String(column), value])) }));
  return (
    <div className="pl-msg__table" data-testid="chat-db-table">
      <Table size="small" columns={columns} dataSource={rows} pagination={false} scroll={{ x: "max-content", y: 320 }} bordered />
      {table.truncated ? (
        <Typography.Text type="secondary" data-testid="chat-db-table-truncated">
          {t("chatDatabase.truncated", { count: table.rows.length })}
        </Typography.Text>
      ) : null}
    </div>
  );
}

/** A write the model asked for: the exact statement, run once when the person confirms it. */
export function WriteConfirmationCard({ confirmation }: { confirmation: WriteConfirmation }) {
  const { t } = useTranslation();
  const [state, setState] = useState<{ status: "waiting" | "running" | "done" | "failed"; message?: string }>({ status: "waiting" });
  const confirm = async () => {
    setState({ status: "running" });
    const result = await endpoints.chat.confirmDatabaseWrite(confirmation.id, { silent: true });
    if (result.ok) setState({ status: "done", message: t("chatDatabase.done", { count: result.data.affectedRows }) });
    else setState({ status: "failed", message: result.error.message });
  };
  return (
    <Card
      size="small"
      className="pl-msg__confirm"
      data-testid="chat-db-confirm"
      title={t("chatDatabase.confirmTitle", { database: confirmation.databaseName })}
    >
      <Flex vertical gap={8}>
        <Typography.Text type="secondary">{t(`chatDatabase.kind.${confirmation.kind}`)}</Typography.Text>
        <pre className="pl-msg__sql" data-testid="chat-db-confirm-sql">
          {confirmation.sql}
        </pre>
        {state.status === "done" ? <Alert type="success" showIcon message={state.message} data-testid="chat-db-confirm-done" /> : null}
        {state.status === "failed" ? <Alert type="error" showIcon message={state.message} data-testid="chat-db-confirm-failed" /> : null}
        {state.status === "waiting" || state.status === "running" ? (
          <Flex justify="flex-end">
            <Button type="primary" loading={state.status === "running"} onClick={() => void confirm()} data-testid="chat-db-confirm-run">
              {t("chatDatabase.confirm")}
            </Button>
          </Flex>
        ) : null}
      </Flex>
    </Card>
  );
}
