import { FileTextOutlined } from '@ant-design/icons';
import { Flex, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/empty-state';
import './knowledge.css';

/** One retrieval hit as the list shows it (the fields of the contract's RetrievedChunk it uses). */
export interface RetrievalHit {
  chunkId: string;
  fileName: string;
  content: string;
  score: number;
  similarity: number | null;
  textScore: number | null;
}

/** Which list a column shows: its scores read differently. */
export type RetrievalKind = 'semantic' | 'fullText' | 'hybrid';

/** Props of {@link RetrievalHitList}. */
export interface RetrievalHitListProps {
  kind: RetrievalKind;
  hits: readonly RetrievalHit[];
  'data-testid'?: string;
}

const fixed = (value: number, digits: number) => value.toFixed(digits);

/**
 * The hits of one retrieval mode, best first: rank, source file, scores (similarity for
 * semantic, text score for full text, the fused score for hybrid) and the segment's content.
 */
export function RetrievalHitList({ kind, hits, 'data-testid': testId }: RetrievalHitListProps) {
  const { t } = useTranslation();
  if (hits.length === 0) {
    return (
      <div data-testid={testId}>
        <EmptyState compact title={t('knowledge.retrieval.noHits')} description={t(`knowledge.retrieval.noHitsHint.${kind}`)} data-testid={testId ? `${testId}-empty` : undefined} />
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
            <Typography.Text strong ellipsis={{ tooltip: hit.fileName }} data-testid="retrieval-hit-file">{hit.fileName}</Typography.Text>
          </Flex>
          <Flex gap={4} wrap className="pl-kb-hit__scores">
              {kind === 'hybrid' ? <Tag color="purple">{t('knowledge.retrieval.score', { value: fixed(hit.score, 4) })}</Tag> : null}
              {hit.similarity !== null ? <Tag color="blue">{t('knowledge.retrieval.similarity', { value: fixed(hit.similarity, 3) })}</Tag> : null}
            {hit.textScore !== null ? <Tag color="green">{t('knowledge.retrieval.textScore', { value: fixed(hit.textScore, 2) })}</Tag> : null}
          </Flex>
          <Typography.Paragraph className="pl-kb-hit__content" ellipsis={{ rows: 6, expandable: 'collapsible' }} data-testid="retrieval-hit-content">
            {hit.content}
          </Typography.Paragraph>
        </li>
      ))}
    </ol>
  );
}
