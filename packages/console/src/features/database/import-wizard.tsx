import { InboxOutlined } from "@ant-design/icons";
import { Alert, Button, Modal, Result, Select, Space, Steps, Switch, Table, Typography, Upload } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { databaseEndpoints, type DatabaseImportResult, type DatabasePreParse, type DatabaseTable } from "../../lib/api/databases";
import { type ColumnMatching, initialMatching, mappingBody, matchColumn, prefersFastImport, unmatchedFields } from "./database-rules";

/** Props of {@link ImportWizard}. */
export interface ImportWizardProps {
  open: boolean;
  table: DatabaseTable;
  onClose: () => void;
  /** After rows were imported. */
  onImported: () => void;
}

type Step = "upload" | "match" | "done";

/**
 * The import wizard of a built-in table: upload a CSV or XLSX, read the server's pre-parse
 * (first rows, GBK note, suggested matching), edit the column matching, then import — the fast
 * import for large files — and show how many rows arrived or why none did.
 */
export function ImportWizard({ open, table, onClose, onImported }: ImportWizardProps) {
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>("upload");
  const [file, setFile] = useState<File | null>(null);
  const [parsed, setParsed] = useState<DatabasePreParse | null>(null);
  const [matching, setMatching] = useState<ColumnMatching>({});
  const [fast, setFast] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<DatabaseImportResult | null>(null);

  const reset = () => {
    setStep("upload");
    setFile(null);
    setParsed(null);
    setMatching({});
    setError(null);
    setResult(null);
  };
  const close = () => {
    reset();
    onClose();
  };

  const read = async (chosen: File) => {
    setFile(chosen);
    setFast(prefersFastImport(chosen.size));
    setBusy(true);
    setError(null);
    const answer = await databaseEndpoints.preParse(table.id, chosen, chosen.name);
    setBusy(false);
    if (!answer.ok) {
      setError(answer.error.message);
      return;
    }
    setParsed(answer.data);
    setMatching(initialMatching(answer.data));
    setStep("match");
  };

  const run = async () => {
    if (!file) return;
    setBusy(true);
    setError(null);
    const answer = await databaseEndpoints.importFile(table.id, file, file.name, mappingBody(matching), fast);
    setBusy(false);
    if (!answer.ok) {
      setError(answer.error.message);
      return;
    }
    setResult(answer.data);
    setStep("done");
    onImported();
  };

  const missing = unmatchedFields(matching, table.fields);
  const nothingMatched = Object.keys(mappingBody(matching)).length === 0;

  return (
    <Modal
      open={open}
      title={t("database.import.title", { name: table.name })}
      onCancel={close}
      width={880}
      destroyOnHidden
      footer={
        step === "match" ? (
          <Space>
            <Button onClick={reset}>{t("database.import.back")}</Button>
            <Button type="primary" loading={busy} disabled={nothingMatched} onClick={() => void run()} data-testid="database-import-run">
              {t(fast ? "database.import.runFast" : "database.import.run")}
            </Button>
          </Space>
        ) : (
          <Button onClick={close} data-testid="database-import-close">
            {t(step === "done" ? "database.actions.close" : "common.cancel")}
          </Button>
        )
      }
    >
      <Steps
        size="small"
        current={step === "upload" ? 0 : step === "match" ? 1 : 2}
        items={[{ title: t("database.import.stepUpload") }, { title: t("database.import.stepMatch") }, { title: t("database.import.stepDone") }]}
        className="pl-db-toolbar"
      />
      {error && <Alert type="error" showIcon message={error} className="pl-db-toolbar" data-testid="database-import-error" />}
      {step === "upload" && (
        <Upload.Dragger
          accept=".csv,.xlsx"
          multiple={false}
          showUploadList={false}
          disabled={busy}
          beforeUpload={(chosen) => {
            void read(chosen);
            return false;
          }}
          data-testid="database-import-upload"
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{t(busy ? "database.import.reading" : "database.import.drop")}</p>
          <p className="ant-upload-hint">{t("database.import.hint")}</p>
        </Upload.Dragger>
      )}
      {step === "match" && parsed && (
        <Space direction="vertical" size={12} className="pl-db-wide">
          <Typography.Text data-testid="database-import-file">
            {parsed.fileName} · {parsed.format.toUpperCase()}
            {parsed.encoding ? ` · ${parsed.encoding.toUpperCase()}` : ""}
          </Typography.Text>
          {parsed.encodingNote && <Alert type="info" showIcon message={parsed.encodingNote} data-testid="database-import-encoding" />}
          <Table
            size="small"
            rowKey="column"
            pagination={false}
            dataSource={parsed.header.map((column, index) => ({ column, index }))}
            data-testid="database-import-matching"
            columns={[
              { title: t("database.import.column"), dataIndex: "column", key: "column" },
              {
                title: t("database.import.sample"),
                key: "sample",
                render: (_, { index }) => (
                  <span className="pl-db-cell">
                    {parsed.rows
                      .slice(0, 3)
                      .map((row) => row[index] ?? "")
                      .join(" · ")}
                  </span>
                ),
              },
              {
                title: t("database.import.field"),
                key: "field",
                render: (_, { column }) => (
                  <Select
                    className="pl-db-wide"
                    value={matching[column] ?? ""}
                    onChange={(value: string) => setMatching((current) => matchColumn(current, column, value || null))}
                    options={[
                      { value: "", label: t("database.import.skip") },
                      ...table.fields.map((field) => ({ value: field.name, label: `${field.name} (${t(`database.fieldTypes.${field.type}`)})` })),
                    ]}
                    data-testid={`database-import-match-${column}`}
                  />
                ),
              },
            ]}
          />
          {missing.length > 0 && <Typography.Text type="secondary">{t("database.import.unmatched", { fields: missing.join(", ") })}</Typography.Text>}
          <Typography.Text type="secondary">{t("database.import.previewRows", { count: parsed.rows.length })}</Typography.Text>
          <Space>
            <Switch checked={fast} onChange={setFast} data-testid="database-import-fast" />
            <span>{t("database.import.fast")}</span>
          </Space>
        </Space>
      )}
      {step === "done" && result && (
        <Result
          status="success"
          title={<span data-testid="database-import-result">{t("database.import.done", { count: result.importedRows })}</span>}
          subTitle={result.encodingNote ?? undefined}
        />
      )}
    </Modal>
  );
}
