import { PictureOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/empty-state';

/**
 * knowledgeManage/mediaResource: media materials (images answers can attach). The media API
 * is not in the contract yet, so the tab says so instead of showing anything made up.
 */
export function MediaResourcePage() {
  const { t } = useTranslation();
  return (
    <div className="pl-card pl-kb-panel" data-testid="knowledge-media">
      <EmptyState
        icon={<PictureOutlined className="pl-empty__glyph" />}
        title={t('knowledge.media.unavailableTitle')}
        description={t('knowledge.media.unavailableDescription')}
        data-testid="media-unavailable"
      />
    </div>
  );
}
