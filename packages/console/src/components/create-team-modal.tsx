import { Form, Input } from "antd";
import { useTranslation } from "react-i18next";
import { FormDialog } from "./form-dialog";

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
  return (
    <FormDialog<{ companyName: string }>
      open={open}
      title={t("spaces.createTeam.title")}
      okText={t("spaces.createTeam.submit")}
      submitTestId="create-team-submit"
      requiredMark={false}
      onClose={onClose}
      onSubmit={async ({ companyName }) => {
        const created = await onCreate(companyName.trim());
        if (created) onClose();
        return created;
      }}
    >
      <Form.Item
        name="companyName"
        label={t("spaces.createTeam.companyName")}
        extra={t("spaces.createTeam.hint")}
        rules={[
          { required: true, whitespace: true, message: t("spaces.createTeam.companyNameRequired") },
          { max: 100, message: t("spaces.createTeam.companyNameTooLong", { max: 100 }) },
        ]}
      >
        <Input autoFocus maxLength={100} placeholder={t("spaces.createTeam.placeholder")} data-testid="create-team-name" />
      </Form.Item>
    </FormDialog>
  );
}
