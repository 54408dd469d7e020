import {
  ArrowLeftOutlined,
  CheckOutlined,
  CloudUploadOutlined,
  DeleteOutlined,
  DownloadOutlined,
  FileTextOutlined,
  GlobalOutlined,
  InboxOutlined,
} from "@ant-design/icons";
import { Alert, AutoComplete, Button, Collapse, Descriptions, Flex, Form, Input, List, Result, Skeleton, Steps, Table, Tag, Typography, Upload } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router";
import { mapData, useSpaceQuery } from "../../lib/api/query";
import type { ApiResult } from "../../lib/api/request";
import { feedback } from "../../lib/feedback";
import { FeishuImportStep, type FeishuImportStepProps } from "./feishu-import-step";
import { checkRule, fileNameRule, validValues } from "./form-helpers";
import { ImportStepFooter, useLinkImport, type LinkImportValues } from "./import-step-parts";
import { ImportTypePicker, type ImportType } from "./import-type-picker";
import {
  KNOWLEDGE_BASES,
  knowledgeEndpoints,
  type KnowledgeFile,
  type KnowledgeFilePreview,
  type KnowledgeImportReport,
  type KnowledgeTable,
} from "../../lib/api/knowledge";
import { managePath, useKnowledgeBase } from "./knowledge-manage-layout";
import { currentLanguage, i18n } from "../../i18n";
import { checkUpload, checkWebsiteUrl, csvHeader, duplicateFields, extensionOf, KNOWLEDGE_LIMITS, suggestFileName, UPLOAD_EXTENSIONS } from "./knowledge-rules";
import { saveBlob } from "../../lib/save-blob";
import { rowValuesOf, TablePreview } from "./table-preview";

/** The import steps of spec §4, in order. */
export const IMPORT_STEPS = ["type", "upload", "preview", "confirm"] as const;
type Step = (typeof IMPORT_STEPS)[number];

/** Import types that upload a file. */
type UploadType = keyof typeof UPLOAD_EXTENSIONS & ImportType;
/** Import types the server takes now. */
const AVAILABLE_TYPES: readonly ImportType[] = ["document", "qa", "table", "website", "feishu"];
const isUploadType = (type: ImportType): type is UploadType => type in UPLOAD_EXTENSIONS;

/** What an upload answered: the pending (or failed) file, and for records the import report. */
interface Uploaded {
  id: string;
  name?: string;
  report?: KnowledgeImportReport;
  /** Known once previewed. */
  fileType?: KnowledgeFile["type"];
}

/** How much of a CSV is read to find its header row. */
const HEADER_BYTES = 64 * 1024;

/**
 * knowledgeManage/importFile: select type → upload → preview (first 50 segments, totals) →
 * confirm; confirming starts processing and lands on the file list. `&file=kf_…` resumes a
 * pending upload at its preview.
 */
export function ImportFilePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const { base } = useKnowledgeBase();
  const resumeId = params.get("file") ?? undefined;
  const [step, setStep] = useState<Step>(resumeId ? "preview" : "type");
  const [type, setType] = useState<ImportType>("document");
  const [uploaded, setUploaded] = useState<Uploaded>();
  const [confirming, setConfirming] = useState(false);

  // `&file=kf_…` (on arrival or later) resumes that pending upload at its preview.
  const [resumed, setResumed] = useState<string>();
  if (resumeId !== resumed) {
    setResumed(resumeId);
    if (resumeId) {
      setUploaded({ id: resumeId });
      setStep("preview");
    }
  }

  const restart = () => {
    setUploaded(undefined);
    setStep("upload");
    if (resumeId) {
      const next = new URLSearchParams(params);
      next.delete("file");
      setParams(next, { replace: true });
    }
  };

  const cancelImport = async () => {
    if (!uploaded) return;
    const result = await knowledgeEndpoints.removeFile(uploaded.id);
    if (!result.ok) return;
    feedback.success(t("knowledge.import.cancelled"));
    restart();
  };

  const confirm = async () => {
    if (!uploaded) return;
    setConfirming(true);
    try {
      const result = await knowledgeEndpoints.confirm(uploaded.id);
      if (!result.ok) return;
      feedback.success(t("knowledge.import.confirmed", { name: result.data.name }));
      navigate(managePath("baseFile", base.id));
    } finally {
      setConfirming(false);
    }
  };

  // The website and Feishu steps both answer the imported file, so they take the same props.
  const linkStepProps: FeishuImportStepProps = {
    knowledgeBaseId: base.id,
    onBack: () => setStep("type"),
    onImported: (file) => {
      setUploaded({ id: file.id, name: file.name });
      setStep("preview");
    },
    onShowFiles: () => navigate(managePath("baseFile", base.id)),
  };

  const current = IMPORT_STEPS.indexOf(step);
  return (
    <div className="pl-card pl-kb-panel" data-testid="knowledge-import">
      <Steps
        className="pl-kb-steps"
        current={current}
        size="small"
        items={IMPORT_STEPS.map((key) => ({ title: <span data-testid={`import-step-${key}`}>{t(`knowledge.import.steps.${key}`)}</span> }))}
        data-testid="import-steps"
      />
      {step === "type" ? (
        <div data-testid="import-type-step">
          <Typography.Paragraph type="secondary">{t("knowledge.import.typeHint")}</Typography.Paragraph>
          <ImportTypePicker value={type} onChange={setType} available={AVAILABLE_TYPES} />
          <Flex justify="flex-end" className="pl-kb-actions">
            <Button type="primary" onClick={() => setStep("upload")} disabled={!AVAILABLE_TYPES.includes(type)} data-testid="import-next">
              {t("knowledge.import.next")}
            </Button>
          </Flex>
        </div>
      ) : null}
      {step === "upload" && isUploadType(type) ? (
        <UploadStep
          key={type}
          type={type}
          knowledgeBaseId={base.id}
          onBack={() => setStep("type")}
          onUploaded={(file, report) => {
            setUploaded({ id: file.id, name: file.name, ...(report ? { report } : {}) });
            setStep("preview");
          }}
          onShowFiles={() => navigate(managePath("baseFile", base.id))}
        />
      ) : null}
      {step === "upload" && type === "website" ? <WebsiteStep {...linkStepProps} /> : null}
      {step === "upload" && type === "feishu" ? <FeishuImportStep {...linkStepProps} /> : null}
      {step === "preview" && uploaded ? (
        <PreviewStep
          fileId={uploaded.id}
          report={uploaded.report}
          onCancel={() => void cancelImport()}
          onNext={(fileType) => {
            setUploaded((current) => (current ? { ...current, fileType } : current));
            setStep("confirm");
          }}
          onUnavailable={restart}
        />
      ) : null}
      {step === "confirm" && uploaded ? (
        <ConfirmStep
          fileName={uploaded.name}
          records={uploaded.fileType === "qa" || uploaded.fileType === "table"}
          chunkTokens={base.chunkTokens}
          chunkOverlap={base.chunkOverlap}
          confirming={confirming}
          onBack={() => setStep("preview")}
          onConfirm={() => void confirm()}
        />
      ) : null}
    </div>
  );
}

function UploadStep({
  type,
  knowledgeBaseId,
  onBack,
  onUploaded,
  onShowFiles,
}: {
  type: UploadType;
  knowledgeBaseId: string;
  onBack: () => void;
  onUploaded: (file: KnowledgeFile, report?: KnowledgeImportReport) => void;
  onShowFiles: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string; indexColumn?: string }>();
  const [picked, setPicked] = useState<File>();
  const [pickError, setPickError] = useState<string>();
  const [serverError, setServerError] = useState<string>();
  const [failed, setFailed] = useState<KnowledgeFile>();
  const [uploading, setUploading] = useState(false);
  /** A CSV table's field names, read before uploading to offer the index column. */
  const [fields, setFields] = useState<string[]>([]);
  const extensions: readonly string[] = UPLOAD_EXTENSIONS[type];
  const types = extensions.join(", ");
  const megabytes = KNOWLEDGE_LIMITS.documentMaxBytes / 1024 / 1024;

  const pick = (file: File) => {
    setServerError(undefined);
    setFailed(undefined);
    const broken = checkUpload(file, extensions);
    if (broken) {
      setPicked(undefined);
      setPickError(t(broken, { types, megabytes, name: file.name }));
      return;
    }
    setPickError(undefined);
    setPicked(file);
    setFields([]);
    form.setFieldsValue({ name: suggestFileName(file.name), indexColumn: undefined });
    void form.validateFields(["name"]).catch(() => undefined);
    if (type === "table" && extensionOf(file.name) === "csv") void readHeader(file);
  };

  const readHeader = async (file: File) => {
    const header = csvHeader(await file.slice(0, HEADER_BYTES).text());
    const repeated = duplicateFields(header);
    if (repeated.length > 0) setPickError(t("knowledge.rules.tableFieldsDuplicate", { fields: repeated.join(", ") }));
    setFields(header.filter((field, index) => field !== "" && header.indexOf(field) === index));
  };

  const downloadTemplate = async () => {
    const language = currentLanguage();
    const result = await knowledgeEndpoints.qaTemplate(knowledgeBaseId, language);
    if (result.ok) saveBlob(result.data as Blob, t("knowledge.import.qaTemplateFile"));
  };

  const upload = async () => {
    if (!picked) {
      setPickError(t("knowledge.rules.fileRequired"));
      return;
    }
    const values = await validValues(form);
    if (!values) return;
    const name = values.name.trim();
    const indexColumn = values.indexColumn?.trim() || undefined;
    setUploading(true);
    setServerError(undefined);
    setFailed(undefined);
    try {
      const result =
        type === "qa"
          ? await knowledgeEndpoints.importQa(knowledgeBaseId, picked, picked.name, name)
          : type === "table"
            ? await knowledgeEndpoints.importTable(knowledgeBaseId, picked, picked.name, name, indexColumn)
            : await knowledgeEndpoints.uploadDocument(knowledgeBaseId, picked, picked.name, name);
      if (!result.ok) {
        if (result.error.kind === "http") {
          // The server's message, verbatim: it names the broken rule in the interface language.
          setServerError(result.error.message);
          const field = result.error.field;
          if (field === "name" || field === "indexColumn") form.setFields([{ name: field, errors: [result.error.message] }]);
        }
        return;
      }
      const { file, report } = "report" in result.data ? result.data : { file: result.data, report: undefined };
      if (file.status === "failed") setFailed(file);
      else onUploaded(file, report);
    } finally {
      setUploading(false);
    }
  };

  return (
    <div data-testid="import-upload-step" data-type={type}>
      {type === "qa" ? (
        <Alert
          type="info"
          showIcon
          className="pl-kb-alert"
          title={t("knowledge.import.qaTemplateHint")}
          action={
            <Button size="small" icon={<DownloadOutlined />} onClick={() => void downloadTemplate()} data-testid="import-qa-template">
              {t("knowledge.import.qaTemplate")}
            </Button>
          }
        />
      ) : null}
      <Upload.Dragger
        accept={extensions.map((extension) => `.${extension}`).join(",")}
        multiple={false}
        showUploadList={false}
        beforeUpload={(file) => {
          pick(file);
          return Upload.LIST_IGNORE;
        }}
        data-testid="import-dragger"
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{t(`knowledge.import.dragger.${type}`)}</p>
        <p className="ant-upload-hint">{t("knowledge.import.draggerHint", { types, megabytes })}</p>
      </Upload.Dragger>
      {pickError ? <Alert type="error" showIcon className="pl-kb-alert" title={pickError} data-testid="import-pick-error" /> : null}
      {picked ? (
        <Flex align="center" gap={8} className="pl-kb-picked" data-testid="import-picked">
          <FileTextOutlined />
          <Typography.Text strong>{picked.name}</Typography.Text>
          <Typography.Text type="secondary">
            {t("knowledge.import.sizeKb", { size: Math.max(1, Math.ceil(picked.size / 1024)).toLocaleString(i18n.language) })}
          </Typography.Text>
        </Flex>
      ) : null}
      <Form form={form} layout="vertical" className="pl-kb-upload-form" onFinish={() => void upload()}>
        <Form.Item
          name="name"
          label={t("knowledge.import.nameLabel")}
          extra={t("knowledge.rules.fileNameHelp", { max: KNOWLEDGE_LIMITS.fileNameMax })}
          rules={[fileNameRule()]}
        >
          <Input maxLength={KNOWLEDGE_LIMITS.fileNameMax} placeholder={t("knowledge.import.namePlaceholder")} data-testid="import-name" />
        </Form.Item>
        {type === "table" ? (
          <Form.Item
            name="indexColumn"
            label={t("knowledge.table.indexColumn")}
            extra={t("knowledge.table.indexColumnHint")}
            rules={[
              {
                validator: async (_rule, value?: string) => {
                  const chosen = value?.trim();
                  if (chosen && fields.length > 0 && !fields.includes(chosen)) throw new Error(t("knowledge.rules.indexColumnUnknown", { column: chosen }));
                },
              },
            ]}
          >
            <AutoComplete
              allowClear
              options={fields.map((field) => ({ value: field }))}
              placeholder={fields[0] ? t("knowledge.table.indexColumnDefaultNamed", { field: fields[0] }) : t("knowledge.table.indexColumnDefault")}
              data-testid="import-index-column"
            />
          </Form.Item>
        ) : null}
      </Form>
      <ImportStepFooter
        serverError={serverError}
        failed={failed}
        failedTitleKey="knowledge.import.failedTitle"
        onShowFiles={onShowFiles}
        onBack={onBack}
        submitIcon={<CloudUploadOutlined />}
        submitLabel={t("knowledge.import.upload")}
        submitting={uploading}
        onSubmit={() => void upload()}
      />
    </div>
  );
}

function WebsiteStep({ knowledgeBaseId, onBack, onImported, onShowFiles }: FeishuImportStepProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<LinkImportValues>();
  const { importing, serverError, failed, submit } = useLinkImport(form, (body) => knowledgeEndpoints.importWebsite(knowledgeBaseId, body), onImported);

  return (
    <div data-testid="import-website-step">
      <Form form={form} layout="vertical" className="pl-kb-upload-form pl-kb-website-form" onFinish={() => void submit()}>
        <Form.Item name="url" label={t("knowledge.import.websiteUrl")} extra={t("knowledge.import.websiteUrlHint")} rules={[checkRule(checkWebsiteUrl)]}>
          <Input prefix={<GlobalOutlined />} placeholder="https://example.com/help/returns" inputMode="url" data-testid="import-website-url" />
        </Form.Item>
        <Form.Item
          name="name"
          label={t("knowledge.import.nameLabel")}
          extra={t("knowledge.import.websiteNameHint", { max: KNOWLEDGE_LIMITS.fileNameMax })}
          rules={[fileNameRule(true)]}
        >
          <Input maxLength={KNOWLEDGE_LIMITS.fileNameMax} placeholder={t("knowledge.import.websiteNamePlaceholder")} data-testid="import-name" />
        </Form.Item>
      </Form>
      <ImportStepFooter
        serverError={serverError}
        failed={failed}
        failedTitleKey="knowledge.import.websiteFailedTitle"
        onShowFiles={onShowFiles}
        onBack={onBack}
        submitIcon={<CloudUploadOutlined />}
        submitLabel={t("knowledge.import.fetch")}
        submitting={importing}
        onSubmit={() => void submit()}
      />
    </div>
  );
}

/** How a records import went: counts, the server's message, and the failed rows. */
function ImportReportView({ report }: { report: KnowledgeImportReport }) {
  const { t } = useTranslation();
  const partial = report.failedRecords > 0;
  return (
    <Alert
      type={partial ? "warning" : "success"}
      showIcon
      className="pl-kb-alert"
      title={t("knowledge.import.report", { imported: report.importedRecords, total: report.totalRecords })}
      description={
        partial ? (
          <>
            {report.message ? <Typography.Text data-testid="import-report-message">{report.message}</Typography.Text> : null}
            <Collapse
              ghost
              size="small"
              items={[
                {
                  key: "failures",
                  label: t("knowledge.import.failures", { count: report.failures.length }),
                  children: (
                    <Table
                      size="small"
                      rowKey="row"
                      pagination={false}
                      dataSource={report.failures}
                      columns={[
                        { key: "row", title: t("knowledge.import.failureRow"), dataIndex: "row", width: 80 },
                        { key: "reason", title: t("knowledge.import.failureReason"), dataIndex: "reason" },
                      ]}
                      data-testid="import-report-failures"
                    />
                  ),
                },
              ]}
            />
          </>
        ) : undefined
      }
      data-testid="import-report"
    />
  );
}

/** A Q&A pair kept in a segment's metadata, if it holds one. */
function qaPairOf(metadata: Record<string, unknown> | undefined): { question: string; answer: string; searchMethod?: string } | undefined {
  if (!metadata || typeof metadata.question !== "string" || typeof metadata.answer !== "string") return undefined;
  return {
    question: metadata.question,
    answer: metadata.answer,
    ...(typeof metadata.searchMethod === "string" ? { searchMethod: metadata.searchMethod } : {}),
  };
}

/** A pending file's preview, with its table layout when it is a table (one cache entry). */
async function previewOf(fileId: string, signal: AbortSignal): Promise<ApiResult<{ preview: KnowledgeFilePreview; table?: KnowledgeTable }>> {
  const result = await knowledgeEndpoints.preview(fileId, { silent: true, signal });
  if (!result.ok || result.data.type !== "table") return mapData(Promise.resolve(result), (preview) => ({ preview }));
  const layout = await knowledgeEndpoints.table(fileId, { silent: true, signal });
  return { ok: true, data: { preview: result.data, ...(layout.ok ? { table: layout.data } : {}) } };
}

function PreviewStep({
  fileId,
  report,
  onCancel,
  onNext,
  onUnavailable,
}: {
  fileId: string;
  report?: KnowledgeImportReport;
  onCancel: () => void;
  onNext: (fileType: KnowledgeFile["type"]) => void;
  onUnavailable: () => void;
}) {
  const {
    t,
    i18n: { language },
  } = useTranslation();
  const query = useSpaceQuery({ key: [...KNOWLEDGE_BASES, "preview", fileId], fetch: (signal) => previewOf(fileId, signal) });
  const preview = query.data?.preview;
  const table = query.data?.table;
  // Only the server's refusal says the preview is unavailable; a network failure keeps waiting.
  const error = query.error?.failure.kind === "http" ? query.error.message : undefined;

  if (error) {
    return (
      <Result
        status="warning"
        title={t("knowledge.import.previewUnavailable")}
        subTitle={error}
        extra={
          <Button type="primary" onClick={onUnavailable} data-testid="import-restart">
            {t("knowledge.import.chooseAnother")}
          </Button>
        }
        data-testid="import-preview-error"
      />
    );
  }
  if (!preview) return <Skeleton active paragraph={{ rows: 8 }} />;

  const shown = preview.segments.length;
  return (
    <div data-testid="import-preview-step">
      {report ? <ImportReportView report={report} /> : null}
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 3 }}
        className="pl-kb-descriptions"
        items={[
          { key: "type", label: t("knowledge.import.previewType"), children: <Tag>{t(`knowledge.fileTypes.${preview.type}`)}</Tag> },
          {
            key: "segments",
            label: t("knowledge.import.previewSegments"),
            children: <span data-testid="preview-total">{preview.totalSegments.toLocaleString(language)}</span>,
          },
          {
            key: "tokens",
            label: t("knowledge.import.previewTokens"),
            children: <span data-testid="preview-tokens">{preview.tokenCount.toLocaleString(language)}</span>,
          },
        ]}
      />
      <Typography.Paragraph type="secondary" data-testid="preview-shown">
        {t(preview.type === "table" || preview.type === "qa" ? "knowledge.import.previewShownRows" : "knowledge.import.previewShown", {
          shown,
          total: preview.totalSegments,
        })}
      </Typography.Paragraph>
      {preview.type === "table" ? (
        <TablePreview
          fields={table?.fields ?? Object.keys(rowValuesOf(preview.segments[0]?.metadata) ?? {})}
          indexColumn={table?.indexColumn}
          rows={preview.segments.map((segment) => ({ key: segment.ordinal, values: rowValuesOf(segment.metadata) ?? {} }))}
          data-testid="preview-table"
        />
      ) : (
        <List
          className="pl-kb-preview"
          dataSource={preview.segments}
          data-testid="preview-segments"
          renderItem={(segment) => {
            const pair = qaPairOf(segment.metadata);
            return (
              <List.Item className="pl-kb-segment" data-testid="preview-segment">
                <div className="pl-kb-segment__body">
                  <Flex gap={6} align="center" wrap>
                    <Tag>#{segment.ordinal + 1}</Tag>
                    <Typography.Text type="secondary">{t("knowledge.segments.tokens", { count: segment.tokens })}</Typography.Text>
                    {pair?.searchMethod ? (
                      <Tag color="blue">{t(`knowledge.import.searchMethods.${pair.searchMethod === "question" ? "question" : "questionAnswer"}`)}</Tag>
                    ) : null}
                  </Flex>
                  {pair ? (
                    <dl className="pl-kb-qa">
                      <dt>{t("knowledge.import.question")}</dt>
                      <dd>{pair.question}</dd>
                      <dt>{t("knowledge.import.answer")}</dt>
                      <dd>
                        <Typography.Paragraph className="pl-kb-segment__content" ellipsis={{ rows: 4, expandable: "collapsible" }}>
                          {pair.answer}
                        </Typography.Paragraph>
                      </dd>
                    </dl>
                  ) : (
                    <Typography.Paragraph className="pl-kb-segment__content" ellipsis={{ rows: 4, expandable: "collapsible" }}>
                      {segment.content}
                    </Typography.Paragraph>
                  )}
                </div>
              </List.Item>
            );
          }}
        />
      )}
      <Flex justify="space-between" className="pl-kb-actions">
        <Button danger icon={<DeleteOutlined />} onClick={onCancel} data-testid="import-cancel">
          {t("knowledge.import.cancel")}
        </Button>
        <Button type="primary" onClick={() => onNext(preview.type)} data-testid="import-next">
          {t("knowledge.import.next")}
        </Button>
      </Flex>
    </div>
  );
}

function ConfirmStep({
  fileName,
  records,
  chunkTokens,
  chunkOverlap,
  confirming,
  onBack,
  onConfirm,
}: {
  fileName?: string;
  /** Q&A pairs and table rows are one segment each; documents are cut by the chunking settings. */
  records: boolean;
  chunkTokens: number;
  chunkOverlap: number;
  confirming: boolean;
  onBack: () => void;
  onConfirm: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div data-testid="import-confirm-step">
      <Result
        icon={<CheckOutlined className="pl-kb-confirm-icon" />}
        title={fileName ? t("knowledge.import.confirmTitleNamed", { name: fileName }) : t("knowledge.import.confirmTitle")}
        subTitle={records ? t("knowledge.import.confirmDescriptionRecords") : t("knowledge.import.confirmDescription", { chunkTokens, chunkOverlap })}
      />
      <Flex justify="space-between" className="pl-kb-actions">
        <Button icon={<ArrowLeftOutlined />} onClick={onBack} data-testid="import-back">
          {t("knowledge.import.back")}
        </Button>
        <Button type="primary" loading={confirming} onClick={onConfirm} data-testid="import-confirm">
          {t("knowledge.import.confirm")}
        </Button>
      </Flex>
    </div>
  );
}
