import { LockOutlined, MailOutlined, MobileOutlined, SafetyOutlined } from "@ant-design/icons";
import { Flex, Form, Input, Segmented } from "antd";
import type { FormInstance } from "antd";
import { useTranslation } from "react-i18next";
import { endpoints } from "../../lib/api/endpoints";
import { feedback } from "../../lib/feedback";
import type { CodeChannel, CodePurpose } from "../../lib/api/types";
import { VerificationCodeButton } from "../../components/verification-code-button";

/** Form values shared by every code-based form. */
export interface ContactValues {
  channel: CodeChannel;
  target: string;
  code: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9][0-9 -]{5,19}$/;

/** Whether the address looks like an e-mail address or phone number, as the channel asks. */
export function isValidTarget(channel: CodeChannel, value: string): boolean {
  return channel === "phone" ? PHONE.test(value.trim()) : EMAIL.test(value.trim());
}

/** Props of {@link ContactFields}. */
export interface ContactFieldsProps {
  form: FormInstance;
  purpose: CodePurpose;
  /** Whether the phone channel is offered (the providers call says so). */
  phoneEnabled: boolean;
  /** Prefix of the fields' data-testid attributes, e.g. "register". */
  testIdPrefix: string;
}

/**
 * E-mail or phone, the address, and the verification code with its send button; used by
 * code sign-in, registration, password reset and WeChat binding.
 */
export function ContactFields({ form, purpose, phoneEnabled, testIdPrefix }: ContactFieldsProps) {
  const { t } = useTranslation();
  const channel = (Form.useWatch("channel", form) as CodeChannel | undefined) ?? "email";

  const sendCode = async (): Promise<number | undefined> => {
    try {
      await form.validateFields(["target"]);
    } catch {
      return undefined;
    }
    const target = String(form.getFieldValue("target")).trim();
    const result = await endpoints.auth.sendCode({ channel, target, purpose });
    if (!result.ok) return undefined;
    feedback.success(t("auth.code.sent", { target: result.data.sentTo }));
    return result.data.resendAfterSeconds;
  };

  return (
    <>
      <Form.Item name="channel" initialValue="email" hidden={!phoneEnabled}>
        <Segmented<CodeChannel>
          block
          aria-label={t("auth.channel.label")}
          data-testid={`${testIdPrefix}-channel`}
          options={[
            { value: "email", label: t("auth.channel.email"), icon: <MailOutlined /> },
            { value: "phone", label: t("auth.channel.phone"), icon: <MobileOutlined /> },
          ]}
          onChange={() => form.setFields([{ name: "target", errors: [] }])}
        />
      </Form.Item>
      <Form.Item
        name="target"
        label={channel === "phone" ? t("auth.fields.phone") : t("auth.fields.email")}
        rules={[
          { required: true, whitespace: true, message: channel === "phone" ? t("auth.validation.phoneRequired") : t("auth.validation.emailRequired") },
          {
            validator: async (_rule, value: string | undefined) => {
              if (!value?.trim()) return;
              const valid = isValidTarget(channel, value);
              if (!valid) throw new Error(channel === "phone" ? t("auth.validation.phoneInvalid") : t("auth.validation.emailInvalid"));
            },
          },
        ]}
      >
        <Input
          size="large"
          prefix={channel === "phone" ? <MobileOutlined /> : <MailOutlined />}
          placeholder={channel === "phone" ? t("auth.placeholders.phone") : t("auth.placeholders.email")}
          autoComplete={channel === "phone" ? "tel" : "email"}
          inputMode={channel === "phone" ? "tel" : "email"}
          data-testid={`${testIdPrefix}-target`}
        />
      </Form.Item>
      <Form.Item label={t("auth.fields.code")} required>
        <Flex gap={8}>
          <Form.Item name="code" noStyle rules={[{ required: true, whitespace: true, message: t("auth.validation.codeRequired") }]}>
            <Input
              size="large"
              prefix={<SafetyOutlined />}
              placeholder={t("auth.placeholders.code")}
              autoComplete="one-time-code"
              inputMode="numeric"
              maxLength={12}
              data-testid={`${testIdPrefix}-code`}
            />
          </Form.Item>
          <VerificationCodeButton onSend={sendCode} data-testid={`${testIdPrefix}-code-send`} />
        </Flex>
      </Form.Item>
    </>
  );
}

/** Props of {@link NewPasswordFields}. */
export interface NewPasswordFieldsProps {
  testIdPrefix: string;
  /** Label of the first field, e.g. "New password". */
  label?: string;
  /** Input size: large on the sign-in pages, default inside the console. */
  size?: "large" | "middle";
}

/** Minimum password length the console asks for. */
export const MIN_PASSWORD_LENGTH = 8;

/** A password and its confirmation, checked against each other. */
export function NewPasswordFields({ testIdPrefix, label, size = "large" }: NewPasswordFieldsProps) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item
        name="password"
        label={label ?? t("auth.fields.password")}
        rules={[
          { required: true, message: t("auth.validation.passwordRequired") },
          { min: MIN_PASSWORD_LENGTH, message: t("auth.validation.passwordShort", { min: MIN_PASSWORD_LENGTH }) },
          { max: 128, message: t("auth.validation.passwordLong", { max: 128 }) },
        ]}
        hasFeedback
      >
        <Input.Password
          size={size}
          prefix={<LockOutlined />}
          autoComplete="new-password"
          placeholder={t("auth.placeholders.newPassword", { min: MIN_PASSWORD_LENGTH })}
          data-testid={`${testIdPrefix}-password`}
        />
      </Form.Item>
      <Form.Item
        name="confirm"
        label={t("auth.fields.confirmPassword")}
        dependencies={["password"]}
        hasFeedback
        rules={[
          { required: true, message: t("auth.validation.confirmRequired") },
          ({ getFieldValue }) => ({
            validator: async (_rule, value: string | undefined) => {
              if (value && value !== getFieldValue("password")) throw new Error(t("auth.validation.passwordMismatch"));
            },
          }),
        ]}
      >
        <Input.Password
          size={size}
          prefix={<LockOutlined />}
          autoComplete="new-password"
          placeholder={t("auth.placeholders.confirmPassword")}
          data-testid={`${testIdPrefix}-confirm`}
        />
      </Form.Item>
    </>
  );
}
