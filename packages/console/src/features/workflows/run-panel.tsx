import { CaretRightOutlined } from "@ant-design/icons";
import { Alert, Button, Empty, Form, Input, InputNumber, Select, Switch, Typography } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { missingVariables, nodeReferences, variableValues } from "./run-inputs";
import type { StartVariable, WorkflowElement } from "./workflow-model";

/** What a FLOW run is given: the text, start variables by identifier, file URLs. */
export interface FlowInputs {
  query: string;
  variables: Record<string, unknown>;
  files: string[];
}

/** Props of {@link RunInputsForm}. */
export interface RunInputsFormProps {
  /** The start node (its inputs and variables make the form); undefined when the graph has none. */
  start?: WorkflowElement;
  running: boolean;
  onRun: (inputs: FlowInputs) => void;
}

/** The run inputs: text, image/file URLs and a field per start variable, then Run. */
export function RunInputsForm({ start, running, onRun }: RunInputsFormProps) {
  const { t } = useTranslation();
  const [query, setQuery] = useState("");
  const [files, setFiles] = useState<string[]>([]);
  const [raw, setRaw] = useState<Record<string, unknown>>(() => defaults(start));
  const [missing, setMissing] = useState<string[]>([]);
  if (!start) return <Alert type="warning" showIcon title={t("workflows.run.noStart")} />;
  const inputs = (start.config.inputs as { text?: boolean; image?: boolean; file?: boolean } | undefined) ?? { text: true };
  const variables = (start.config.variables as StartVariable[] | undefined) ?? [];
  const set = (identifier: string, value: unknown) => setRaw((current) => ({ ...current, [identifier]: value }));

  const submit = () => {
    const absent = missingVariables(variables, raw);
    setMissing(absent);
    if (absent.length > 0) return;
    onRun({ query, variables: variableValues(variables, raw), files });
  };

  return (
    <Form layout="vertical" data-testid="wf-run-form" onFinish={submit}>
      {inputs.text !== false ? (
        <Form.Item label={t("workflows.run.query")}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} value={query} onChange={(event) => setQuery(event.target.value)} data-testid="wf-run-query" />
        </Form.Item>
      ) : null}
      {inputs.image || inputs.file ? (
        <Form.Item label={t("workflows.run.files")} extra={t("workflows.run.filesHint")}>
          <Select mode="tags" open={false} value={files} onChange={setFiles} data-testid="wf-run-files" />
        </Form.Item>
      ) : null}
      {variables.map((variable) => (
        <Form.Item
          key={variable.identifier}
          label={variable.displayName || variable.identifier}
          required={variable.required}
          validateStatus={missing.includes(variable.identifier) ? "error" : undefined}
          help={missing.includes(variable.identifier) ? t("workflows.run.required") : undefined}
          extra={variable.prompt}
        >
          <VariableInput variable={variable} value={raw[variable.identifier]} onChange={(value) => set(variable.identifier, value)} />
        </Form.Item>
      ))}
      <Button type="primary" htmlType="submit" icon={<CaretRightOutlined />} loading={running} block data-testid="wf-run-start">
        {t("workflows.run.start")}
      </Button>
    </Form>
  );
}

function defaults(start: WorkflowElement | undefined): Record<string, unknown> {
  const variables = (start?.config.variables as StartVariable[] | undefined) ?? [];
  return Object.fromEntries(
    variables.filter((variable) => variable.default !== undefined && variable.default !== null).map((variable) => [variable.identifier, variable.default]),
  );
}

function VariableInput({ variable, value, onChange }: { variable: StartVariable; value: unknown; onChange: (value: unknown) => void }) {
  const testId = `wf-run-variable-${variable.identifier}`;
  switch (variable.type) {
    case "number":
      return (
        <InputNumber
          value={typeof value === "number" ? value : value === undefined || value === "" ? null : Number(value)}
          onChange={(next) => onChange(next ?? "")}
          placeholder={variable.prompt}
          data-testid={testId}
        />
      );
    case "select":
      return (
        <Select
          value={value as string | undefined}
          onChange={onChange}
          options={(variable.options ?? []).map((option) => ({ value: option, label: option }))}
          allowClear
          data-testid={testId}
        />
      );
    case "boolean":
      return <Switch checked={value === true || value === "true"} onChange={onChange} data-testid={testId} />;
    case "paragraph":
      return (
        <Input.TextArea
          autoSize={{ minRows: 2, maxRows: 6 }}
          value={String(value ?? "")}
          onChange={(event) => onChange(event.target.value)}
          placeholder={variable.prompt}
          data-testid={testId}
        />
      );
    default:
      return <Input value={String(value ?? "")} onChange={(event) => onChange(event.target.value)} placeholder={variable.prompt} data-testid={testId} />;
  }
}

/** Props of {@link NodeRunForm}. */
export interface NodeRunFormProps {
  element: WorkflowElement;
  running: boolean;
  onRun: (nodeInputs: Record<string, string>) => void;
}

/** Run one node (NODE): a value for each reference it reads, then Run. */
export function NodeRunForm({ element, running, onRun }: NodeRunFormProps) {
  const { t } = useTranslation();
  const references = useMemo(() => nodeReferences(element), [element]);
  const [values, setValues] = useState<Record<string, string>>({});
  return (
    <Form layout="vertical" data-testid="wf-node-run-form" onFinish={() => onRun(values)}>
      <Typography.Paragraph type="secondary">{t("workflows.run.nodeIntro", { name: element.config.name })}</Typography.Paragraph>
      {references.length === 0 ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("workflows.run.noReferences")} /> : null}
      {references.map((reference) => (
        <Form.Item key={reference} label={`{{${reference}}}`}>
          <Input.TextArea
            autoSize={{ minRows: 1, maxRows: 6 }}
            value={values[reference] ?? ""}
            onChange={(event) => setValues((current) => ({ ...current, [reference]: event.target.value }))}
            data-testid={`wf-node-run-input-${reference}`}
          />
        </Form.Item>
      ))}
      <Button type="primary" htmlType="submit" icon={<CaretRightOutlined />} loading={running} block data-testid="wf-node-run-start">
        {t("workflows.run.runNode")}
      </Button>
    </Form>
  );
}
