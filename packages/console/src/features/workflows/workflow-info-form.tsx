import { Form, Input, Modal, Select } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { AppAvatar } from "../../components/app-avatar";
import { DEFAULT_APP_AVATAR } from "../apps/app-rules";
import { useAppOptions } from "../apps/use-app-options";
import { checkInfo, type WorkflowInfo } from "./workflow-rules";
import { AssetUrlInput } from "../../components/asset-url-input";

/** The card fields of a workflow (spec §3): name, description, avatar and category. */
export interface WorkflowInfoValues {
  name: string;
  description: string;
  avatarUrl: string;
  category: string;
}

/** Limits the server applies to the card fields. */
export const INFO_LIMITS = { nameMax: 50, descriptionMax: 500, avatarUrlMax: 1000 } as const;

/** Props of {@link WorkflowInfoModal}. */
export interface WorkflowInfoModalProps {
  open: boolean;
  /** Present: edit these values; absent: create. */
  initial?: WorkflowInfoValues;
  onCancel: () => void;
  /** Sends the values; answers a server refusal `{ field, message }` to show on the field, or nothing. */
  onSubmit: (values: WorkflowInfoValues) => Promise<{ field?: string; message: string } | undefined>;
}

/** Rule for one card field, from the shared §5 checks (messages in the interface language). */
function infoRule(field: keyof WorkflowInfo, translate: (key: string) => string) {
  return {
    validator: async (_rule: unknown, value?: string) => {
      const issue = checkInfo({ name: "x", description: "x", avatarUrl: "x", category: "x", [field]: value ?? "" }).find((item) => item.field === field);
      if (issue) throw new Error(translate(issue.key));
    },
  };
}

/** Create or edit a workflow's card in a modal; the server's refusal is shown on its field. */
export function WorkflowInfoModal({ open, initial, onCancel, onSubmit }: WorkflowInfoModalProps) {
  const { t } = useTranslation();
  const { categories } = useAppOptions();
  const [form] = Form.useForm<WorkflowInfoValues>();
  const [saving, setSaving] = useState(false);
  const name = Form.useWatch("name", form) ?? "";
  const avatarUrl = Form.useWatch("avatarUrl", form) ?? "";

  useEffect(() => {
    if (open) form.setFieldsValue(initial ?? { name: "", description: "", avatarUrl: DEFAULT_APP_AVATAR, category: undefined as unknown as string });
  }, [open, initial, form]);

  const submit = async () => {
    let values: WorkflowInfoValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      const trimmed = { name: values.name.trim(), description: values.description.trim(), avatarUrl: values.avatarUrl.trim(), category: values.category };
      const refusal = await onSubmit(trimmed);
      if (refusal) {
        const field =
          refusal.field && ["name", "description", "avatarUrl", "category"].includes(refusal.field) ? (refusal.field as keyof WorkflowInfoValues) : "name";
        form.setFields([{ name: field, errors: [refusal.message] }]);
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t(initial ? "workflows.info.editTitle" : "workflows.info.createTitle")}
      okText={t(initial ? "common.save" : "workflows.info.create")}
      cancelText={t("common.cancel")}
      confirmLoading={saving}
      onOk={() => void submit()}
      onCancel={onCancel}
      okButtonProps={{ "data-testid": "wf-info-submit" }}
      forceRender
    >
      <Form<WorkflowInfoValues> form={form} layout="vertical" data-testid="wf-info-form">
        <Form.Item name="name" label={t("workflows.info.name")} required rules={[infoRule("name", t)]}>
          <Input maxLength={INFO_LIMITS.nameMax} data-testid="wf-info-name" />
        </Form.Item>
        <Form.Item name="description" label={t("workflows.info.description")} required rules={[infoRule("description", t)]}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={INFO_LIMITS.descriptionMax} data-testid="wf-info-description" />
        </Form.Item>
        <Form.Item label={t("workflows.info.avatar")} required extra={t("workflows.info.avatarHint")}>
          <div className="pl-wf-avatar-field">
            <AppAvatar name={name || "?"} src={avatarUrl} size={44} />
            <Form.Item name="avatarUrl" noStyle rules={[infoRule("avatarUrl", t)]}>
              <AssetUrlInput maxLength={INFO_LIMITS.avatarUrlMax} placeholder="https://…" data-testid="wf-info-avatar" />
            </Form.Item>
          </div>
        </Form.Item>
        <Form.Item name="category" label={t("workflows.info.category")} required rules={[infoRule("category", t)]}>
          <Select
            placeholder={t("workflows.info.categoryPlaceholder")}
            options={categories.map((category) => ({ value: category.id, label: category.name, title: category.description }))}
            data-testid="wf-info-category"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
