import { UserOutlined } from "@ant-design/icons";
import { Button, Form, Input, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { endpoints } from "../../lib/api/endpoints";
import { PATHS } from "../../lib/paths";
import { storedAttribution } from "../../app/startup";
import { readString } from "../../lib/api/storage";
import { AuthLayout } from "./auth-layout";
import { ContactFields, NewPasswordFields, type ContactValues } from "./contact-fields";
import { useCompleteSignIn } from "./use-complete-sign-in";
import { useProviders } from "./use-providers";

interface RegisterValues extends ContactValues {
  name?: string;
  password: string;
  confirm: string;
}

/** Registration by e-mail or phone with a verification code and a password. */
export function RegisterPage() {
  const { t } = useTranslation();
  const providers = useProviders();
  const onSignedIn = useCompleteSignIn();
  const [form] = Form.useForm<RegisterValues>();
  const [submitting, setSubmitting] = useState(false);

  return (
    <AuthLayout
      title={t("auth.register.title")}
      subtitle={t("auth.register.subtitle")}
      footer={
        <Typography.Text type="secondary">
          {t("auth.register.haveAccount")}{" "}
          <Link to={PATHS.login} data-testid="login-link">
            {t("auth.register.loginLink")}
          </Link>
        </Typography.Text>
      }
    >
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={async (values) => {
          setSubmitting(true);
          try {
            const inviteParam = readString("inviteParam");
            const name = values.name?.trim();
            const result = await endpoints.auth.register({
              channel: values.channel,
              target: values.target.trim(),
              code: values.code.trim(),
              password: values.password,
              ...(name ? { name } : {}),
              ...(inviteParam ? { inviteParam } : {}),
              ...storedAttribution(),
            });
            if (result.ok) onSignedIn(result.data);
          } finally {
            setSubmitting(false);
          }
        }}
      >
        <ContactFields form={form} purpose="register" phoneEnabled={providers.phone} testIdPrefix="register" />
        <Form.Item name="name" label={t("auth.fields.nameOptional")} rules={[{ max: 50, message: t("auth.validation.nameLong", { max: 50 }) }]}>
          <Input size="large" prefix={<UserOutlined />} placeholder={t("auth.placeholders.name")} autoComplete="name" data-testid="register-name" />
        </Form.Item>
        <NewPasswordFields testIdPrefix="register" />
        <Button type="primary" htmlType="submit" size="large" block loading={submitting} data-testid="register-submit">
          {t("auth.register.submit")}
        </Button>
      </Form>
    </AuthLayout>
  );
}
