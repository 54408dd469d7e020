import { Form, Input, Modal } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ApiResult } from "../../lib/api/request";
import { type checkRule, validValues } from "./form-helpers";

/** Props of {@link RenameModal}. */
export interface RenameModalProps<Item extends { id: string; name: string }> {
  /** What is being renamed (its name fills the field); undefined closes the modal. */
  item?: Item;
  title: string;
  label: string;
  extra?: string;
  maxLength: number;
  /** The name rule; see {@link checkRule}. */
  rule: ReturnType<typeof checkRule>;
  /** Saves the trimmed name; a refusal is shown under the field as the server words it. */
  save: (id: string, name: string) => Promise<ApiResult<Item>>;
  onRenamed: (item: Item) => void;
  onClose: () => void;
  inputTestId: string;
  saveTestId: string;
}

/** A modal with one name field that saves a new name for a file or a material. */
export function RenameModal<Item extends { id: string; name: string }>({
  item,
  title,
  label,
  extra,
  maxLength,
  rule,
  save,
  onRenamed,
  onClose,
  inputTestId,
  saveTestId,
}: RenameModalProps<Item>) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string }>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (item) form.setFieldsValue({ name: item.name });
  }, [item, form]);

  const submit = async () => {
    if (!item) return;
    const values = await validValues(form);
    if (!values) return;
    setSaving(true);
    try {
      const result = await save(item.id, values.name.trim());
      if (result.ok) onRenamed(result.data);
      else if (result.error.kind === "http") form.setFields([{ name: "name", errors: [result.error.message] }]);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={Boolean(item)}
      title={title}
      okText={t("common.save")}
      cancelText={t("common.cancel")}
      confirmLoading={saving}
      onOk={() => void submit()}
      onCancel={onClose}
      okButtonProps={{ "data-testid": saveTestId }}
      forceRender
    >
      <Form form={form} layout="vertical" onFinish={() => void submit()}>
        <Form.Item name="name" label={label} extra={extra} rules={[rule]}>
          <Input maxLength={maxLength} data-testid={inputTestId} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
