import { Button, Form, Result } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import { endpoints } from "../../lib/api/endpoints";
import { PATHS } from "../../lib/paths";
import { AuthLayout } from "./auth-layout";
import { ContactFields, NewPasswordFields, type ContactValues } from "./contact-fields";
import { useProviders } from "./use-providers";

interface ResetValues extends ContactValues {
  password: string;
  confirm: string;
}

/** Resets a forgotten password with a code sent to the account's e-mail or phone. */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const providers = useProviders();
  const navigate = useNavigate();
  const [form] = Form.useForm<ResetValues>();
  const [submitting, setSubmitting] = useState(false);
  const [done, setDone] = useState(false);

  return (
    <AuthLayout
      title={t("auth.forgot.title")}
      subtitle={done ? undefined : t("auth.forgot.subtitle")}
      footer={
        <Link to={PATHS.login} data-testid="back-to-login">
          {t("auth.forgot.backToLogin")}
        </Link>
      }
    >
      {done ? (
        <Result
          status="success"
          title={t("auth.forgot.doneTitle")}
          subTitle={t("auth.forgot.doneDescription")}
          extra={
            <Button type="primary" onClick={() => navigate(PATHS.login)} data-testid="forgot-done-login">
              {t("auth.forgot.goToLogin")}
            </Button>
          }
        />
      ) : (
        <Form
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={async (values) => {
            setSubmitting(true);
            try {
              const result = await endpoints.auth.resetPassword({
                channel: values.channel,
                target: values.target.trim(),
                code: values.code.trim(),
                password: values.password,
              });
              if (result.ok) setDone(true);
            } finally {
              setSubmitting(false);
            }
          }}
        >
          <ContactFields form={form} purpose="reset-password" phoneEnabled={providers.phone} testIdPrefix="forgot" />
          <NewPasswordFields testIdPrefix="forgot" label={t("auth.fields.newPassword")} />
          <Button type="primary" htmlType="submit" size="large" block loading={submitting} data-testid="forgot-submit">
            {t("auth.forgot.submit")}
          </Button>
        </Form>
      )}
    </AuthLayout>
  );
}
