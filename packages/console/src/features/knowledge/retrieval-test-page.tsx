import { SearchOutlined } from "@ant-design/icons";
import { Alert, Badge, Button, Col, Flex, Grid, Input, Row, Slider, Tabs, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { knowledgeEndpoints, type RetrievalTestResult } from "../../lib/api/knowledge";
import { evaluationEndpoints, evaluationKey } from "../../lib/api/knowledge-evaluation";
import { invalidateSpace } from "../../lib/api/query";
import { feedback } from "../../lib/feedback";
import { useKnowledgeBase } from "./knowledge-manage-layout";
import { APP_RETRIEVAL_DEFAULTS, KNOWLEDGE_LIMITS, SIMILARITY_HINTS, similarityHint } from "./knowledge-rules";
import { type RetrievalHit, RetrievalHitList, type RetrievalKind } from "./retrieval-hit-list";

type ModeKind = Exclude<RetrievalKind, "app">;
const KINDS: readonly ModeKind[] = ["semantic", "fullText", "hybrid"];
/**
 * knowledgeManage/retrievalFile: a query and a similarity threshold (hints at 0.8 and 0.7,
 * spec §9), starting from a new app's settings; first what an app with those settings would
 * answer from, then the semantic, full-text and hybrid hits side by side (tabs on narrow
 * screens), each with its scores, source file and content.
 */
export function RetrievalTestPage() {
  const { t } = useTranslation();
  const { base } = useKnowledgeBase();
  const [query, setQuery] = useState("");
  // Thresholds are calibrated per embedder, so an app's default means the same here for every model.
  const [threshold, setThreshold] = useState<number>(APP_RETRIEVAL_DEFAULTS.similarityThreshold);
  const [result, setResult] = useState<RetrievalTestResult>();
  const [running, setRunning] = useState(false);
  const [tab, setTab] = useState<ModeKind>("hybrid");
  // Three columns side by side when there is room, tabs otherwise.
  const wide = Grid.useBreakpoint().lg !== false;

  const run = async () => {
    const text = query.trim();
    if (!text) return;
    setRunning(true);
    try {
      const answer = await knowledgeEndpoints.retrievalTest(base.id, { query: text, similarityThreshold: threshold });
      if (answer.ok) setResult(answer.data);
    } finally {
      setRunning(false);
    }
  };

  // The query becomes an evaluation question with the hit as its expected passage; a question
  // already asked the same way gets the hit as one more passage.
  const addToEvaluation = async (hit: RetrievalHit) => {
    if (!result) return;
    const listed = await evaluationEndpoints.questions(base.id);
    if (!listed.ok) return;
    const same = listed.data.find((question) => question.question === result.query);
    const answer = same
      ? await evaluationEndpoints.updateQuestion(
          base.id,
          same.id,
          { chunkIds: [...new Set([...same.passages.map((passage) => passage.chunkId), hit.chunkId])] },
          { silent: false },
        )
      : await evaluationEndpoints.createQuestion(base.id, { question: result.query, chunkIds: [hit.chunkId] }, { silent: false });
    if (!answer.ok) return;
    await invalidateSpace(evaluationKey(base.id));
    feedback.success(t(same ? "evaluation.addFromTest.extended" : "evaluation.addFromTest.added"));
  };

  const hint = similarityHint(threshold);
  const column = (kind: ModeKind) => (
    <div className="pl-kb-column" data-testid={`retrieval-column-${kind}`}>
      <Flex justify="space-between" align="center" className="pl-kb-column__head">
        <Typography.Text strong>{t(`knowledge.retrieval.kinds.${kind}`)}</Typography.Text>
        <Badge count={result?.[kind].length ?? 0} showZero color="#4f5bd5" />
      </Flex>
      <Typography.Text type="secondary" className="pl-kb-column__hint">
        {t(`knowledge.retrieval.kindHints.${kind}`)}
      </Typography.Text>
      <RetrievalHitList kind={kind} hits={result?.[kind] ?? []} onAddToEvaluation={(hit) => void addToEvaluation(hit)} data-testid={`retrieval-${kind}`} />
    </div>
  );

  return (
    <div className="pl-kb-retrieval" data-testid="knowledge-retrieval">
      <div className="pl-card pl-kb-panel">
        <Typography.Title level={5} className="pl-kb-panel__title">
          {t("knowledge.retrieval.title")}
        </Typography.Title>
        <Typography.Paragraph type="secondary">{t("knowledge.retrieval.description", { count: KNOWLEDGE_LIMITS.retrievalHits })}</Typography.Paragraph>
        <Input.TextArea
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          onPressEnter={(event) => {
            if (!event.shiftKey) {
              event.preventDefault();
              void run();
            }
          }}
          autoSize={{ minRows: 2, maxRows: 6 }}
          maxLength={2000}
          placeholder={t("knowledge.retrieval.queryPlaceholder")}
          aria-label={t("knowledge.retrieval.query")}
          data-testid="retrieval-query"
        />
        <Row gutter={24} align="middle" className="pl-kb-threshold">
          <Col xs={24} md={14}>
            <Typography.Text>{t("knowledge.retrieval.threshold", { value: threshold.toFixed(2) })}</Typography.Text>
            <Slider
              min={0}
              max={1}
              step={0.01}
              value={threshold}
              onChange={setThreshold}
              marks={{ 0: "0", [SIMILARITY_HINTS.loose]: String(SIMILARITY_HINTS.loose), [SIMILARITY_HINTS.strict]: String(SIMILARITY_HINTS.strict), 1: "1" }}
              aria-label={t("knowledge.retrieval.thresholdLabel")}
              data-testid="retrieval-threshold"
            />
          </Col>
          <Col xs={24} md={10}>
            <Typography.Text type="secondary" data-testid="retrieval-threshold-hint">
              {t(`knowledge.retrieval.hints.${hint}`)}
            </Typography.Text>
          </Col>
        </Row>
        <Flex justify="flex-end">
          <Button type="primary" icon={<SearchOutlined />} loading={running} disabled={!query.trim()} onClick={() => void run()} data-testid="retrieval-run">
            {t("knowledge.retrieval.run")}
          </Button>
        </Flex>
      </div>
      {result ? (
        <>
          <Flex gap={8} align="center" wrap className="pl-kb-retrieval__meta" data-testid="retrieval-meta">
            <Typography.Text type="secondary">{t("knowledge.retrieval.model")}</Typography.Text>
            <Tag data-testid="retrieval-model">{result.embeddingModel}</Tag>
            <Typography.Text type="secondary">{t("knowledge.retrieval.elapsed", { ms: result.elapsedMs.toFixed(1) })}</Typography.Text>
          </Flex>
          {result.lexicalEmbedder ? (
            <Alert type="warning" showIcon className="pl-kb-alert" title={t("knowledge.lexicalNote")} data-testid="retrieval-lexical" />
          ) : null}
          <div className="pl-kb-column pl-kb-column--app" data-testid="retrieval-column-app">
            <Flex justify="space-between" align="center" className="pl-kb-column__head">
              <Typography.Text strong>{t("knowledge.retrieval.kinds.app")}</Typography.Text>
              <Badge count={result.app.length} showZero color="#4f5bd5" />
            </Flex>
            <Typography.Text type="secondary" className="pl-kb-column__hint" data-testid="retrieval-app-settings">
              {t("knowledge.retrieval.appSettings", {
                mode: t(`knowledge.retrieval.modes.${result.settings.mode}`),
                semantic: result.settings.semanticCount,
                fullText: result.settings.fullTextCount,
                threshold: result.settings.similarityThreshold.toFixed(2),
              })}
            </Typography.Text>
            <RetrievalHitList kind="app" hits={result.app} onAddToEvaluation={(hit) => void addToEvaluation(hit)} data-testid="retrieval-app" />
          </div>
          {wide ? (
            <Row gutter={[16, 16]} className="pl-kb-columns">
              {KINDS.map((kind) => (
                <Col key={kind} span={8}>
                  {column(kind)}
                </Col>
              ))}
            </Row>
          ) : (
            <Tabs
              activeKey={tab}
              onChange={(key) => setTab(key as ModeKind)}
              items={KINDS.map((kind) => ({ key: kind, label: t(`knowledge.retrieval.kinds.${kind}`), children: column(kind) }))}
            />
          )}
        </>
      ) : null}
    </div>
  );
}
