import { Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Props of {@link CreateTeamModal}. */
export interface CreateTeamModalProps {
  open: boolean;
  /** Creates the team; resolves `true` when it worked (the modal then closes). */
  onCreate: (companyName: string) => Promise<boolean>;
  onClose: () => void;
}

/** Asks for a team's company name (required, spec §5) and creates the team space. */
export function CreateTeamModal({ open, onCreate, onClose }: CreateTeamModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ companyName: string }>();
  const [saving, setSaving] = useState(false);
  return (
    <Modal
      open={open}
      title={t('spaces.createTeam.title')}
      okText={t('spaces.createTeam.submit')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      onCancel={onClose}
      onOk={() => form.submit()}
      okButtonProps={{ 'data-testid': 'create-team-submit' } as Record<string, string>}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={async ({ companyName }) => {
          setSaving(true);
          try {
            if (await onCreate(companyName.trim())) {
              form.resetFields();
              onClose();
            }
          } finally {
            setSaving(false);
          }
        }}
      >
        <Form.Item
          name="companyName"
          label={t('spaces.createTeam.companyName')}
          extra={t('spaces.createTeam.hint')}
          rules={[
            { required: true, whitespace: true, message: t('spaces.createTeam.companyNameRequired') },
            { max: 100, message: t('spaces.createTeam.companyNameTooLong', { max: 100 }) },
          ]}
        >
          <Input autoFocus maxLength={100} placeholder={t('spaces.createTeam.placeholder')} data-testid="create-team-name" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
