import { MailOutlined, MobileOutlined, SafetyOutlined } from "@ant-design/icons";
import { Button, Card, Flex, Form, Input, Modal, Typography } from "antd";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { endpoints } from "../../lib/api/endpoints";
import { feedback } from "../../lib/feedback";
import { sessionStore } from "../../lib/api/session";
import type { CodeChannel, User } from "../../lib/api/types";
import { VerificationCodeButton } from "../../components/verification-code-button";
import { isValidTarget } from "../auth/contact-fields";

interface BindValues {
  target: string;
  code: string;
}

function BindContactModal({ channel, current, onClose }: { channel: CodeChannel; current: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<BindValues>();
  const [saving, setSaving] = useState(false);
  const isPhone = channel === "phone";

  const sendCode = async (): Promise<number | undefined> => {
    try {
      await form.validateFields(["target"]);
    } catch {
      return undefined;
    }
    const target = String(form.getFieldValue("target")).trim();
    const result = await endpoints.auth.sendCode({ channel, target, purpose: "bind" });
    if (!result.ok) return undefined;
    feedback.success(t("auth.code.sent", { target: result.data.sentTo }));
    return result.data.resendAfterSeconds;
  };

  return (
    <Modal
      open
      title={t(
        isPhone
          ? current
            ? "account.contact.changePhoneTitle"
            : "account.contact.bindPhoneTitle"
          : current
            ? "account.contact.changeEmailTitle"
            : "account.contact.bindEmailTitle",
      )}
      okText={t("account.contact.submit")}
      cancelText={t("common.cancel")}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      okButtonProps={{ "data-testid": "contact-submit" } as Record<string, string>}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t("account.contact.modalHint")}</Typography.Paragraph>
      <Form<BindValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={async (values) => {
          setSaving(true);
          try {
            const result = await endpoints.me.bindContact({ channel, target: values.target.trim(), code: values.code.trim() });
            if (!result.ok) return;
            sessionStore.setUser(result.data);
            feedback.success(t(isPhone ? "account.contact.phoneBound" : "account.contact.emailBound"));
            onClose();
          } finally {
            setSaving(false);
          }
        }}
      >
        <Form.Item
          name="target"
          label={isPhone ? t("auth.fields.phone") : t("auth.fields.email")}
          rules={[
            { required: true, whitespace: true, message: isPhone ? t("auth.validation.phoneRequired") : t("auth.validation.emailRequired") },
            {
              validator: async (_rule, value: string | undefined) => {
                if (!value?.trim()) return;
                if (!isValidTarget(channel, value)) throw new Error(isPhone ? t("auth.validation.phoneInvalid") : t("auth.validation.emailInvalid"));
              },
            },
          ]}
        >
          <Input
            autoFocus
            prefix={isPhone ? <MobileOutlined /> : <MailOutlined />}
            placeholder={isPhone ? t("auth.placeholders.phone") : t("auth.placeholders.email")}
            autoComplete={isPhone ? "tel" : "email"}
            inputMode={isPhone ? "tel" : "email"}
            data-testid="contact-target"
          />
        </Form.Item>
        <Form.Item label={t("auth.fields.code")} required>
          <Flex gap={8}>
            <Form.Item name="code" noStyle rules={[{ required: true, whitespace: true, message: t("auth.validation.codeRequired") }]}>
              <Input
                prefix={<SafetyOutlined />}
                placeholder={t("auth.placeholders.code")}
                autoComplete="one-time-code"
                inputMode="numeric"
                maxLength={12}
                data-testid="contact-code"
              />
            </Form.Item>
            <VerificationCodeButton onSend={sendCode} data-testid="contact-code-send" />
          </Flex>
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Props of {@link ContactMethodsCard}. */
export interface ContactMethodsCardProps {
  user: User;
}

/** Sign-in methods: the account's e-mail and phone, each bound or changed with a code sent to the new address. */
export function ContactMethodsCard({ user }: ContactMethodsCardProps) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<CodeChannel>();
  const rows: { channel: CodeChannel; icon: ReactNode; label: string; value: string | null }[] = [
    { channel: "email", icon: <MailOutlined />, label: t("account.profile.email"), value: user.email },
    { channel: "phone", icon: <MobileOutlined />, label: t("account.profile.phone"), value: user.phone },
  ];
  return (
    <Card title={t("account.contact.title")} className="pl-card-plain" data-testid="contact-card">
      <Typography.Paragraph type="secondary">{t("account.contact.intro")}</Typography.Paragraph>
      <Flex vertical gap={12}>
        {rows.map((row) => (
          <Flex key={row.channel} align="center" justify="space-between" gap={12} className="pl-contact-row">
            <Flex align="center" gap={12}>
              <Typography.Text type="secondary">{row.icon}</Typography.Text>
              <Flex vertical>
                <Typography.Text strong>{row.label}</Typography.Text>
                <Typography.Text type={row.value ? undefined : "secondary"} data-testid={`contact-value-${row.channel}`}>
                  {row.value ?? t("account.profile.notSet")}
                </Typography.Text>
              </Flex>
            </Flex>
            <Button onClick={() => setEditing(row.channel)} data-testid={`contact-bind-${row.channel}`}>
              {row.value ? t("account.contact.change") : t("account.contact.bind")}
            </Button>
          </Flex>
        ))}
      </Flex>
      {editing ? <BindContactModal channel={editing} current={editing === "email" ? user.email : user.phone} onClose={() => setEditing(undefined)} /> : null}
    </Card>
  );
}
