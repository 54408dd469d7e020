import { FileTextOutlined } from "@ant-design/icons";
import { Button, Popover, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import type { Citation } from "./chat-state";
import "./citation-list.css";

/** Spec §9: at most 10 source references are shown. */
export const MAX_SHOWN_CITATIONS = 10;

/** Props of {@link CitationList}. */
export interface CitationListProps {
  citations: Citation[];
}

/**
 * The sources an answer cites, under it: numbered as the answer cites them ([n]), each with its
 * file name and, for a semantic hit, its similarity; the cited excerpt opens on click.
 */
export function CitationList({ citations }: CitationListProps) {
  const { t } = useTranslation();
  if (citations.length === 0) return null;
  return (
    <div className="pl-citations" data-testid="chat-citations">
      <Typography.Text type="secondary">{t("chat.sources")}</Typography.Text>
      <ol className="pl-citations__list">
        {citations.slice(0, MAX_SHOWN_CITATIONS).map((citation) => (
          <li key={citation.index} value={citation.index} className="pl-citations__item" data-testid="chat-citation">
            <Popover trigger="click" title={citation.source} content={<div className="pl-citations__excerpt">{citation.content}</div>}>
              <Button type="link" size="small" className="pl-citations__source" icon={<FileTextOutlined />}>
                {citation.source}
              </Button>
            </Popover>
            {citation.score !== undefined ? (
              <Tag className="pl-citations__score" bordered={false}>
                {t("chat.citationScore", { score: citation.score.toFixed(2) })}
              </Tag>
            ) : null}
          </li>
        ))}
      </ol>
    </div>
  );
}
