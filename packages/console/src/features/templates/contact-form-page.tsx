import { Button, Card, Form, Input, Result, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { templateEndpoints } from "../../lib/api/templates";
import { PATHS } from "../../lib/paths";
import "./templates.css";

interface ContactFields {
  firstName: string;
  lastName: string;
  email: string;
  companyName: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

/** /fillform: the contact form (guests too): names 1–50, a valid work e-mail, company 1–100; sales answer within 48 hours. */
export function ContactFormPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<ContactFields>();
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState<number>();

  const submit = async (values: ContactFields) => {
    setSending(true);
    const result = await templateEndpoints.contact(
      { firstName: values.firstName.trim(), lastName: values.lastName.trim(), email: values.email.trim(), companyName: values.companyName.trim() },
      { silent: true },
    );
    setSending(false);
    if (result.ok) {
      setSent(result.data.replyWithinHours);
      return;
    }
    const field = result.error.field as keyof ContactFields | undefined;
    if (field && ["firstName", "lastName", "email", "companyName"].includes(field)) form.setFields([{ name: field, errors: [result.error.message] }]);
    else form.setFields([{ name: "companyName", errors: [result.error.message] }]);
  };

  const text = (min: number, max: number, message: string) => [
    { required: true, whitespace: true, message: t(message) },
    { max, message: t(message) },
    { min, message: t(message) },
  ];

  return (
    <div className="pl-standalone-form" data-testid="contact-form-page">
      {sent !== undefined ? (
        <Result
          status="success"
          title={t("contactForm.sentTitle")}
          subTitle={t("contactForm.sentBody", { hours: sent })}
          extra={
            <Link to={PATHS.home}>
              <Button>{t("contactForm.backHome")}</Button>
            </Link>
          }
          data-testid="contact-form-sent"
        />
      ) : (
        <Card>
          <Typography.Title level={3}>{t("contactForm.title")}</Typography.Title>
          <Typography.Paragraph type="secondary">{t("contactForm.subtitle")}</Typography.Paragraph>
          <Form<ContactFields> form={form} layout="vertical" onFinish={(values) => void submit(values)} data-testid="contact-form">
            <Form.Item name="firstName" label={t("contactForm.firstName")} rules={text(1, 50, "contactForm.nameRule")}>
              <Input maxLength={50} autoComplete="given-name" data-testid="contact-first-name" />
            </Form.Item>
            <Form.Item name="lastName" label={t("contactForm.lastName")} rules={text(1, 50, "contactForm.nameRule")}>
              <Input maxLength={50} autoComplete="family-name" data-testid="contact-last-name" />
            </Form.Item>
            <Form.Item
              name="email"
              label={t("contactForm.email")}
              rules={[
                { required: true, message: t("contactForm.emailRule") },
                { pattern: EMAIL, message: t("contactForm.emailRule") },
              ]}
            >
              <Input maxLength={254} autoComplete="email" data-testid="contact-email" />
            </Form.Item>
            <Form.Item name="companyName" label={t("contactForm.company")} rules={text(1, 100, "contactForm.companyRule")}>
              <Input maxLength={100} autoComplete="organization" data-testid="contact-company" />
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={sending} data-testid="contact-submit">
              {t("contactForm.submit")}
            </Button>
          </Form>
        </Card>
      )}
    </div>
  );
}
