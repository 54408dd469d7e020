import { LockOutlined, SafetyOutlined, UserOutlined } from "@ant-design/icons";
import { Avatar, Button, Card, Col, Descriptions, Flex, Form, Input, Row, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { endpoints } from "../../lib/api/endpoints";
import { feedback } from "../../lib/feedback";
import { formatDateTime } from "../../lib/format";
import { sessionStore } from "../../lib/api/session";
import type { CodeChannel, User } from "../../lib/api/types";
import { VerificationCodeButton } from "../../components/verification-code-button";
import { NewPasswordFields } from "../auth/contact-fields";
import { ContactMethodsCard } from "./contact-methods-card";
import { MyTeamCredits } from "./my-team-credits";
import { PLAN_LABEL_KEYS, ROLE_LABEL_KEYS } from "./plan-labels";

interface ProfileValues {
  name: string;
  avatarUrl?: string;
}

interface PasswordValues {
  oldPassword?: string;
  password: string;
  confirm: string;
  code: string;
}

function ProfileForm({ user }: { user: User }) {
  const { t } = useTranslation();
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<ProfileValues>();
  const avatarPreview = Form.useWatch("avatarUrl", form);
  return (
    <Card title={t("account.profile.editTitle")} className="pl-card-plain">
      <Form<ProfileValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ name: user.name, avatarUrl: user.avatarUrl ?? "" }}
        onFinish={async (values) => {
          setSaving(true);
          try {
            const avatarUrl = values.avatarUrl?.trim();
            const result = await endpoints.me.update({ name: values.name.trim(), ...(avatarUrl ? { avatarUrl } : {}) });
            if (result.ok) {
              sessionStore.setUser(result.data);
              feedback.success(t("account.profile.saved"));
            }
          } finally {
            setSaving(false);
          }
        }}
      >
        <Flex gap={16} align="center" className="pl-avatar-row">
          <Avatar size={56} src={avatarPreview || undefined} icon={<UserOutlined />} />
          <Typography.Text type="secondary">{t("account.profile.avatarHint")}</Typography.Text>
        </Flex>
        <Form.Item
          name="name"
          label={t("account.profile.name")}
          rules={[
            { required: true, whitespace: true, message: t("account.profile.nameRequired") },
            { max: 50, message: t("auth.validation.nameLong", { max: 50 }) },
          ]}
        >
          <Input maxLength={50} data-testid="profile-name" />
        </Form.Item>
        <Form.Item name="avatarUrl" label={t("account.profile.avatarUrl")} rules={[{ type: "url", message: t("account.profile.avatarInvalid") }]}>
          <Input placeholder="https://" data-testid="profile-avatar" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="profile-save">
          {t("common.save")}
        </Button>
      </Form>
    </Card>
  );
}

function PasswordForm({ user }: { user: User }) {
  const { t } = useTranslation();
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<PasswordValues>();
  const channel: CodeChannel | undefined = user.email ? "email" : user.phone ? "phone" : undefined;
  const target = user.email ?? user.phone ?? "";

  return (
    <Card title={user.hasPassword ? t("account.password.title") : t("account.password.setTitle")} className="pl-card-plain" data-testid="password-card">
      {channel ? (
        <Form<PasswordValues>
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={async (values) => {
            setSaving(true);
            try {
              const result = await endpoints.me.changePassword({
                ...(user.hasPassword ? { oldPassword: values.oldPassword ?? "" } : {}),
                newPassword: values.password,
                code: values.code.trim(),
                channel,
              });
              if (result.ok) {
                form.resetFields();
                feedback.success(t(user.hasPassword ? "account.password.changed" : "account.password.set"));
                // hasPassword has changed: the form now asks for the current password.
                const me = await endpoints.me.get({ silent: true });
                if (me.ok) sessionStore.setUser(me.data);
              }
            } finally {
              setSaving(false);
            }
          }}
        >
          {user.hasPassword ? (
            <Form.Item name="oldPassword" label={t("account.password.old")} rules={[{ required: true, message: t("account.password.oldRequired") }]}>
              <Input.Password prefix={<LockOutlined />} autoComplete="current-password" data-testid="password-old" />
            </Form.Item>
          ) : (
            <Typography.Paragraph type="secondary">{t("account.password.noPasswordYet")}</Typography.Paragraph>
          )}
          <NewPasswordFields testIdPrefix="password-new" label={t("auth.fields.newPassword")} size="middle" />
          <Form.Item label={t("auth.fields.code")} required extra={t("account.password.codeHint", { target })}>
            <Flex gap={8}>
              <Form.Item name="code" noStyle rules={[{ required: true, whitespace: true, message: t("auth.validation.codeRequired") }]}>
                <Input prefix={<SafetyOutlined />} autoComplete="one-time-code" inputMode="numeric" maxLength={12} data-testid="password-code" />
              </Form.Item>
              <VerificationCodeButton
                data-testid="password-code-send"
                onSend={async () => {
                  const result = await endpoints.auth.sendCode({ channel, target, purpose: "change-password" });
                  if (!result.ok) return undefined;
                  feedback.success(t("auth.code.sent", { target: result.data.sentTo }));
                  return result.data.resendAfterSeconds;
                }}
              />
            </Flex>
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="password-save">
            {user.hasPassword ? t("account.password.submit") : t("account.password.setSubmit")}
          </Button>
        </Form>
      ) : (
        <Typography.Text type="secondary">{t("account.password.noContact")}</Typography.Text>
      )}
    </Card>
  );
}

/** Props of {@link ProfileTab}. */
export interface ProfileTabProps {
  user: User;
}

/** The profile tab: who the user is, their plan and space, name/avatar editing, sign-in methods and password. */
export function ProfileTab({ user }: ProfileTabProps) {
  const { t, i18n } = useTranslation();
  return (
    <Flex vertical gap={16}>
      <Card className="pl-card-plain">
        <Flex gap={20} align="center" wrap>
          <Avatar size={72} src={user.avatarUrl ?? undefined} icon={<UserOutlined />} className="pl-profile__avatar" />
          <Flex vertical gap={4} className="pl-profile__who">
            <Typography.Title level={4} className="pl-profile__name" data-testid="profile-display-name">
              {user.name || t("account.unnamed")}
            </Typography.Title>
            <Flex gap={8} wrap>
              <Tag color="geekblue">{t(PLAN_LABEL_KEYS[user.memberGrade])}</Tag>
              <Tag>{t(ROLE_LABEL_KEYS[user.role])}</Tag>
            </Flex>
          </Flex>
        </Flex>
        <Descriptions
          className="pl-profile__facts"
          column={{ xs: 1, md: 2 }}
          size="small"
          items={[
            { key: "email", label: t("account.profile.email"), children: user.email ?? t("account.profile.notSet") },
            { key: "phone", label: t("account.profile.phone"), children: user.phone ?? t("account.profile.notSet") },
            { key: "space", label: t("account.profile.space"), children: user.companyName },
            { key: "since", label: t("account.profile.memberSince"), children: formatDateTime(user.createdAt, i18n.language) },
          ]}
        />
      </Card>
      <MyTeamCredits />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <ProfileForm user={user} />
        </Col>
        <Col xs={24} xl={12}>
          <Flex vertical gap={16}>
            <ContactMethodsCard user={user} />
            <PasswordForm user={user} />
          </Flex>
        </Col>
      </Row>
    </Flex>
  );
}
