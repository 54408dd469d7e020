import { BookOutlined } from "@ant-design/icons";
import type { components } from "@parley/sdk";
import { Alert, Col, Flex, Form, Input, InputNumber, Radio, Row, Select, Switch, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useSpaceQuery } from "../../lib/api/query";
import { endpoints } from "../../lib/api/endpoints";
import { PATHS } from "../../lib/paths";
import { ruleOf } from "./form-helpers";
import {
  countsUsedBy,
  KNOWLEDGE_LIMITS,
  knowledgeRules,
  NO_HIT_STRATEGIES,
  RETRIEVAL_MODES,
  type RetrievalMode,
  similarityApplies,
  similarityHintKey,
} from "./knowledge-settings-rules";

type KnowledgeBase = components["schemas"]["KnowledgeBase"];

const NO_BASES: KnowledgeBase[] = [];

/** The rerank models the instance serves, for the rerank select; undefined while loading. */
export function useRerankModels() {
  const { data, isError } = useSpaceQuery({
    key: ["models", "rerank"],
    fetch: (signal) => endpoints.models.rerankModels({ silent: true, signal }),
  });
  return isError ? [] : data;
}

/** The knowledge bases of the current space, for the binding select; undefined while loading. */
function useKnowledgeBases(): KnowledgeBase[] | undefined {
  const { data, isError } = useSpaceQuery({
    key: ["knowledge-bases", "app-editor"],
    fetch: (signal) => endpoints.apps.knowledgeBases({ silent: true, signal }),
  });
  return isError ? NO_BASES : data;
}

/**
 * The app editor's knowledge section (spec §3 App retrieval fields): bound knowledge bases,
 * retrieval mode (semantic, full text, hybrid), retrieval length, similarity threshold with the
 * spec's 0.8 / 0.7 hints, semantic and full-text counts (at most 10 together), what to do when
 * nothing is found, and citations with their threshold. Lives inside the editor's form.
 */
export function KnowledgeSettingsSection() {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const bases = useKnowledgeBases();
  const bound = (Form.useWatch("knowledgeBaseIds", form) as string[] | undefined) ?? [];
  const mode = Form.useWatch("retrievalMode", form) as RetrievalMode | undefined;
  const similarity = Form.useWatch("similarityThreshold", form) as number | undefined;
  const noHit = Form.useWatch("noHitStrategy", form) as string | undefined;
  const citation = Form.useWatch("citationEnabled", form) === true;
  const counts = countsUsedBy(mode);
  const rerankModels = useRerankModels();
  const rerankModel = Form.useWatch("rerankModel", form) as string | null | undefined;

  return (
    <div data-testid="knowledge-settings">
      <Typography.Title level={5} className="pl-editor__section">
        {t("knowledgeSettings.title")}
      </Typography.Title>
      <Form.Item
        name="knowledgeBaseIds"
        label={t("knowledgeSettings.bases")}
        extra={
          <Flex gap={8} wrap>
            <span>{t("knowledgeSettings.basesHint")}</span>
            <Link to={PATHS.knowledge}>{t("knowledgeSettings.manageBases")}</Link>
          </Flex>
        }
      >
        <Select
          mode="multiple"
          allowClear
          loading={bases === undefined}
          placeholder={t("knowledgeSettings.basesPlaceholder")}
          notFoundContent={bases === undefined ? undefined : t("knowledgeSettings.noBases")}
          optionFilterProp="label"
          options={(bases ?? []).map((base) => ({ value: base.id, label: base.name, tokens: base.tokenCount, files: base.fileCount }))}
          optionRender={(option) => (
            <Flex justify="space-between" gap={8}>
              <span>
                <BookOutlined /> {option.label}
              </span>
              <Typography.Text type="secondary">{t("knowledgeSettings.baseSize", { files: option.data.files, tokens: option.data.tokens })}</Typography.Text>
            </Flex>
          )}
          data-testid="app-knowledge-bases"
        />
      </Form.Item>
      {bound.length === 0 ? <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t("knowledgeSettings.unbound")} /> : null}

      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="retrievalMode" label={t("knowledgeSettings.mode")} extra={mode ? t(`knowledgeSettings.modeHints.${mode}`) : undefined}>
            <Select options={RETRIEVAL_MODES.map((value) => ({ value, label: t(`knowledgeSettings.modes.${value}`) }))} data-testid="app-retrieval-mode" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="retrievalLength"
            label={t("knowledgeSettings.length")}
            extra={t("knowledgeSettings.lengthHint")}
            rules={[ruleOf(knowledgeRules.retrievalLength)]}
          >
            <InputNumber min={0} max={KNOWLEDGE_LIMITS.retrievalLength.max} precision={0} style={{ width: "100%" }} data-testid="app-retrieval-length" />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item
            name="similarityThreshold"
            label={t("knowledgeSettings.similarity")}
            extra={similarityApplies(mode) ? t(similarityHintKey(similarity)) : t("knowledgeSettings.similarityUnused")}
            rules={[ruleOf(knowledgeRules.threshold)]}
          >
            <InputNumber min={0} max={1} step={0.05} style={{ width: "100%" }} disabled={!similarityApplies(mode)} data-testid="app-similarity" />
          </Form.Item>
        </Col>
        <Col xs={12} md={8}>
          <Form.Item name="semanticCount" label={t("knowledgeSettings.semanticCount")} rules={[ruleOf(knowledgeRules.count)]}>
            <InputNumber min={0} max={10} precision={0} style={{ width: "100%" }} disabled={!counts.semantic} data-testid="app-semantic-count" />
          </Form.Item>
        </Col>
        <Col xs={12} md={8}>
          <Form.Item
            name="fullTextCount"
            label={t("knowledgeSettings.fullTextCount")}
            dependencies={["semanticCount"]}
            extra={t("knowledgeSettings.countsHint")}
            rules={[
              ruleOf(knowledgeRules.count),
              ({ getFieldValue }) => ruleOf((value: number) => knowledgeRules.countsTotal(getFieldValue("semanticCount") as number, value)),
            ]}
          >
            <InputNumber min={0} max={10} precision={0} style={{ width: "100%" }} disabled={!counts.fullText} data-testid="app-full-text-count" />
          </Form.Item>
        </Col>
      </Row>

      <Row gutter={16} data-testid="rerank-settings">
        <Col xs={24} md={16}>
          <Form.Item name="rerankModel" label={t("rerank.model")} extra={t("rerank.modelHint")}>
            <Select
              allowClear
              loading={rerankModels === undefined}
              placeholder={t("rerank.none")}
              notFoundContent={rerankModels === undefined ? undefined : t("rerank.noModels")}
              options={(rerankModels ?? []).map((model) => ({
                value: model.id,
                label: t("rerank.option", { id: model.id, provider: model.providerName, credits: model.creditsPerCall }),
              }))}
              data-testid="app-rerank-model"
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="rerankThreshold" label={t("rerank.threshold")} extra={t("rerank.thresholdHint")} rules={[ruleOf(knowledgeRules.threshold)]}>
            <InputNumber min={0} max={1} step={0.05} style={{ width: "100%" }} disabled={!rerankModel} data-testid="app-rerank-threshold" />
          </Form.Item>
        </Col>
      </Row>

      <Form.Item name="noHitStrategy" label={t("knowledgeSettings.noHit")} extra={noHit ? t(`knowledgeSettings.noHitHints.${noHit}`) : undefined}>
        <Radio.Group options={NO_HIT_STRATEGIES.map((value) => ({ value, label: t(`knowledgeSettings.noHitStrategies.${value}`) }))} data-testid="app-no-hit" />
      </Form.Item>
      <Form.Item
        name="noHitText"
        label={t("knowledgeSettings.noHitText")}
        hidden={noHit !== "fixed"}
        required={noHit === "fixed"}
        dependencies={["noHitStrategy"]}
        rules={[({ getFieldValue }) => ruleOf((value: string | null) => knowledgeRules.noHitText(getFieldValue("noHitStrategy") as string, value))]}
      >
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} maxLength={KNOWLEDGE_LIMITS.noHitTextMax} data-testid="app-no-hit-text" />
      </Form.Item>

      <Row gutter={16}>
        <Col xs={12} md={12}>
          <Form.Item name="citationEnabled" label={t("knowledgeSettings.citation")} valuePropName="checked" extra={t("knowledgeSettings.citationHint")}>
            <Switch data-testid="app-citation" />
          </Form.Item>
        </Col>
        <Col xs={12} md={12}>
          <Form.Item
            name="citationThreshold"
            label={t("knowledgeSettings.citationThreshold")}
            hidden={!citation}
            extra={t("knowledgeSettings.citationThresholdHint")}
            dependencies={["similarityThreshold", "citationEnabled"]}
            rules={[
              ({ getFieldValue }) =>
                ruleOf((value: number) =>
                  knowledgeRules.citationThreshold(getFieldValue("citationEnabled") === true, value, getFieldValue("similarityThreshold") as number),
                ),
            ]}
          >
            <InputNumber min={0} max={1} step={0.05} style={{ width: "100%" }} data-testid="app-citation-threshold" />
          </Form.Item>
        </Col>
      </Row>
    </div>
  );
}
