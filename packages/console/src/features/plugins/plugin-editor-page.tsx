import { ApiOutlined, CloudServerOutlined, CodeOutlined, FileAddOutlined, PlayCircleOutlined } from "@ant-design/icons";
import { Alert, Button, Card, Col, Flex, Form, Input, Radio, Row, Select, Space, Steps, Switch, Typography } from "antd";
import { useCallback, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router";
import type { ApiFailure } from "../../lib/api/request";
import { invalidateSpace, setSpaceData, useSpaceQuery } from "../../lib/api/query";
import { endpoints } from "../../lib/api/endpoints";
import { feedback } from "../../lib/feedback";
import { PATHS } from "../../lib/paths";
import { EmptyState } from "../../components/empty-state";
import { PageHeader } from "../../components/page-header";
import { PageLoader } from "../../components/page-loader";
import { ParameterEditor, type RowError } from "../../components/parameter-editor";
import {
  buildArguments,
  findNameProblems,
  fromApi,
  headersFromApi,
  headersToApi,
  initialArguments,
  operationsFromMessage,
  REQUEST_METHODS,
  rowForErrorPath,
  toApi,
  type ArgumentValues,
  type DebugResult,
  type EditableParameter,
  type HeaderRow,
  type OperationChoice,
  type Plugin,
  type PluginDraft,
  type RequestMethod,
} from "../../components/parameters";
import { McpPluginEditor } from "./mcp-plugin-editor";
import { DEFAULT_PLUGIN_AVATAR, DebugResultView, HeadersEditor, PluginBasicsFields } from "./plugin-parts";
import { PLUGINS } from "./plugins-page";
import "./plugins.css";

type Source = "openapi" | "curl" | "mcp" | "blank";
interface TopFields {
  name: string;
  description: string;
  avatar: string;
  requestMethod: RequestMethod;
  requestUrl: string;
}
const TOP_FIELDS: readonly string[] = ["name", "description", "avatar", "requestMethod", "requestUrl"];

const emptyTop = (): TopFields => ({ name: "", description: "", avatar: DEFAULT_PLUGIN_AVATAR, requestMethod: "GET", requestUrl: "" });

/**
 * Creates a plugin (choose a source → parse → the form → a test run → save) or, with
 * `?id=`, shows and edits one (the form and the test run).
 */
export function PluginEditorPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get("id") ?? undefined;
  const editing = id !== undefined;
  const [form] = Form.useForm<TopFields>();

  const detailKey = [...PLUGINS, "detail", id];
  const detail = useSpaceQuery({ key: detailKey, fetch: (signal) => endpoints.plugins.get(id ?? "", { signal }), enabled: editing });
  const loaded = editing ? detail.data : undefined;
  const loadState = !editing || loaded ? "ready" : detail.isError ? "missing" : "loading";
  const [step, setStep] = useState(0);
  const [requestParams, setRequestParams] = useState<EditableParameter[]>([]);
  const [responseParams, setResponseParams] = useState<EditableParameter[]>([]);
  const [headers, setHeaders] = useState<HeaderRow[]>([]);
  const [showRequired, setShowRequired] = useState(false);
  const [requestErrors, setRequestErrors] = useState<Record<string, RowError>>({});
  const [responseErrors, setResponseErrors] = useState<Record<string, RowError>>({});
  const [headerError, setHeaderError] = useState<{ name: string; message: string }>();
  const [listError, setListError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const [enabled, setEnabled] = useState(true);
  const [mcpMode, setMcpMode] = useState(false);

  const steps = editing ? (["configure", "test"] as const) : (["source", "configure", "test"] as const);
  const current = steps[step] ?? "configure";

  const fill = useCallback(
    (draft: PluginDraft | Plugin) => {
      form.setFieldsValue({
        name: draft.name,
        description: draft.description,
        avatar: draft.avatar || DEFAULT_PLUGIN_AVATAR,
        requestMethod: draft.requestMethod,
        requestUrl: draft.requestUrl,
      });
      setRequestParams(fromApi(draft.requestParams));
      setResponseParams(fromApi(draft.responseParams));
      setHeaders(headersFromApi(draft.headers));
      setRequestErrors({});
      setResponseErrors({});
      setHeaderError(undefined);
      setListError(undefined);
    },
    [form],
  );

  // Fill the form once it is mounted (it lives inside the configure step), from each answer the server gives.
  useEffect(() => {
    if (!loaded) return;
    fill(loaded);
    setEnabled(loaded.enabled);
  }, [loaded, fill]);

  /** The draft the form holds, as the API takes it. */
  const draft = (): PluginDraft => {
    const top = { ...emptyTop(), ...form.getFieldsValue(true) } as TopFields;
    return {
      name: top.name?.trim() ?? "",
      description: top.description?.trim() ?? "",
      avatar: top.avatar?.trim() ?? "",
      requestMethod: top.requestMethod,
      requestUrl: top.requestUrl?.trim() ?? "",
      requestParams: toApi(requestParams),
      responseParams: toApi(responseParams),
      headers: headersToApi(headers),
    };
  };

  /** Puts a server's field error where it belongs: a form field, a parameter row, a header or the list. */
  const showServerError = (error: ApiFailure): boolean => {
    const field = error.field;
    if (!field) return false;
    const configureStep = steps.indexOf("configure");
    if (TOP_FIELDS.includes(field)) {
      setStep(configureStep);
      setTimeout(() => form.setFields([{ name: field as keyof TopFields, errors: [error.message] }]), 0);
      return true;
    }
    const request = rowForErrorPath(requestParams, "requestParams", field);
    const response = rowForErrorPath(responseParams, "responseParams", field);
    if (request) setRequestErrors({ [request.rowKey]: { field: request.field, message: error.message } });
    else if (response) setResponseErrors({ [response.rowKey]: { field: response.field, message: error.message } });
    else if (field.startsWith("headers.")) setHeaderError({ name: field.slice("headers.".length), message: error.message });
    else if (field === "requestParams" || field === "responseParams") setListError(error.message);
    else return false;
    setStep(configureStep);
    return true;
  };

  /** Client-side checks of the configure step: the form's fields and the §5 parameter rules. */
  const checkConfigure = async (): Promise<boolean> => {
    setShowRequired(true);
    setRequestErrors({});
    setResponseErrors({});
    setHeaderError(undefined);
    setListError(undefined);
    let ok = true;
    try {
      await form.validateFields();
    } catch {
      ok = false;
    }
    if (findNameProblems(requestParams, "requestParams").length > 0 || findNameProblems(responseParams, "responseParams").length > 0) ok = false;
    if (requestParams.length === 0) {
      setListError(t("plugins.editor.paramsRequired"));
      ok = false;
    }
    if (!ok) feedback.warning(t("plugins.editor.fixErrors"));
    return ok;
  };

  const save = async () => {
    if (current === "configure" && !(await checkConfigure())) return;
    setSaving(true);
    try {
      const body = draft();
      const result = id ? await endpoints.plugins.update(id, { ...body, enabled }) : await endpoints.plugins.create({ ...body, enabled });
      if (!result.ok) {
        showServerError(result.error);
        return;
      }
      if (id) setSpaceData<Plugin>(detailKey, () => result.data);
      void invalidateSpace(PLUGINS);
      feedback.success(t(id ? "plugins.editor.saved" : "plugins.editor.created", { name: result.data.name }));
      if (!id) navigate(PATHS.plugins);
    } finally {
      setSaving(false);
    }
  };

  if (loadState === "loading") return <PageLoader />;
  if (loadState === "missing") {
    return (
      <div className="pl-card">
        <EmptyState
          title={t("plugins.editor.missingTitle")}
          description={t("plugins.editor.missingDescription")}
          action={<Button onClick={() => navigate(PATHS.plugins)}>{t("plugins.editor.backToList")}</Button>}
          data-testid="plugin-missing"
        />
      </div>
    );
  }

  const saveButton = (
    <Button type="primary" loading={saving} onClick={() => void save()} data-testid="plugin-save">
      {editing ? t("common.save") : t("plugins.editor.create")}
    </Button>
  );

  return (
    <div data-testid="plugin-editor">
      <PageHeader
        title={editing ? (loaded?.name ?? t("plugins.editor.editTitle")) : t("plugins.editor.createTitle")}
        subtitle={
          editing ? (
            <Typography.Text type="secondary" copyable={{ text: loaded?.code }}>
              {t("plugins.editor.code", { code: loaded?.code ?? "" })}
            </Typography.Text>
          ) : (
            t("plugins.editor.createSubtitle")
          )
        }
        breadcrumb={[{ label: t("plugins.title"), to: PATHS.plugins }, { label: editing ? t("plugins.editor.editTitle") : t("plugins.editor.createTitle") }]}
        extra={
          editing ? (
            <Space>
              <Typography.Text type="secondary">{t("plugins.columns.enabled")}</Typography.Text>
              <Switch checked={enabled} onChange={setEnabled} data-testid="plugin-enabled" />
            </Space>
          ) : undefined
        }
      />
      {mcpMode || loaded?.kind === "mcp" ? <McpPluginEditor plugin={loaded} detailKey={detailKey} enabled={enabled} /> : null}
      <div className="pl-card pl-plugin-steps" style={{ display: mcpMode || loaded?.kind === "mcp" ? "none" : undefined }}>
        <Steps
          current={step}
          onChange={(next) => {
            if (next < step || editing) setStep(next);
          }}
          items={steps.map((key) => ({ title: t(`plugins.steps.${key}`), description: t(`plugins.steps.${key}Hint`) }))}
          data-testid="plugin-steps"
        />
      </div>

      {current === "source" && !mcpMode ? (
        <SourceStep
          onMcp={() => setMcpMode(true)}
          onDraft={(next) => {
            fill(next);
            setStep(1);
          }}
          onBlank={() => {
            form.resetFields();
            fill({ ...emptyTop(), requestParams: [], responseParams: [], headers: {} });
            setStep(1);
          }}
        />
      ) : null}

      <div style={{ display: current === "configure" && !mcpMode && loaded?.kind !== "mcp" ? "block" : "none" }}>
        <Card className="pl-card-plain pl-plugin-section" title={t("plugins.editor.basics")}>
          <Form form={form} layout="vertical" requiredMark initialValues={emptyTop()} data-testid="plugin-form">
            <PluginBasicsFields testIdPrefix="plugin" />
            <Row gutter={16}>
              <Col xs={24} md={6}>
                <Form.Item name="requestMethod" label={t("plugins.fields.method")} rules={[{ required: true }]}>
                  <Select options={REQUEST_METHODS.map((method) => ({ value: method, label: method }))} data-testid="plugin-method" />
                </Form.Item>
              </Col>
              <Col xs={24} md={18}>
                <Form.Item
                  name="requestUrl"
                  label={t("plugins.fields.url")}
                  extra={t("plugins.fields.urlHint")}
                  rules={[
                    { required: true, whitespace: true, message: t("plugins.fields.urlRequired") },
                    { pattern: /^https?:\/\/\S+$/, message: t("plugins.fields.urlInvalid") },
                  ]}
                >
                  <Input placeholder="https://api.example.com/v1/weather" data-testid="plugin-url" />
                </Form.Item>
              </Col>
            </Row>
          </Form>
        </Card>
        <Card className="pl-card-plain pl-plugin-section" title={t("plugins.editor.requestParams")}>
          {listError ? <Alert type="error" showIcon title={listError} className="pl-plugin-alert" data-testid="plugin-params-error" /> : null}
          <ParameterEditor
            base="requestParams"
            value={requestParams}
            onChange={(next) => {
              setRequestParams(next);
              setRequestErrors({});
              setListError(undefined);
            }}
            showLocation
            showRequired={showRequired}
            rowErrors={requestErrors}
            testIdPrefix="request-param"
          />
        </Card>
        <Card className="pl-card-plain pl-plugin-section" title={t("plugins.editor.responseParams")}>
          <ParameterEditor
            base="responseParams"
            value={responseParams}
            onChange={(next) => {
              setResponseParams(next);
              setResponseErrors({});
            }}
            showRequired={showRequired}
            rowErrors={responseErrors}
            testIdPrefix="response-param"
          />
        </Card>
        <Card className="pl-card-plain pl-plugin-section" title={t("plugins.editor.headers")}>
          <HeadersEditor value={headers} onChange={setHeaders} error={headerError} />
        </Card>
        <Flex justify="space-between" className="pl-plugin-footer">
          {editing ? (
            <span />
          ) : (
            <Button onClick={() => setStep(0)} data-testid="plugin-back-source">
              {t("plugins.editor.back")}
            </Button>
          )}
          <Space>
            {editing ? saveButton : null}
            <Button
              type={editing ? "default" : "primary"}
              icon={<PlayCircleOutlined />}
              onClick={() => void checkConfigure().then((ok) => ok && setStep(steps.indexOf("test")))}
              data-testid="plugin-next-test"
            >
              {t("plugins.editor.nextTest")}
            </Button>
          </Space>
        </Flex>
      </div>

      {current === "test" && !mcpMode && loaded?.kind !== "mcp" ? (
        <TestRunStep
          parameters={requestParams}
          pluginId={id}
          draft={draft}
          onServerError={showServerError}
          footer={
            <Flex justify="space-between" className="pl-plugin-footer">
              <Button onClick={() => setStep(steps.indexOf("configure"))} data-testid="plugin-back-configure">
                {t("plugins.editor.back")}
              </Button>
              {saveButton}
            </Flex>
          }
        />
      ) : null}
    </div>
  );
}

/** Step one of creating: an OpenAPI document, a curl command, or nothing. */
function SourceStep({ onDraft, onBlank, onMcp }: { onDraft: (draft: PluginDraft) => void; onBlank: () => void; onMcp: () => void }) {
  const { t } = useTranslation();
  const [source, setSource] = useState<Source>("curl");
  const [content, setContent] = useState("");
  const [operations, setOperations] = useState<OperationChoice[]>([]);
  const [operation, setOperation] = useState<string>();
  const [warnings, setWarnings] = useState<string[]>([]);
  const [parsing, setParsing] = useState(false);
  const [error, setError] = useState<string>();

  const parse = async () => {
    if (source === "blank") {
      onBlank();
      return;
    }
    if (source === "mcp") {
      onMcp();
      return;
    }
    if (!content.trim()) {
      setError(t("plugins.source.contentRequired"));
      return;
    }
    setParsing(true);
    setError(undefined);
    try {
      const result = await endpoints.plugins.parse({ source, content, ...(source === "openapi" && operation ? { operation } : {}) }, { silent: true });
      if (!result.ok) {
        if (result.error.field === "operation") {
          const choices = operationsFromMessage(result.error.message);
          setOperations(choices);
          setOperation(undefined);
          setError(choices.length > 0 ? t("plugins.source.chooseOperation") : result.error.message);
        } else setError(result.error.message);
        return;
      }
      setWarnings(result.data.warnings);
      if (result.data.operations.length > 1) {
        setOperations(
          result.data.operations.map((entry) => ({
            value: `${entry.method} ${entry.path}`,
            label: `${entry.operationId ? `${entry.operationId} · ` : ""}${entry.method} ${entry.path}${entry.summary ? ` — ${entry.summary}` : ""}`,
          })),
        );
      }
      if (result.data.warnings.length > 0) feedback.warning(t("plugins.source.parsedWithWarnings", { count: result.data.warnings.length }));
      onDraft(result.data.draft);
    } finally {
      setParsing(false);
    }
  };

  const options: Array<{ value: Source; icon: React.ReactNode }> = [
    { value: "openapi", icon: <ApiOutlined /> },
    { value: "curl", icon: <CodeOutlined /> },
    { value: "mcp", icon: <CloudServerOutlined /> },
    { value: "blank", icon: <FileAddOutlined /> },
  ];

  return (
    <Card className="pl-card-plain pl-plugin-section" title={t("plugins.source.title")} data-testid="plugin-source">
      <Radio.Group
        value={source}
        onChange={(event) => {
          setSource(event.target.value as Source);
          setError(undefined);
          setOperations([]);
          setOperation(undefined);
        }}
        className="pl-plugin-sources"
      >
        {options.map((option) => (
          <Radio.Button key={option.value} value={option.value} className="pl-plugin-source">
            <span className="pl-plugin-source__icon" data-testid={`plugin-source-${option.value}`}>
              {option.icon}
            </span>
            <span className="pl-plugin-source__text">
              <strong>{t(`plugins.source.${option.value}`)}</strong>
              <small>{t(`plugins.source.${option.value}Hint`)}</small>
            </span>
          </Radio.Button>
        ))}
      </Radio.Group>
      {source === "mcp" ? (
        <Typography.Paragraph type="secondary" className="pl-plugin-source__body">
          {t("plugins.source.mcpIntro")}
        </Typography.Paragraph>
      ) : source !== "blank" ? (
        <Flex vertical gap={12} className="pl-plugin-source__body">
          <Input.TextArea
            value={content}
            onChange={(event) => setContent(event.target.value)}
            autoSize={{ minRows: 6, maxRows: 18 }}
            className="pl-mono"
            placeholder={source === "curl" ? t("plugins.source.curlPlaceholder") : t("plugins.source.openapiPlaceholder")}
            data-testid="plugin-source-content"
          />
          {source === "openapi" && operations.length > 0 ? (
            <Select
              value={operation}
              onChange={setOperation}
              placeholder={t("plugins.source.operation")}
              options={operations}
              showSearch
              data-testid="plugin-source-operation"
            />
          ) : null}
          {error ? <Alert type="error" showIcon title={error} data-testid="plugin-source-error" /> : null}
          {warnings.length > 0 ? (
            <Alert
              type="warning"
              showIcon
              title={t("plugins.source.warnings")}
              description={
                <ul>
                  {warnings.map((w) => (
                    <li key={w}>{w}</li>
                  ))}
                </ul>
              }
            />
          ) : null}
        </Flex>
      ) : (
        <Typography.Paragraph type="secondary" className="pl-plugin-source__body">
          {t("plugins.source.blankIntro")}
        </Typography.Paragraph>
      )}
      <Flex justify="flex-end" className="pl-plugin-footer">
        <Button type="primary" loading={parsing} onClick={() => void parse()} data-testid="plugin-parse">
          {source === "blank" || source === "mcp" ? t("plugins.source.startBlank") : t("plugins.source.parse")}
        </Button>
      </Flex>
    </Card>
  );
}

/** The test run: inputs generated from the request parameters, the answer and the request as sent. */
function TestRunStep({
  parameters,
  pluginId,
  draft,
  onServerError,
  footer,
}: {
  parameters: EditableParameter[];
  pluginId: string | undefined;
  draft: () => PluginDraft;
  onServerError: (error: ApiFailure) => boolean;
  footer: React.ReactNode;
}) {
  const { t } = useTranslation();
  const top = useMemo(() => parameters.filter((row) => row.name.trim()), [parameters]);
  const [values, setValues] = useState<ArgumentValues>(() => initialArguments(parameters));
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<DebugResult>();

  const run = async () => {
    const built = buildArguments(top, values);
    setProblems(Object.fromEntries(built.problems.map((problem) => [problem.name, t(`plugins.test.problems.${problem.problem}`)])));
    if (built.problems.length > 0) return;
    setRunning(true);
    try {
      const response = await endpoints.plugins.debug({ plugin: draft(), ...(pluginId ? { pluginId } : {}), arguments: built.args });
      if (!response.ok) {
        onServerError(response.error);
        return;
      }
      setResult(response.data);
    } finally {
      setRunning(false);
    }
  };

  return (
    <>
      <Row gutter={16}>
        <Col xs={24} lg={10}>
          <Card className="pl-card-plain pl-plugin-section" title={t("plugins.test.arguments")} data-testid="plugin-test-arguments">
            {top.length === 0 ? <Typography.Text type="secondary">{t("plugins.test.noArguments")}</Typography.Text> : null}
            <Form layout="vertical">
              {top.map((row) => (
                <Form.Item
                  key={row.key}
                  label={
                    <span>
                      {row.name} <Typography.Text type="secondary">({t(`paramEditor.types.${row.type}`)})</Typography.Text>
                    </span>
                  }
                  required={row.required}
                  extra={row.description || undefined}
                  validateStatus={problems[row.name] ? "error" : undefined}
                  help={problems[row.name]}
                >
                  {row.type === "boolean" ? (
                    <Switch
                      checked={values[row.name] === true}
                      onChange={(checked) => setValues({ ...values, [row.name]: checked })}
                      data-testid={`plugin-arg-${row.name}`}
                    />
                  ) : row.type === "object" || row.type === "array" ? (
                    <Input.TextArea
                      className="pl-mono"
                      autoSize={{ minRows: 2, maxRows: 8 }}
                      placeholder={row.type === "object" ? "{ }" : "[ ]"}
                      value={String(values[row.name] ?? "")}
                      onChange={(event) => setValues({ ...values, [row.name]: event.target.value })}
                      data-testid={`plugin-arg-${row.name}`}
                    />
                  ) : (
                    <Input
                      inputMode={row.type === "string" ? undefined : "decimal"}
                      value={String(values[row.name] ?? "")}
                      onChange={(event) => setValues({ ...values, [row.name]: event.target.value })}
                      data-testid={`plugin-arg-${row.name}`}
                    />
                  )}
                </Form.Item>
              ))}
            </Form>
            <Button type="primary" icon={<PlayCircleOutlined />} loading={running} onClick={() => void run()} data-testid="plugin-run">
              {t("plugins.test.run")}
            </Button>
          </Card>
        </Col>
        <Col xs={24} lg={14}>
          <Card className="pl-card-plain pl-plugin-section" title={t("plugins.test.result")} data-testid="plugin-test-result">
            {result ? (
              <DebugResultView result={result} />
            ) : (
              <EmptyState compact title={t("plugins.test.notRunTitle")} description={t("plugins.test.notRunDescription")} data-testid="plugin-test-empty" />
            )}
          </Card>
        </Col>
      </Row>
      {footer}
    </>
  );
}
