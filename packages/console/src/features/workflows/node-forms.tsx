import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { Button, Checkbox, Divider, Flex, Form, Input, InputNumber, Radio, Select, Slider, Switch, Typography } from "antd";
import { cloneElement, isValidElement, useId, type ReactElement, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import {
  CONDITION_OPERATORS,
  newId,
  OUTPUT_TYPES,
  VARIABLE_TYPES,
  type Branch,
  type Condition,
  type NodeConfig,
  type OutputVariable,
  type StartVariable,
  type WorkflowElement,
} from "./workflow-model";

/** A choice of a picker: value and label. */
export interface PickerOption {
  value: string;
  label: string;
}

/** What the pickers offer, loaded from the SDK by the editor. */
export interface NodeFormOptions {
  models: PickerOption[];
  apps: PickerOption[];
  knowledgeBases: PickerOption[];
  plugins: PickerOption[];
  /** The enabled tools of each MCP plugin, by plugin code: the node's tool is picked among them. */
  pluginTools?: Record<string, PickerOption[]>;
  clients: PickerOption[];
  databases: PickerOption[];
}

/** No choices at all (stories, loading). */
export const EMPTY_OPTIONS: NodeFormOptions = { models: [], apps: [], knowledgeBases: [], plugins: [], clients: [], databases: [] };

/** Props of {@link NodeForm}. */
export interface NodeFormProps {
  element: WorkflowElement;
  onChange: (config: NodeConfig) => void;
  /** Messages by field path (`model`, `variables.1.identifier`), shown under the field. */
  errors?: Record<string, string>;
  options?: NodeFormOptions;
}

type FieldProps = { label: ReactNode; field: string; errors: Record<string, string>; children: ReactNode; extra?: ReactNode; required?: boolean };

/**
 * A labelled field showing its problem under it. The label names its control: these items
 * have no form `name`, so antd would not link them; the control gets an id and the label
 * `htmlFor` it (screen readers announce the label, a click on it focuses the control).
 */
function Field({ label, field, errors, children, extra, required }: FieldProps) {
  const message = errors[field];
  const generated = useId();
  const control = isValidElement<{ id?: string }>(children) ? (children as ReactElement<{ id?: string }>) : undefined;
  const id = control?.props.id ?? `${generated}${field}`;
  return (
    <Form.Item
      label={label}
      htmlFor={control ? id : undefined}
      required={required}
      validateStatus={message ? "error" : undefined}
      help={message ? <span data-testid={`wf-error-${field}`}>{message}</span> : undefined}
      extra={extra}
    >
      {control ? cloneElement(control, { id }) : children}
    </Form.Item>
  );
}

/**
 * The side-panel form of a node, by type (the server's Workflow…Config shapes). Each field
 * shows its problem (client rules or the server's answer) beneath it.
 */
export function NodeForm({ element, onChange, errors = {}, options = EMPTY_OPTIONS }: NodeFormProps) {
  const { t } = useTranslation();
  const { config, type } = element;
  const set = (field: string, value: unknown) => onChange({ ...config, [field]: value });
  const text = (field: string) => (typeof config[field] === "string" ? (config[field] as string) : "");
  const templateHint = t("workflows.form.templateHint", { query: "{{sys.query}}", variable: "{{start.identifier}}", output: "{{node_id.output}}" });

  const template = (field: string, label: string, required = true, rows = 2) => (
    <Field label={label} field={field} errors={errors} required={required} extra={templateHint}>
      <Input.TextArea
        autoSize={{ minRows: rows, maxRows: 8 }}
        value={text(field)}
        onChange={(event) => set(field, event.target.value)}
        data-testid={`wf-field-${field}`}
      />
    </Field>
  );
  const picker = (field: string, label: string, choices: PickerOption[], emptyKey: string, mode?: "multiple") => (
    <Field label={label} field={field} errors={errors} required>
      <Select
        mode={mode}
        showSearch={{ optionFilterProp: "label" }}
        allowClear
        value={mode ? ((config[field] as string[] | undefined) ?? []) : text(field) || undefined}
        onChange={(value) => set(field, value ?? (mode ? [] : ""))}
        options={choices}
        placeholder={t("workflows.form.choose")}
        notFoundContent={t(emptyKey)}
        data-testid={`wf-field-${field}`}
      />
    </Field>
  );

  let body: ReactNode = null;
  switch (type) {
    case "start":
      body = <StartFields config={config} set={set} errors={errors} />;
      break;
    case "end":
      body = template("output", t("workflows.form.output"), false, 3);
      break;
    case "app":
      body = (
        <>
          {picker("appId", t("workflows.form.app"), options.apps, "workflows.form.noApps")}
          {template("input", t("workflows.form.input"))}
        </>
      );
      break;
    case "llm":
      body = (
        <>
          {picker("model", t("workflows.form.model"), options.models, "workflows.form.noModels")}
          <Field label={t("workflows.form.systemPrompt")} field="systemPrompt" errors={errors}>
            <Input.TextArea
              autoSize={{ minRows: 2, maxRows: 8 }}
              value={text("systemPrompt")}
              onChange={(event) => set("systemPrompt", event.target.value)}
              data-testid="wf-field-systemPrompt"
            />
          </Field>
          {template("input", t("workflows.form.userMessage"))}
          <Field label={t("workflows.form.temperature")} field="temperature" errors={errors}>
            <Slider
              min={0}
              max={2}
              step={0.1}
              value={typeof config.temperature === "number" ? config.temperature : 0.7}
              onChange={(value) => set("temperature", value)}
            />
          </Field>
          <OutputVariables
            value={(config.structuredOutput as OutputVariable[] | undefined) ?? []}
            onChange={(value) => set("structuredOutput", value)}
            errors={errors}
          />
        </>
      );
      break;
    case "knowledge_base":
      body = (
        <>
          {picker("knowledgeBaseIds", t("workflows.form.knowledgeBases"), options.knowledgeBases, "workflows.form.noKnowledgeBases", "multiple")}
          {template("input", t("workflows.form.query"))}
          <Field label={t("workflows.form.topK")} field="topK" errors={errors}>
            <InputNumber min={1} max={20} value={typeof config.topK === "number" ? config.topK : 3} onChange={(value) => set("topK", value ?? 3)} />
          </Field>
        </>
      );
      break;
    case "database":
      body = (
        <>
          {picker("databaseId", t("workflows.form.database"), options.databases, "workflows.form.noDatabases")}
          {template("input", t("workflows.form.query"))}
        </>
      );
      break;
    case "plugin":
      body = (
        <>
          {picker("pluginCode", t("workflows.form.plugin"), options.plugins, "workflows.form.noPlugins")}
          {options.pluginTools?.[text("pluginCode")] ? (
            <Field label={t("workflows.form.mcpTool")} field="toolName" errors={errors} required>
              <Select
                showSearch={{ optionFilterProp: "label" }}
                value={text("toolName") || undefined}
                onChange={(value) => set("toolName", value ?? "")}
                options={options.pluginTools[text("pluginCode")]}
                placeholder={t("workflows.form.choose")}
                notFoundContent={t("workflows.form.noMcpTools")}
                data-testid="wf-field-toolName"
              />
            </Field>
          ) : (
            <Field label={t("workflows.form.toolName")} field="toolName" errors={errors} extra={t("workflows.form.toolNameHint")}>
              <Input value={text("toolName")} onChange={(event) => set("toolName", event.target.value)} data-testid="wf-field-toolName" />
            </Field>
          )}
          <KeyValues
            label={t("workflows.form.arguments")}
            value={(config.arguments as Record<string, string> | undefined) ?? {}}
            onChange={(value) => set("arguments", value)}
            testId="wf-plugin-args"
          />
        </>
      );
      break;
    case "code_block":
      body = <CodeFields config={config} set={set} errors={errors} />;
      break;
    case "intent_branch":
      body = (
        <>
          {picker("model", t("workflows.form.model"), options.models, "workflows.form.noModels")}
          {template("input", t("workflows.form.intentInput"))}
          <BranchList
            kind="intentions"
            value={(config.intentions as Branch[] | undefined) ?? []}
            onChange={(value) => set("intentions", value)}
            errors={errors}
          />
        </>
      );
      break;
    case "logic_branch":
      body = (
        <BranchList kind="branches" value={(config.branches as Branch[] | undefined) ?? []} onChange={(value) => set("branches", value)} errors={errors} />
      );
      break;
    case "fixed_reply":
      body = template("content", t("workflows.form.content"), true, 3);
      break;
    case "channel_send":
      body = (
        <>
          <Field label={t("workflows.form.sendMode")} field="mode" errors={errors}>
            <Radio.Group
              value={config.mode === "webhook" ? "webhook" : "client"}
              onChange={(event) => set("mode", event.target.value)}
              options={[
                { value: "client", label: t("workflows.form.modeClient") },
                { value: "webhook", label: t("workflows.form.modeWebhook") },
              ]}
              data-testid="wf-field-mode"
            />
          </Field>
          {config.mode === "webhook" ? (
            <>
              <Field label={t("workflows.form.webhookUrl")} field="webhookUrl" errors={errors} required>
                <Input
                  value={text("webhookUrl")}
                  onChange={(event) => set("webhookUrl", event.target.value)}
                  placeholder="https://"
                  data-testid="wf-field-webhookUrl"
                />
              </Field>
              <Field label={t("workflows.form.webhookSecret")} field="webhookSecret" errors={errors} required>
                <Input.Password
                  value={text("webhookSecret")}
                  onChange={(event) => set("webhookSecret", event.target.value)}
                  data-testid="wf-field-webhookSecret"
                />
              </Field>
            </>
          ) : (
            <>
              {picker("clientId", t("workflows.form.client"), options.clients, "workflows.form.noClients")}
              <Field label={t("workflows.form.sender")} field="sender" errors={errors} extra={t("workflows.form.senderHint")}>
                <Input value={text("sender")} onChange={(event) => set("sender", event.target.value)} data-testid="wf-field-sender" />
              </Field>
              {template("receiver", t("workflows.form.receiver"), true, 1)}
            </>
          )}
          {template("content", t("workflows.form.message"), true, 3)}
        </>
      );
      break;
    case "manual":
      body = template("content", t("workflows.form.manualNote"), false, 3);
      break;
    case "timer":
      body = (
        <>
          <Field label={t("workflows.form.delaySeconds")} field="delaySeconds" errors={errors}>
            <InputNumber
              min={0}
              max={30 * 86_400}
              value={typeof config.delaySeconds === "number" ? config.delaySeconds : null}
              onChange={(value) => set("delaySeconds", value ?? undefined)}
              data-testid="wf-field-delaySeconds"
            />
          </Field>
          <Field label={t("workflows.form.until")} field="until" errors={errors} extra={t("workflows.form.untilHint")}>
            <Input value={text("until")} onChange={(event) => set("until", event.target.value)} data-testid="wf-field-until" />
          </Field>
        </>
      );
      break;
  }

  return (
    <Form layout="vertical" className="pl-wf-form" data-testid={`wf-form-${type}`} onSubmitCapture={(event) => event.preventDefault()}>
      <Field label={t("workflows.form.name")} field="name" errors={errors}>
        <Input value={text("name")} onChange={(event) => set("name", event.target.value)} maxLength={100} data-testid="wf-field-name" />
      </Field>
      <Field label={t("workflows.form.description")} field="desc" errors={errors}>
        <Input value={text("desc")} onChange={(event) => set("desc", event.target.value)} maxLength={1000} data-testid="wf-field-desc" />
      </Field>
      {type === "end" ? null : (
        <Typography.Text type="secondary" className="pl-wf-form__id">
          {t("workflows.form.nodeId", { id: element.id, reference: type === "start" ? "{{start.identifier}}" : `{{${element.id}.output}}` })}
        </Typography.Text>
      )}
      <Divider className="pl-wf-form__divider" />
      {body}
    </Form>
  );
}

type SectionProps = { config: NodeConfig; set: (field: string, value: unknown) => void; errors: Record<string, string> };

function StartFields({ config, set, errors }: SectionProps) {
  const { t } = useTranslation();
  const inputs = (config.inputs as { text?: boolean; image?: boolean; file?: boolean } | undefined) ?? { text: true };
  const variables = (config.variables as StartVariable[] | undefined) ?? [];
  const update = (index: number, change: Partial<StartVariable>) =>
    set(
      "variables",
      variables.map((item, position) => (position === index ? { ...item, ...change } : item)),
    );
  return (
    <>
      <Form.Item label={t("workflows.form.inputs")}>
        <Flex gap={12}>
          {(["text", "image", "file"] as const).map((kind) => (
            <Checkbox
              key={kind}
              checked={inputs[kind] === true}
              onChange={(event) => set("inputs", { ...inputs, [kind]: event.target.checked })}
              data-testid={`wf-input-${kind}`}
            >
              {t(`workflows.form.inputKinds.${kind}`)}
            </Checkbox>
          ))}
        </Flex>
      </Form.Item>
      <Typography.Text strong>{t("workflows.form.variables")}</Typography.Text>
      <Typography.Paragraph type="secondary" className="pl-wf-form__hint">
        {t("workflows.form.variablesHint", { example: "{{start.identifier}}" })}
      </Typography.Paragraph>
      {variables.map((variable, index) => (
        <div key={index} className="pl-wf-form__row" data-testid={`wf-variable-${index}`}>
          <Flex gap={8}>
            <Field label={t("workflows.form.identifier")} field={`variables.${index}.identifier`} errors={errors} required>
              <Input
                value={variable.identifier}
                onChange={(event) => update(index, { identifier: event.target.value })}
                data-testid={`wf-variable-identifier-${index}`}
              />
            </Field>
            <Field label={t("workflows.form.displayName")} field={`variables.${index}.displayName`} errors={errors}>
              <Input
                value={variable.displayName}
                onChange={(event) => update(index, { displayName: event.target.value })}
                data-testid={`wf-variable-display-${index}`}
              />
            </Field>
          </Flex>
          <Flex gap={8} align="center" wrap>
            <Select
              value={variable.type}
              onChange={(value) => update(index, { type: value, ...(value === "select" && !variable.options ? { options: [] } : {}) })}
              options={VARIABLE_TYPES.map((value) => ({ value, label: t(`workflows.form.variableTypes.${value}`) }))}
              className="pl-wf-form__type"
              aria-label={t("workflows.form.variableType")}
              data-testid={`wf-variable-type-${index}`}
            />
            <Checkbox checked={variable.required} onChange={(event) => update(index, { required: event.target.checked })}>
              {t("workflows.form.required")}
            </Checkbox>
            <Button
              type="text"
              danger
              icon={<DeleteOutlined />}
              onClick={() =>
                set(
                  "variables",
                  variables.filter((_, position) => position !== index),
                )
              }
              aria-label={t("common.delete")}
              data-testid={`wf-variable-delete-${index}`}
            />
          </Flex>
          {variable.type === "select" ? (
            <Field label={t("workflows.form.options")} field={`variables.${index}.options`} errors={errors} required>
              <Select
                mode="tags"
                value={variable.options ?? []}
                onChange={(value) => update(index, { options: value })}
                open={false}
                data-testid={`wf-variable-options-${index}`}
              />
            </Field>
          ) : null}
          <Flex gap={8}>
            <Form.Item label={t("workflows.form.prompt")} className="pl-wf-form__grow">
              <Input value={variable.prompt ?? ""} onChange={(event) => update(index, { prompt: event.target.value })} />
            </Form.Item>
            <Form.Item label={t("workflows.form.defaultValue")} className="pl-wf-form__grow">
              <Input
                value={variable.default === null || variable.default === undefined ? "" : String(variable.default)}
                onChange={(event) => update(index, { default: event.target.value })}
              />
            </Form.Item>
          </Flex>
        </div>
      ))}
      <Button
        icon={<PlusOutlined />}
        onClick={() => set("variables", [...variables, { identifier: "", displayName: "", type: "text", required: false }])}
        block
        data-testid="wf-variable-add"
      >
        {t("workflows.form.addVariable")}
      </Button>
    </>
  );
}

function OutputVariables({
  value,
  onChange,
  errors,
}: {
  value: OutputVariable[];
  onChange: (value: OutputVariable[]) => void;
  errors: Record<string, string>;
}) {
  const { t } = useTranslation();
  const update = (index: number, change: Partial<OutputVariable>) =>
    onChange(value.map((item, position) => (position === index ? { ...item, ...change } : item)));
  return (
    <>
      <Typography.Text strong>{t("workflows.form.structuredOutput")}</Typography.Text>
      <Typography.Paragraph type="secondary" className="pl-wf-form__hint">
        {t("workflows.form.structuredOutputHint")}
      </Typography.Paragraph>
      {value.map((item, index) => (
        <Flex key={index} gap={8} align="flex-start" data-testid={`wf-output-${index}`}>
          <Field label={t("workflows.form.outputName")} field={`structuredOutput.${index}.name`} errors={errors} required>
            <Input value={item.name} onChange={(event) => update(index, { name: event.target.value })} data-testid={`wf-output-name-${index}`} />
          </Field>
          <Form.Item label={t("workflows.form.outputType")}>
            <Select
              value={item.type}
              onChange={(type) => update(index, { type })}
              options={OUTPUT_TYPES.map((type) => ({ value: type, label: type }))}
              className="pl-wf-form__type"
            />
          </Form.Item>
          <Button
            className="pl-wf-form__row-delete"
            type="text"
            danger
            icon={<DeleteOutlined />}
            onClick={() => onChange(value.filter((_, position) => position !== index))}
            aria-label={t("common.delete")}
          />
        </Flex>
      ))}
      <Button icon={<PlusOutlined />} onClick={() => onChange([...value, { name: "", type: "string" }])} block data-testid="wf-output-add">
        {t("workflows.form.addOutput")}
      </Button>
    </>
  );
}

function CodeFields({ config, set, errors }: SectionProps) {
  const { t } = useTranslation();
  const inputs = (config.inputs as Array<{ name: string; value: string }> | undefined) ?? [];
  const update = (index: number, change: Partial<{ name: string; value: string }>) =>
    set(
      "inputs",
      inputs.map((item, position) => (position === index ? { ...item, ...change } : item)),
    );
  return (
    <>
      <Typography.Text strong>{t("workflows.form.codeInputs")}</Typography.Text>
      {inputs.map((input, index) => (
        <Flex key={index} gap={8} align="flex-start">
          <Field label={t("workflows.form.inputName")} field={`inputs.${index}.name`} errors={errors} required>
            <Input value={input.name} onChange={(event) => update(index, { name: event.target.value })} data-testid={`wf-code-input-name-${index}`} />
          </Field>
          <Field label={t("workflows.form.inputValue")} field={`inputs.${index}.value`} errors={errors} required>
            <Input value={input.value} onChange={(event) => update(index, { value: event.target.value })} data-testid={`wf-code-input-value-${index}`} />
          </Field>
          <Button
            className="pl-wf-form__row-delete"
            type="text"
            danger
            icon={<DeleteOutlined />}
            onClick={() =>
              set(
                "inputs",
                inputs.filter((_, position) => position !== index),
              )
            }
            aria-label={t("common.delete")}
          />
        </Flex>
      ))}
      <Button icon={<PlusOutlined />} onClick={() => set("inputs", [...inputs, { name: "", value: "" }])} block>
        {t("workflows.form.addInput")}
      </Button>
      <Divider className="pl-wf-form__divider" />
      <Field label={t("workflows.form.code")} field="code" errors={errors} required extra={t("workflows.form.codeHint")}>
        <Input.TextArea
          className="pl-wf-form__code"
          autoSize={{ minRows: 6, maxRows: 20 }}
          value={typeof config.code === "string" ? config.code : ""}
          onChange={(event) => set("code", event.target.value)}
          spellCheck={false}
          data-testid="wf-field-code"
        />
      </Field>
      <Field label={t("workflows.form.timeoutMs")} field="timeoutMs" errors={errors}>
        <InputNumber
          min={10}
          max={30_000}
          value={typeof config.timeoutMs === "number" ? config.timeoutMs : 1000}
          onChange={(value) => set("timeoutMs", value ?? 1000)}
        />
      </Field>
    </>
  );
}

function BranchList({
  kind,
  value,
  onChange,
  errors,
}: {
  kind: "branches" | "intentions";
  value: Branch[];
  onChange: (value: Branch[]) => void;
  errors: Record<string, string>;
}) {
  const { t } = useTranslation();
  const update = (index: number, change: Partial<Branch>) => onChange(value.map((item, position) => (position === index ? { ...item, ...change } : item)));
  const add = () => {
    const branch: Branch =
      kind === "intentions"
        ? { id: newId("intent"), name: "", node_id: null }
        : { id: newId("branch"), name: "", node_id: null, logic: "and", conditions: [{ left: "", operator: "equals", right: "" }] };
    const elseIndex = value.findIndex((item) => item.isElse);
    onChange(elseIndex < 0 ? [...value, branch] : [...value.slice(0, elseIndex), branch, ...value.slice(elseIndex)]);
  };
  return (
    <>
      <Typography.Text strong>{t(kind === "intentions" ? "workflows.form.intentions" : "workflows.form.branches")}</Typography.Text>
      {errors[kind] ? (
        <Typography.Paragraph type="danger" data-testid={`wf-error-${kind}`}>
          {errors[kind]}
        </Typography.Paragraph>
      ) : null}
      {value.map((branch, index) => (
        <div key={branch.id} className="pl-wf-form__row" data-testid={`wf-branch-${index}`}>
          {branch.isElse ? (
            <Typography.Text type="secondary">{t(kind === "intentions" ? "workflows.form.otherIntention" : "workflows.form.elseBranch")}</Typography.Text>
          ) : (
            <>
              <Flex gap={8} align="flex-start">
                <Field
                  label={t(kind === "intentions" ? "workflows.form.intentionName" : "workflows.form.branchName")}
                  field={`${kind}.${index}.name`}
                  errors={errors}
                  required
                >
                  <Input value={branch.name} onChange={(event) => update(index, { name: event.target.value })} data-testid={`wf-branch-name-${index}`} />
                </Field>
                <Button
                  className="pl-wf-form__row-delete"
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  onClick={() => onChange(value.filter((_, position) => position !== index))}
                  aria-label={t("common.delete")}
                />
              </Flex>
              {kind === "branches" ? (
                <Conditions branch={branch} onChange={(change) => update(index, change)} error={errors[`${kind}.${index}.conditions`]} />
              ) : null}
            </>
          )}
        </div>
      ))}
      <Button icon={<PlusOutlined />} onClick={add} block data-testid="wf-branch-add">
        {t(kind === "intentions" ? "workflows.form.addIntention" : "workflows.form.addBranch")}
      </Button>
    </>
  );
}

function Conditions({ branch, onChange, error }: { branch: Branch; onChange: (change: Partial<Branch>) => void; error?: string }) {
  const { t } = useTranslation();
  const conditions = branch.conditions ?? [];
  const update = (index: number, change: Partial<Condition>) =>
    onChange({ conditions: conditions.map((item, position) => (position === index ? { ...item, ...change } : item)) });
  return (
    <div className="pl-wf-form__conditions">
      <Flex gap={8} align="center">
        <Typography.Text type="secondary">{t("workflows.form.match")}</Typography.Text>
        <Switch
          checkedChildren={t("workflows.form.logicAnd")}
          unCheckedChildren={t("workflows.form.logicOr")}
          checked={(branch.logic ?? "and") === "and"}
          onChange={(checked) => onChange({ logic: checked ? "and" : "or" })}
        />
      </Flex>
      {conditions.map((condition, index) => (
        <Flex key={index} gap={4} align="center" className="pl-wf-form__condition">
          <Input
            value={condition.left}
            onChange={(event) => update(index, { left: event.target.value })}
            placeholder="{{start.city}}"
            aria-label={t("workflows.form.left")}
          />
          <Select
            value={condition.operator}
            onChange={(operator) => update(index, { operator })}
            options={CONDITION_OPERATORS.map((operator) => ({ value: operator, label: t(`workflows.form.operators.${operator}`) }))}
            className="pl-wf-form__operator"
            aria-label={t("workflows.form.operator")}
          />
          {condition.operator === "empty" || condition.operator === "not_empty" ? null : (
            <Input value={condition.right ?? ""} onChange={(event) => update(index, { right: event.target.value })} aria-label={t("workflows.form.right")} />
          )}
          <Button
            type="text"
            danger
            icon={<DeleteOutlined />}
            onClick={() => onChange({ conditions: conditions.filter((_, position) => position !== index) })}
            aria-label={t("common.delete")}
          />
        </Flex>
      ))}
      {error ? <Typography.Text type="danger">{error}</Typography.Text> : null}
      <Button
        size="small"
        type="dashed"
        icon={<PlusOutlined />}
        onClick={() => onChange({ conditions: [...conditions, { left: "", operator: "equals", right: "" }] })}
      >
        {t("workflows.form.addCondition")}
      </Button>
    </div>
  );
}

function KeyValues({
  label,
  value,
  onChange,
  testId,
}: {
  label: string;
  value: Record<string, string>;
  onChange: (value: Record<string, string>) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const entries = Object.entries(value);
  const write = (next: Array<[string, string]>) => onChange(Object.fromEntries(next));
  return (
    <div data-testid={testId}>
      <Typography.Text strong>{label}</Typography.Text>
      {entries.map(([key, item], index) => (
        <Flex key={index} gap={8} className="pl-wf-form__condition">
          <Input
            value={key}
            onChange={(event) => write(entries.map((entry, position) => (position === index ? [event.target.value, entry[1]] : entry)))}
            placeholder={t("workflows.form.argumentName")}
            aria-label={t("workflows.form.argumentName")}
          />
          <Input
            value={item}
            onChange={(event) => write(entries.map((entry, position) => (position === index ? [entry[0], event.target.value] : entry)))}
            placeholder="{{sys.query}}"
            aria-label={t("workflows.form.inputValue")}
          />
          <Button
            type="text"
            danger
            icon={<DeleteOutlined />}
            onClick={() => write(entries.filter((_, position) => position !== index))}
            aria-label={t("common.delete")}
          />
        </Flex>
      ))}
      <Button icon={<PlusOutlined />} onClick={() => write([...entries, [`arg${entries.length + 1}`, ""]])} block>
        {t("workflows.form.addArgument")}
      </Button>
    </div>
  );
}
