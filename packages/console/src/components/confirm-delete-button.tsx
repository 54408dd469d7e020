import { DeleteOutlined } from "@ant-design/icons";
import { Button, Popconfirm } from "antd";
import { useTranslation } from "react-i18next";

/** Props of {@link ConfirmDeleteButton}. */
export interface ConfirmDeleteButtonProps {
  /** What the confirmation names, e.g. the key's name. */
  name: string;
  onConfirm: () => void | Promise<void>;
  "data-testid"?: string;
}

/** A text-style delete button that asks first ("Delete {name}?"), as key tables use it. */
export function ConfirmDeleteButton({ name, onConfirm, "data-testid": testId }: ConfirmDeleteButtonProps) {
  const { t } = useTranslation();
  return (
    <Popconfirm
      title={t("apiKeys.deleteTitle")}
      description={t("apiKeys.deleteDescription", { name })}
      okText={t("common.delete")}
      cancelText={t("common.cancel")}
      okButtonProps={{ danger: true }}
      onConfirm={onConfirm}
    >
      <Button type="text" danger icon={<DeleteOutlined />} data-testid={testId}>
        {t("common.delete")}
      </Button>
    </Popconfirm>
  );
}
