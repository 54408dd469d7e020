import { LockOutlined, SafetyCertificateOutlined, UserOutlined, WechatOutlined } from "@ant-design/icons";
import { Button, Divider, Form, Input, Tabs, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import { endpoints } from "../../lib/api/endpoints";
import { PATHS } from "../../lib/paths";
import { safeReturnTo } from "../../app/return-to";
import { AuthLayout } from "./auth-layout";
import { ContactFields, type ContactValues } from "./contact-fields";
import { useCompleteSignIn } from "./use-complete-sign-in";
import { useProviders } from "./use-providers";
import { WechatQrLogin } from "./wechat-qr-login";

interface PasswordValues {
  username: string;
  password: string;
}

function PasswordForm({ onSignedIn }: { onSignedIn: ReturnType<typeof useCompleteSignIn> }) {
  const { t } = useTranslation();
  const [submitting, setSubmitting] = useState(false);
  return (
    <Form<PasswordValues>
      layout="vertical"
      requiredMark={false}
      onFinish={async (values) => {
        setSubmitting(true);
        try {
          const result = await endpoints.auth.loginWithPassword({ username: values.username.trim(), password: values.password });
          if (result.ok) onSignedIn(result.data);
        } finally {
          setSubmitting(false);
        }
      }}
    >
      <Form.Item name="username" label={t("auth.fields.account")} rules={[{ required: true, whitespace: true, message: t("auth.validation.accountRequired") }]}>
        <Input size="large" prefix={<UserOutlined />} placeholder={t("auth.placeholders.account")} autoComplete="username" data-testid="login-username" />
      </Form.Item>
      <Form.Item
        name="password"
        label={
          <span className="pl-label-row">
            {t("auth.fields.password")}
            <Link to={PATHS.forgotPassword} data-testid="forgot-link" tabIndex={-1}>
              {t("auth.login.forgot")}
            </Link>
          </span>
        }
        rules={[{ required: true, message: t("auth.validation.passwordRequired") }]}
      >
        <Input.Password
          size="large"
          prefix={<LockOutlined />}
          placeholder={t("auth.placeholders.password")}
          autoComplete="current-password"
          data-testid="login-password"
        />
      </Form.Item>
      <Button type="primary" htmlType="submit" size="large" block loading={submitting} data-testid="login-submit">
        {t("auth.login.submit")}
      </Button>
    </Form>
  );
}

function CodeForm({ phoneEnabled, onSignedIn }: { phoneEnabled: boolean; onSignedIn: ReturnType<typeof useCompleteSignIn> }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ContactValues>();
  const [submitting, setSubmitting] = useState(false);
  return (
    <Form
      form={form}
      layout="vertical"
      requiredMark={false}
      onFinish={async (values) => {
        setSubmitting(true);
        try {
          const result = await endpoints.auth.loginWithCode({ channel: values.channel, target: values.target.trim(), code: values.code.trim() });
          if (result.ok) onSignedIn(result.data);
        } finally {
          setSubmitting(false);
        }
      }}
    >
      <ContactFields form={form} purpose="login" phoneEnabled={phoneEnabled} testIdPrefix="login-code" />
      <Button type="primary" htmlType="submit" size="large" block loading={submitting} data-testid="login-code-submit">
        {t("auth.login.submit")}
      </Button>
    </Form>
  );
}

/** The sign-in page: password, code, WeChat QR and external (OIDC) sign-in. */
export function LoginPage() {
  const { t } = useTranslation();
  const providers = useProviders();
  const onSignedIn = useCompleteSignIn();
  const [params] = useSearchParams();
  const [tab, setTab] = useState("password");

  const tabs = [
    { key: "password", label: <span data-testid="login-tab-password">{t("auth.login.tabPassword")}</span>, children: <PasswordForm onSignedIn={onSignedIn} /> },
    {
      key: "code",
      label: <span data-testid="login-tab-code">{t("auth.login.tabCode")}</span>,
      children: <CodeForm phoneEnabled={providers.phone} onSignedIn={onSignedIn} />,
    },
  ];
  if (providers.wechat.enabled) {
    tabs.push({
      key: "wechat",
      label: (
        <span data-testid="login-tab-wechat">
          <WechatOutlined /> {t("auth.login.tabWechat")}
        </span>
      ),
      children: tab === "wechat" ? <WechatQrLogin phoneEnabled={providers.phone} onSignedIn={onSignedIn} /> : <span />,
    });
  }

  return (
    <AuthLayout
      title={t("auth.login.title")}
      subtitle={t("auth.login.subtitle")}
      footer={
        <Typography.Text type="secondary">
          {t("auth.login.noAccount")}{" "}
          <Link to={{ pathname: PATHS.register, search: params.toString() ? `?${params.toString()}` : "" }} data-testid="register-link">
            {t("auth.login.registerLink")}
          </Link>
        </Typography.Text>
      }
    >
      <Tabs activeKey={tab} onChange={setTab} items={tabs} className="pl-auth__tabs" />
      {providers.oidc.enabled ? (
        <>
          <Divider plain className="pl-auth__divider">
            {t("auth.login.or")}
          </Divider>
          <Button
            size="large"
            block
            icon={<SafetyCertificateOutlined />}
            href={endpoints.auth.oidcAuthorizeUrl(safeReturnTo(params.get("returnTo")))}
            data-testid="login-oidc"
          >
            {t("auth.login.oidc", { name: providers.oidc.name || t("auth.login.oidcDefaultName") })}
          </Button>
        </>
      ) : null}
    </AuthLayout>
  );
}
