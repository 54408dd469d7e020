import { Button, Card, Flex, Form, Input, Radio, Select, Tag, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { invalidateSpace } from "../../lib/api/query";
import { endpoints } from "../../lib/api/endpoints";
import { feedback } from "../../lib/feedback";
import { PATHS } from "../../lib/paths";
import { AppAvatar } from "../../components/app-avatar";
import { PageHeader } from "../../components/page-header";
import { APP_LIMITS, appRules, DEFAULT_APP_AVATAR, guidingQuestionsOf } from "./app-rules";
import { editorPath } from "./apps-page";
import { ruleOf, showServerError } from "./form-helpers";
import { initialModel, modelOptions, useAppOptions } from "./use-app-options";
import { AppStarter } from "../templates/app-starter";
import "./apps.css";
import { AssetUrlInput } from "../../components/asset-url-input";

/** The create-app form's values. */
export interface CreateAppValues {
  type: "LIGHT" | "KNOWLEDGE" | "AGENT";
  name: string;
  description: string;
  openingIntroduction: string;
  avatarUrl: string;
  category: string;
  settingsPrompt: string;
  defaultModel: string;
}

/** /console/createApp: the essentials of a new app, checked like the server checks them; success opens the editor. */
export function CreateAppPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<CreateAppValues>();
  const { categories, models, modelsLoaded } = useAppOptions();
  const [saving, setSaving] = useState(false);
  const opening = Form.useWatch("openingIntroduction", form) ?? "";
  const avatarUrl = Form.useWatch("avatarUrl", form) ?? "";
  const name = Form.useWatch("name", form) ?? "";
  const questions = guidingQuestionsOf(opening);

  useEffect(() => {
    if (modelsLoaded && !form.getFieldValue("defaultModel")) form.setFieldValue("defaultModel", initialModel(models));
  }, [form, models, modelsLoaded]);

  const submit = async (values: CreateAppValues) => {
    setSaving(true);
    try {
      const result = await endpoints.apps.create({
        type: values.type,
        name: values.name.trim(),
        description: values.description.trim(),
        openingIntroduction: values.openingIntroduction.trim(),
        avatarUrl: values.avatarUrl.trim(),
        category: values.category,
        settingsPrompt: values.settingsPrompt.trim(),
        defaultModel: values.defaultModel,
      });
      if (!result.ok) {
        showServerError(form, result.error);
        return;
      }
      void invalidateSpace(["apps"]);
      feedback.success(t("apps.createdMessage", { name: result.data.name }));
      navigate(editorPath(result.data.id));
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="pl-create">
      <PageHeader
        title={t("apps.createTitle")}
        subtitle={t("apps.createSubtitle")}
        breadcrumb={[{ label: t("apps.title"), to: PATHS.agents }, { label: t("apps.createTitle") }]}
      />
      <AppStarter form={form} />
      <Card className="pl-create__card">
        <Form<CreateAppValues>
          form={form}
          layout="vertical"
          initialValues={{ type: "LIGHT", avatarUrl: DEFAULT_APP_AVATAR }}
          onFinish={(values) => void submit(values)}
          scrollToFirstError
          data-testid="app-create-form"
        >
          <Form.Item name="type" label={t("apps.fields.type")}>
            <Radio.Group
              optionType="button"
              options={(["LIGHT", "KNOWLEDGE", "AGENT"] as const).map((type) => ({ value: type, label: t(`apps.types.${type}`) }))}
              data-testid="app-type"
            />
          </Form.Item>
          <Form.Item name="name" label={t("apps.fields.name")} required rules={[ruleOf(appRules.name)]}>
            <Input maxLength={APP_LIMITS.nameMax} showCount placeholder={t("apps.placeholders.name")} data-testid="app-name" />
          </Form.Item>
          <Form.Item
            name="description"
            label={t("apps.fields.description")}
            required
            rules={[ruleOf(appRules.description)]}
            extra={t("apps.hints.description")}
          >
            <Input.TextArea
              autoSize={{ minRows: 2, maxRows: 4 }}
              maxLength={APP_LIMITS.descriptionMax}
              showCount
              placeholder={t("apps.placeholders.description")}
              data-testid="app-description"
            />
          </Form.Item>
          <Form.Item
            name="openingIntroduction"
            label={t("apps.fields.opening")}
            required
            rules={[ruleOf(appRules.openingIntroduction)]}
            extra={
              <>
                {t("apps.hints.opening")}
                {questions.length > 0 ? (
                  <Flex gap={6} wrap className="pl-hint-questions" data-testid="app-opening-questions">
                    {questions.map((question) => (
                      <Tag key={question} color="processing">
                        {question}
                      </Tag>
                    ))}
                  </Flex>
                ) : null}
              </>
            }
          >
            <Input.TextArea
              autoSize={{ minRows: 3, maxRows: 8 }}
              maxLength={APP_LIMITS.openingIntroductionMax}
              placeholder={t("apps.placeholders.opening")}
              data-testid="app-opening"
            />
          </Form.Item>
          <Form.Item label={t("apps.fields.avatar")} required extra={t("apps.hints.avatar")}>
            <div className="pl-avatar-field">
              <AppAvatar name={name || "?"} src={avatarUrl} size={44} />
              <Form.Item name="avatarUrl" noStyle rules={[ruleOf((value: string) => appRules.avatarUrl(value))]}>
                <AssetUrlInput maxLength={APP_LIMITS.avatarUrlMax} placeholder="https://…" data-testid="app-avatar" />
              </Form.Item>
            </div>
          </Form.Item>
          <Form.Item name="category" label={t("apps.fields.category")} required rules={[ruleOf(appRules.category)]}>
            <Select
              placeholder={t("apps.placeholders.category")}
              options={categories.map((category) => ({ value: category.id, label: category.name, title: category.description }))}
              data-testid="app-category"
            />
          </Form.Item>
          <Form.Item name="settingsPrompt" label={t("apps.fields.prompt")} required rules={[ruleOf(appRules.settingsPrompt)]} extra={t("apps.hints.prompt")}>
            <Input.TextArea autoSize={{ minRows: 4, maxRows: 12 }} placeholder={t("apps.placeholders.prompt")} data-testid="app-prompt" />
          </Form.Item>
          <Form.Item name="defaultModel" label={t("apps.fields.defaultModel")} required rules={[ruleOf(appRules.defaultModel)]}>
            <Select
              showSearch
              loading={!modelsLoaded}
              options={modelOptions(models, t("apps.offlineModel"), [form.getFieldValue("defaultModel") as string])}
              data-testid="app-model"
            />
          </Form.Item>
          <Flex gap={8} justify="flex-end">
            <Button onClick={() => navigate(PATHS.agents)} data-testid="app-create-cancel">
              {t("common.cancel")}
            </Button>
            <Button type="primary" htmlType="submit" loading={saving} data-testid="app-save">
              {t("apps.createSubmit")}
            </Button>
          </Flex>
        </Form>
      </Card>
      <Typography.Paragraph type="secondary" className="pl-create__note">
        {t("apps.createNote")}
      </Typography.Paragraph>
    </div>
  );
}
