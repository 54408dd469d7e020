import { FileTextOutlined, PlusOutlined } from "@ant-design/icons";
import { Button, Flex, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../../components/empty-state";
import "./knowledge.css";

/** One retrieval hit as the list shows it (the fields of the contract's RetrievedChunk it uses). */
export interface RetrievalHit {
  chunkId: string;
  fileName: string;
  content: string;
  score: number;
  similarity: number | null;
  cosine?: number | null;
  textScore: number | null;
  textMatch?: number | null;
}

/** Which list a column shows: its scores read differently ('app': what an app's chat would use). */
export type RetrievalKind = "semantic" | "fullText" | "hybrid" | "app";

/** Props of {@link RetrievalHitList}. */
export interface RetrievalHitListProps {
  kind: RetrievalKind;
  hits: readonly RetrievalHit[];
  /** When given, each hit offers "Add to evaluation": the query with this hit as its expected passage. */
  onAddToEvaluation?: (hit: RetrievalHit) => void;
  "data-testid"?: string;
}

const fixed = (value: number, digits: number) => value.toFixed(digits);

/**
 * The hits of one retrieval mode, best first: rank, source file, scores and the segment's
 * content. Scores: calibrated similarity (the threshold's scale) with the raw cosine, the share
 * of query words a full-text hit holds (BM25 too when it is not about zero, as it is in a base
 * of a few segments), and the fused score (0–1) of hybrid hits.
 */
export function RetrievalHitList({ kind, hits, onAddToEvaluation, "data-testid": testId }: RetrievalHitListProps) {
  const { t } = useTranslation();
  if (hits.length === 0) {
    return (
      <div data-testid={testId}>
        <EmptyState
          compact
          title={t("knowledge.retrieval.noHits")}
          description={t(`knowledge.retrieval.noHitsHint.${kind}`)}
          data-testid={testId ? `${testId}-empty` : undefined}
        />
      </div>
    );
  }
  return (
    <ol className="pl-kb-hits" data-testid={testId}>
      {hits.map((hit, index) => (
        <li key={hit.chunkId} className="pl-kb-hit" data-testid="retrieval-hit">
          <Flex align="center" gap={6} className="pl-kb-hit__source">
            <span className="pl-kb-hit__rank">#{index + 1}</span>
            <FileTextOutlined />
            <Typography.Text strong ellipsis={{ tooltip: hit.fileName }} data-testid="retrieval-hit-file">
              {hit.fileName}
            </Typography.Text>
            {onAddToEvaluation ? (
              <Button size="small" type="link" icon={<PlusOutlined />} onClick={() => onAddToEvaluation(hit)} data-testid="retrieval-hit-evaluate">
                {t("evaluation.addFromTest.action")}
              </Button>
            ) : null}
          </Flex>
          <Flex gap={4} wrap className="pl-kb-hit__scores">
            {kind === "hybrid" || kind === "app" ? (
              <Tag color="purple" data-testid="retrieval-hit-score">
                {t("knowledge.retrieval.score", { value: fixed(hit.score, 3) })}
              </Tag>
            ) : null}
            {hit.similarity !== null ? (
              <Tag color="blue" data-testid="retrieval-hit-similarity">
                {t("knowledge.retrieval.similarity", { value: fixed(hit.similarity, 3) })}
                {hit.cosine !== null && hit.cosine !== undefined ? ` ${t("knowledge.retrieval.cosine", { value: fixed(hit.cosine, 3) })}` : ""}
              </Tag>
            ) : null}
            {hit.textMatch !== null && hit.textMatch !== undefined ? (
              <Tag color="green" data-testid="retrieval-hit-match">
                {t("knowledge.retrieval.textMatch", { value: Math.round(hit.textMatch * 100) })}
              </Tag>
            ) : null}
            {hit.textScore !== null && Math.abs(hit.textScore) >= 0.01 ? (
              <Tag color="green">{t("knowledge.retrieval.textScore", { value: fixed(hit.textScore, 2) })}</Tag>
            ) : null}
          </Flex>
          <Typography.Paragraph className="pl-kb-hit__content" ellipsis={{ rows: 6, expandable: "collapsible" }} data-testid="retrieval-hit-content">
            {hit.content}
          </Typography.Paragraph>
        </li>
      ))}
    </ol>
  );
}
