import { DeleteOutlined, EditOutlined, ExperimentOutlined, ImportOutlined, PlusOutlined, SearchOutlined } from "@ant-design/icons";
import {
  Alert,
  Button,
  Checkbox,
  Flex,
  Input,
  InputNumber,
  List,
  Modal,
  Popconfirm,
  Radio,
  Select,
  Skeleton,
  Space,
  Table,
  Tag,
  Tooltip,
  Typography,
  Upload,
} from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../../components/empty-state";
import { knowledgeEndpoints, type RetrievedChunk } from "../../lib/api/knowledge";
import {
  evaluationEndpoints,
  evaluationKey,
  type EvaluationImportReport,
  type EvaluationQuestion,
  type EvaluationRun,
  type RunEvaluation,
} from "../../lib/api/knowledge-evaluation";
import { invalidateSpace, useSpaceQuery } from "../../lib/api/query";
import { feedback } from "../../lib/feedback";
import { formatDateTime } from "../../lib/format";
import { useRerankModels } from "../apps/knowledge-settings-section";
import { useKnowledgeBase } from "./knowledge-manage-layout";
import { APP_RETRIEVAL_DEFAULTS } from "./knowledge-rules";

/** Longest question the server accepts. */
const QUESTION_MAX = 2000;
/** Passages one question may expect. */
const PASSAGES_MAX = 20;
const FIGURES = ["hitRate", "recall", "ndcg10", "mrr"] as const;
type Figure = (typeof FIGURES)[number];

const percent = (value: number | null | undefined) => (value === null || value === undefined ? "—" : `${(value * 100).toFixed(1)}%`);

/** A passage the question modal holds: a segment id with what to show for it. */
interface PickedPassage {
  chunkId: string;
  fileName: string;
  excerpt: string;
  missing?: boolean;
}

/** Props of {@link QuestionModal}. */
interface QuestionModalProps {
  knowledgeBaseId: string;
  /** The question edited; null for a new one; undefined when closed. */
  editing: EvaluationQuestion | null | undefined;
  onClose: () => void;
}

/** Adds or edits a question: its text and the segments that answer it, picked by searching the knowledge base. */
function QuestionModal({ knowledgeBaseId, editing, onClose }: QuestionModalProps) {
  const { t } = useTranslation();
  const [question, setQuestion] = useState("");
  const [picked, setPicked] = useState<PickedPassage[]>([]);
  const [search, setSearch] = useState("");
  const [hits, setHits] = useState<RetrievedChunk[]>();
  const [searching, setSearching] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string>();
  const [openedFor, setOpenedFor] = useState<EvaluationQuestion | null | undefined>(undefined);

  // Reset the form whenever the modal opens on another question.
  if (editing !== openedFor) {
    setOpenedFor(editing);
    setQuestion(editing?.question ?? "");
    setPicked(editing?.passages ?? []);
    setSearch(editing?.question ?? "");
    setHits(undefined);
    setError(undefined);
  }

  const runSearch = async () => {
    const text = search.trim() || question.trim();
    if (!text) return;
    setSearching(true);
    try {
      const result = await knowledgeEndpoints.retrievalTest(knowledgeBaseId, { query: text, similarityThreshold: 0 });
      if (result.ok) {
        const seen = new Set<string>();
        setHits([...result.data.hybrid, ...result.data.fullText, ...result.data.semantic].filter((hit) => !seen.has(hit.chunkId) && seen.add(hit.chunkId)));
      }
    } finally {
      setSearching(false);
    }
  };

  const toggle = (hit: RetrievedChunk, on: boolean) =>
    setPicked((current) =>
      on
        ? [...current, { chunkId: hit.chunkId, fileName: hit.fileName, excerpt: hit.content.slice(0, 300) }]
        : current.filter((passage) => passage.chunkId !== hit.chunkId),
    );

  const save = async () => {
    setSaving(true);
    setError(undefined);
    try {
      const body = { question, chunkIds: picked.map((passage) => passage.chunkId) };
      const result = editing
        ? await evaluationEndpoints.updateQuestion(knowledgeBaseId, editing.id, body)
        : await evaluationEndpoints.createQuestion(knowledgeBaseId, body);
      if (result.ok) {
        await invalidateSpace(evaluationKey(knowledgeBaseId));
        onClose();
      } else if (result.error.kind === "http") setError(result.error.message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={editing !== undefined}
      title={t(editing ? "evaluation.question.editTitle" : "evaluation.question.addTitle")}
      okText={t("common.save")}
      cancelText={t("common.cancel")}
      confirmLoading={saving}
      onOk={() => void save()}
      onCancel={onClose}
      okButtonProps={{ "data-testid": "evaluation-question-save", disabled: !question.trim() || picked.length === 0 }}
      width={720}
    >
      <Flex vertical gap={12}>
        <Input.TextArea
          value={question}
          onChange={(event) => setQuestion(event.target.value)}
          maxLength={QUESTION_MAX}
          autoSize={{ minRows: 2, maxRows: 4 }}
          placeholder={t("evaluation.question.placeholder")}
          aria-label={t("evaluation.question.label")}
          data-testid="evaluation-question-text"
        />
        <Typography.Text strong>{t("evaluation.question.passages", { count: picked.length, max: PASSAGES_MAX })}</Typography.Text>
        {picked.length === 0 ? <Typography.Text type="secondary">{t("evaluation.question.noPassages")}</Typography.Text> : null}
        <Flex vertical gap={4} data-testid="evaluation-picked">
          {picked.map((passage) => (
            <Flex key={passage.chunkId} gap={8} align="start">
              <Tag color={passage.missing ? "red" : "blue"}>{passage.missing ? t("evaluation.question.missing") : passage.fileName}</Tag>
              <Typography.Text ellipsis={{ tooltip: passage.excerpt }} style={{ flex: 1 }}>
                {passage.excerpt}
              </Typography.Text>
              <Button
                size="small"
                type="text"
                icon={<DeleteOutlined />}
                aria-label={t("common.delete")}
                onClick={() => setPicked((current) => current.filter((item) => item !== passage))}
              />
            </Flex>
          ))}
        </Flex>
        <Space.Compact>
          <Input
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            onPressEnter={() => void runSearch()}
            placeholder={t("evaluation.question.searchPlaceholder")}
            aria-label={t("evaluation.question.search")}
            data-testid="evaluation-passage-search"
          />
          <Button icon={<SearchOutlined />} loading={searching} onClick={() => void runSearch()} data-testid="evaluation-passage-search-run">
            {t("evaluation.question.search")}
          </Button>
        </Space.Compact>
        {hits ? (
          <List
            size="small"
            bordered
            style={{ maxHeight: 280, overflow: "auto" }}
            dataSource={hits}
            locale={{ emptyText: t("evaluation.question.noHits") }}
            renderItem={(hit) => (
              <List.Item data-testid="evaluation-passage-hit">
                <Checkbox
                  checked={picked.some((passage) => passage.chunkId === hit.chunkId)}
                  disabled={picked.length >= PASSAGES_MAX && !picked.some((passage) => passage.chunkId === hit.chunkId)}
                  onChange={(event) => toggle(hit, event.target.checked)}
                >
                  <Tag>{hit.fileName}</Tag>
                  <Typography.Text>{hit.content.slice(0, 200)}</Typography.Text>
                </Checkbox>
              </List.Item>
            )}
          />
        ) : null}
        {error ? <Alert type="error" showIcon title={error} data-testid="evaluation-question-error" /> : null}
      </Flex>
    </Modal>
  );
}

/** Imports questions from a CSV (question, passage) and shows which lines were not imported and why. */
function ImportModal({ knowledgeBaseId, open, onClose }: { knowledgeBaseId: string; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [csv, setCsv] = useState("");
  const [report, setReport] = useState<EvaluationImportReport>();
  const [importing, setImporting] = useState(false);

  const close = () => {
    setCsv("");
    setReport(undefined);
    onClose();
  };
  const submit = async () => {
    setImporting(true);
    try {
      const result = await evaluationEndpoints.importQuestions(knowledgeBaseId, csv);
      if (result.ok) {
        setReport(result.data);
        await invalidateSpace(evaluationKey(knowledgeBaseId));
      }
    } finally {
      setImporting(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t("evaluation.import.title")}
      onCancel={close}
      width={640}
      footer={
        report ? (
          <Button onClick={close} data-testid="evaluation-import-close">
            {t("evaluation.import.close")}
          </Button>
        ) : (
          <Button type="primary" loading={importing} disabled={!csv.trim()} onClick={() => void submit()} data-testid="evaluation-import-submit">
            {t("evaluation.import.submit")}
          </Button>
        )
      }
    >
      {report ? (
        <Flex vertical gap={8} data-testid="evaluation-import-report">
          <Alert
            type={report.failures.length > 0 ? "warning" : "success"}
            showIcon
            title={t("evaluation.import.summary", { questions: report.importedQuestions, lines: report.importedLines, total: report.totalLines })}
          />
          {report.failures.length > 0 ? (
            <List
              size="small"
              bordered
              dataSource={report.failures}
              renderItem={(failure) => (
                <List.Item data-testid="evaluation-import-failure">
                  {t("evaluation.import.line", { line: failure.line })}: {failure.reason}
                </List.Item>
              )}
            />
          ) : null}
        </Flex>
      ) : (
        <Flex vertical gap={8}>
          <Typography.Paragraph type="secondary">{t("evaluation.import.help")}</Typography.Paragraph>
          <Upload
            accept=".csv,text/csv"
            showUploadList={false}
            beforeUpload={(file) => {
              void file.text().then(setCsv);
              return false;
            }}
          >
            <Button icon={<ImportOutlined />} data-testid="evaluation-import-file">
              {t("evaluation.import.chooseFile")}
            </Button>
          </Upload>
          <Input.TextArea
            value={csv}
            onChange={(event) => setCsv(event.target.value)}
            autoSize={{ minRows: 6, maxRows: 14 }}
            placeholder={"question,passage\nHow long do returns take?,Returns are accepted within thirty days"}
            aria-label={t("evaluation.import.csv")}
            data-testid="evaluation-import-csv"
          />
        </Flex>
      )}
    </Modal>
  );
}

/** One run's per-question results, loaded when its row is expanded. */
function RunDetail({ knowledgeBaseId, run }: { knowledgeBaseId: string; run: EvaluationRun }) {
  const { t } = useTranslation();
  const query = useSpaceQuery({
    key: [...evaluationKey(knowledgeBaseId), "run", run.id],
    fetch: (signal) => evaluationEndpoints.runDetail(knowledgeBaseId, run.id, { signal }),
    staleTime: Infinity,
  });
  if (run.status === "failed") return <Alert type="error" showIcon title={run.failureReason ?? t("evaluation.runs.failed")} />;
  if (!query.data) return <Skeleton active paragraph={{ rows: 2 }} />;
  return (
    <Table
      size="small"
      rowKey="questionId"
      pagination={false}
      dataSource={query.data.results}
      data-testid="evaluation-run-detail"
      columns={[
        { title: t("evaluation.detail.question"), dataIndex: "question" },
        {
          title: t("evaluation.detail.ranks"),
          render: (_, result) => (
            <Flex gap={4} wrap>
              {result.expected.map((passage) => (
                <Tooltip key={passage.chunkId} title={`${passage.fileName}: ${passage.excerpt}`}>
                  <Tag color={passage.rank === null ? "red" : passage.rank <= run.settings.k ? "green" : "gold"}>
                    {passage.rank === null ? t("evaluation.detail.notFound") : `#${passage.rank}`}
                  </Tag>
                </Tooltip>
              ))}
            </Flex>
          ),
        },
        { title: t("evaluation.detail.hit"), render: (_, result) => (result.hit ? "✓" : "✗"), width: 60 },
        { title: t("evaluation.figures.recall", { k: run.settings.k }), render: (_, result) => percent(result.recall), width: 110 },
        { title: t("evaluation.figures.ndcg10"), render: (_, result) => result.ndcg10.toFixed(3), width: 100 },
      ]}
    />
  );
}

/** The settings of a run in words. */
function useSettingsText() {
  const { t } = useTranslation();
  return (run: EvaluationRun) => {
    const settings = run.settings;
    const mode = t(`knowledge.retrieval.modes.${settings.mode}`);
    return settings.path === "app"
      ? t("evaluation.runs.appSettings", {
          mode,
          semantic: settings.semanticCount ?? 0,
          fullText: settings.fullTextCount ?? 0,
          threshold: settings.similarityThreshold.toFixed(2),
        }) + (settings.rerankModel ? ` · ${t("rerank.tag", { id: settings.rerankModel })} ≥ ${(settings.rerankThreshold ?? 0).toFixed(2)}` : "")
      : t("evaluation.runs.searchSettings", { mode, k: settings.k, threshold: settings.similarityThreshold.toFixed(2) });
  };
}

/**
 * knowledgeManage/evaluation: the knowledge base's evaluation questions with the passages that
 * should answer them (typed, imported from CSV, or added from the retrieval test), a run form,
 * and the runs with hit rate, recall@k, nDCG@10 and MRR side by side, the best of each marked.
 */
export function EvaluationPage() {
  const { t, i18n } = useTranslation();
  const { base } = useKnowledgeBase();
  const key = evaluationKey(base.id);
  const questions = useSpaceQuery({ key: [...key, "questions"], fetch: (signal) => evaluationEndpoints.questions(base.id, { signal }) });
  const runs = useSpaceQuery({ key: [...key, "runs"], fetch: (signal) => evaluationEndpoints.runs(base.id, { signal }) });
  const [editing, setEditing] = useState<EvaluationQuestion | null>();
  const [importing, setImporting] = useState(false);
  const [running, setRunning] = useState(false);
  const [settings, setSettings] = useState<Required<Omit<RunEvaluation, "path">> & { path: "search" | "app" }>({
    path: "search",
    mode: "hybrid",
    k: 10,
    similarityThreshold: 0,
    semanticCount: APP_RETRIEVAL_DEFAULTS.semanticCount,
    fullTextCount: APP_RETRIEVAL_DEFAULTS.fullTextCount,
    rerankModel: null,
    rerankThreshold: 0,
  });
  const rerankModels = useRerankModels();
  const settingsText = useSettingsText();

  const list = questions.data ?? [];
  const runList = runs.data ?? [];
  // The best value of each figure, when the runs differ in it (a tie everywhere marks nothing).
  const best = Object.fromEntries(
    FIGURES.map((figure) => {
      const values = runList.flatMap((run) => (run[figure] === null ? [] : [run[figure]]));
      return [figure, values.length > 1 && Math.max(...values) > Math.min(...values) ? Math.max(...values) : undefined];
    }),
  ) as Record<Figure, number | undefined>;

  const removeQuestion = async (question: EvaluationQuestion) => {
    const result = await evaluationEndpoints.removeQuestion(base.id, question.id);
    if (result.ok) await invalidateSpace(key);
  };
  const removeRun = async (run: EvaluationRun) => {
    const result = await evaluationEndpoints.removeRun(base.id, run.id);
    if (result.ok) await invalidateSpace(key);
  };
  const start = async () => {
    setRunning(true);
    try {
      const body: RunEvaluation =
        settings.path === "app" ? settings : { path: "search", mode: settings.mode, k: settings.k, similarityThreshold: settings.similarityThreshold };
      const result = await evaluationEndpoints.run(base.id, body);
      await invalidateSpace([...key, "runs"]);
      if (result.ok) feedback.success(t("evaluation.runs.done", { ndcg: result.data.ndcg10?.toFixed(3) ?? "—" }));
    } finally {
      setRunning(false);
    }
  };

  const figureColumn = (figure: Figure, title: string) => ({
    title,
    key: figure,
    render: (_: unknown, run: EvaluationRun) => {
      const value = run[figure];
      const top = value !== null && value === best[figure];
      return (
        <span data-testid={`evaluation-run-${figure}`} className={top ? "pl-eval-best" : undefined}>
          {figure === "ndcg10" || figure === "mrr" ? (value === null ? "—" : value.toFixed(3)) : percent(value)}
          {top ? (
            <Tag color="green" className="pl-eval-best__tag">
              {t("evaluation.runs.best")}
            </Tag>
          ) : null}
        </span>
      );
    },
  });

  return (
    <div className="pl-kb-evaluation" data-testid="knowledge-evaluation">
      <div className="pl-card pl-kb-panel">
        <Flex justify="space-between" align="center" wrap gap={8}>
          <div>
            <Typography.Title level={5} className="pl-kb-panel__title">
              {t("evaluation.questions.title", { count: list.length })}
            </Typography.Title>
            <Typography.Text type="secondary">{t("evaluation.questions.description")}</Typography.Text>
          </div>
          <Space>
            <Button icon={<ImportOutlined />} onClick={() => setImporting(true)} data-testid="evaluation-import">
              {t("evaluation.import.open")}
            </Button>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)} data-testid="evaluation-add-question">
              {t("evaluation.question.add")}
            </Button>
          </Space>
        </Flex>
        <Table
          size="small"
          rowKey="id"
          loading={questions.isFetching && !questions.data}
          dataSource={list}
          pagination={list.length > 20 ? { pageSize: 20 } : false}
          locale={{ emptyText: <EmptyState compact title={t("evaluation.questions.empty")} description={t("evaluation.questions.emptyHint")} /> }}
          data-testid="evaluation-questions"
          columns={[
            {
              title: t("evaluation.question.label"),
              dataIndex: "question",
              render: (text: string) => <span data-testid="evaluation-question-row">{text}</span>,
            },
            {
              title: t("evaluation.question.passagesColumn"),
              render: (_, question) => (
                <Flex gap={4} wrap>
                  {question.passages.map((passage) => (
                    <Tooltip key={passage.chunkId} title={passage.excerpt}>
                      <Tag color={passage.missing ? "red" : "blue"} data-testid="evaluation-question-passage">
                        {passage.missing ? t("evaluation.question.missing") : passage.fileName}
                      </Tag>
                    </Tooltip>
                  ))}
                </Flex>
              ),
            },
            {
              title: "",
              width: 100,
              render: (_, question) => (
                <Space>
                  <Button size="small" type="text" icon={<EditOutlined />} aria-label={t("evaluation.question.edit")} onClick={() => setEditing(question)} />
                  <Popconfirm title={t("evaluation.question.deleteConfirm")} onConfirm={() => void removeQuestion(question)}>
                    <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={t("common.delete")} />
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      </div>

      <div className="pl-card pl-kb-panel">
        <Typography.Title level={5} className="pl-kb-panel__title">
          {t("evaluation.run.title")}
        </Typography.Title>
        <Flex gap={16} wrap align="end" data-testid="evaluation-run-form">
          <Flex vertical gap={4}>
            <Typography.Text type="secondary">{t("evaluation.run.path")}</Typography.Text>
            <Radio.Group
              value={settings.path}
              onChange={(event) => {
                const path = event.target.value as "search" | "app";
                // Each path starts from the server's default threshold: none for a ranked list, a new app's for the app path.
                setSettings((current) => ({ ...current, path, similarityThreshold: path === "app" ? APP_RETRIEVAL_DEFAULTS.similarityThreshold : 0 }));
              }}
              optionType="button"
              options={[
                { value: "search", label: <span data-testid="evaluation-path-search">{t("evaluation.run.paths.search")}</span> },
                { value: "app", label: <span data-testid="evaluation-path-app">{t("evaluation.run.paths.app")}</span> },
              ]}
            />
          </Flex>
          <Flex vertical gap={4}>
            <Typography.Text type="secondary">{t("evaluation.run.mode")}</Typography.Text>
            <Select
              value={settings.mode}
              style={{ width: 150 }}
              onChange={(mode) => setSettings((current) => ({ ...current, mode }))}
              options={(["hybrid", "semantic", "fulltext"] as const).map((mode) => ({ value: mode, label: t(`knowledge.retrieval.modes.${mode}`) }))}
              data-testid="evaluation-mode"
            />
          </Flex>
          <Flex vertical gap={4}>
            <Typography.Text type="secondary">{t("evaluation.run.k")}</Typography.Text>
            <InputNumber
              min={1}
              max={20}
              value={settings.k}
              onChange={(k) => setSettings((current) => ({ ...current, k: k ?? 10 }))}
              data-testid="evaluation-k"
            />
          </Flex>
          <Flex vertical gap={4}>
            <Typography.Text type="secondary">{t("evaluation.run.threshold")}</Typography.Text>
            <InputNumber
              min={0}
              max={1}
              step={0.05}
              value={settings.similarityThreshold}
              onChange={(value) => setSettings((current) => ({ ...current, similarityThreshold: value ?? 0 }))}
              data-testid="evaluation-threshold"
            />
          </Flex>
          {settings.path === "app" ? (
            <>
              <Flex vertical gap={4}>
                <Typography.Text type="secondary">{t("evaluation.run.semanticCount")}</Typography.Text>
                <InputNumber
                  min={0}
                  max={10}
                  value={settings.semanticCount}
                  onChange={(value) => setSettings((current) => ({ ...current, semanticCount: value ?? 0 }))}
                  data-testid="evaluation-semantic-count"
                />
              </Flex>
              <Flex vertical gap={4}>
                <Typography.Text type="secondary">{t("evaluation.run.fullTextCount")}</Typography.Text>
                <InputNumber
                  min={0}
                  max={10}
                  value={settings.fullTextCount}
                  onChange={(value) => setSettings((current) => ({ ...current, fullTextCount: value ?? 0 }))}
                  data-testid="evaluation-fulltext-count"
                />
              </Flex>
              <Flex vertical gap={4}>
                <Typography.Text type="secondary">{t("rerank.model")}</Typography.Text>
                <Select
                  allowClear
                  style={{ minWidth: 220 }}
                  loading={rerankModels === undefined}
                  placeholder={t("rerank.none")}
                  notFoundContent={rerankModels === undefined ? undefined : t("rerank.noModels")}
                  value={settings.rerankModel ?? undefined}
                  onChange={(value?: string) => setSettings((current) => ({ ...current, rerankModel: value ?? null }))}
                  options={(rerankModels ?? []).map((model) => ({
                    value: model.id,
                    label: t("rerank.option", { id: model.id, provider: model.providerName, credits: model.creditsPerCall }),
                  }))}
                  data-testid="evaluation-rerank-model"
                />
              </Flex>
              {settings.rerankModel ? (
                <Flex vertical gap={4}>
                  <Typography.Text type="secondary">{t("rerank.threshold")}</Typography.Text>
                  <InputNumber
                    min={0}
                    max={1}
                    step={0.05}
                    value={settings.rerankThreshold}
                    onChange={(value) => setSettings((current) => ({ ...current, rerankThreshold: value ?? 0 }))}
                    data-testid="evaluation-rerank-threshold"
                  />
                </Flex>
              ) : null}
            </>
          ) : null}
          <Button
            type="primary"
            icon={<ExperimentOutlined />}
            loading={running}
            disabled={list.length === 0}
            onClick={() => void start()}
            data-testid="evaluation-run"
          >
            {t("evaluation.run.start")}
          </Button>
        </Flex>
        <Typography.Paragraph type="secondary" className="pl-eval-hint">
          {t(settings.path === "app" ? "evaluation.run.appHint" : "evaluation.run.searchHint")}
        </Typography.Paragraph>
      </div>

      <div className="pl-card pl-kb-panel">
        <Typography.Title level={5} className="pl-kb-panel__title">
          {t("evaluation.runs.title")}
        </Typography.Title>
        <Table
          size="small"
          rowKey="id"
          loading={runs.isFetching && !runs.data}
          dataSource={runList}
          pagination={false}
          locale={{ emptyText: <EmptyState compact title={t("evaluation.runs.empty")} description={t("evaluation.runs.emptyHint")} /> }}
          expandable={{ expandedRowRender: (run) => <RunDetail knowledgeBaseId={base.id} run={run} /> }}
          onRow={() => ({ "data-testid": "evaluation-run-row" }) as React.HTMLAttributes<HTMLElement>}
          data-testid="evaluation-runs"
          columns={[
            { title: t("evaluation.runs.when"), render: (_, run) => formatDateTime(run.createdAt, i18n.language), width: 170 },
            {
              title: t("evaluation.runs.settings"),
              render: (_, run) => (
                <Flex vertical>
                  <span data-testid="evaluation-run-settings">{settingsText(run)}</span>
                  {run.settings.embeddingModel ? <Typography.Text type="secondary">{run.settings.embeddingModel}</Typography.Text> : null}
                  {run.status === "failed" ? <Tag color="red">{t("evaluation.runs.failed")}</Tag> : null}
                </Flex>
              ),
            },
            { title: t("evaluation.runs.questions"), dataIndex: "questionCount", width: 90 },
            figureColumn("hitRate", t("evaluation.figures.hitRate", { k: "k" })),
            figureColumn("recall", t("evaluation.figures.recall", { k: "k" })),
            figureColumn("ndcg10", t("evaluation.figures.ndcg10")),
            figureColumn("mrr", t("evaluation.figures.mrr")),
            { title: t("evaluation.runs.elapsed"), render: (_, run) => t("evaluation.runs.ms", { ms: run.elapsedMs }), width: 90 },
            {
              title: "",
              width: 50,
              render: (_, run) => (
                <Popconfirm title={t("evaluation.runs.deleteConfirm")} onConfirm={() => void removeRun(run)}>
                  <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={t("common.delete")} />
                </Popconfirm>
              ),
            },
          ]}
        />
      </div>

      <QuestionModal knowledgeBaseId={base.id} editing={editing} onClose={() => setEditing(undefined)} />
      <ImportModal knowledgeBaseId={base.id} open={importing} onClose={() => setImporting(false)} />
    </div>
  );
}
