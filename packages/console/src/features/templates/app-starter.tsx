import { AppstoreOutlined, BulbOutlined, PictureOutlined } from "@ant-design/icons";
import { Alert, Button, Card, Flex, Input, Typography, type FormInstance } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { templateEndpoints } from "../../lib/api/templates";
import { templatesPath } from "./paths";

/**
 * The create-app page's two quick starts: "Describe your app" (the model drafts the form for the
 * person to review) and "From a template"; plus drawing an avatar from the name. Offline, the
 * draft is refused with a message and the template picker is offered instead.
 */
export function AppStarter({ form }: { form: FormInstance }) {
  const { t } = useTranslation();
  const [description, setDescription] = useState("");
  const [drafting, setDrafting] = useState(false);
  const [offline, setOffline] = useState<string>();
  const [drawing, setDrawing] = useState(false);

  const draft = async () => {
    setDrafting(true);
    setOffline(undefined);
    const result = await templateEndpoints.autoCreate(description.trim(), { silent: true });
    setDrafting(false);
    if (!result.ok) {
      setOffline(result.error.message);
      return;
    }
    const { model, ...fields } = result.data;
    form.setFieldsValue({ ...fields, defaultModel: model });
  };

  const drawAvatar = async () => {
    const name = String(form.getFieldValue("name") ?? "").trim();
    if (!name) {
      form.setFields([{ name: "name", errors: [t("autoCreate.nameFirst")] }]);
      return;
    }
    setDrawing(true);
    const result = await templateEndpoints.avatar(name);
    setDrawing(false);
    if (result.ok) form.setFieldValue("avatarUrl", result.data.avatarUrl);
  };

  return (
    <Card className="pl-create__card pl-app-starter" data-testid="app-starter">
      <Flex vertical gap={8}>
        <Typography.Text strong>
          <BulbOutlined /> {t("autoCreate.title")}
        </Typography.Text>
        <Typography.Text type="secondary">{t("autoCreate.hint")}</Typography.Text>
        <Input.TextArea
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          maxLength={500}
          showCount
          autoSize={{ minRows: 2, maxRows: 4 }}
          placeholder={t("autoCreate.placeholder")}
          data-testid="auto-create-description"
        />
        <Flex gap={8} wrap>
          <Button type="primary" loading={drafting} disabled={[...description.trim()].length < 5} onClick={() => void draft()} data-testid="auto-create-draft">
            {t("autoCreate.draft")}
          </Button>
          <Link to={templatesPath(true)}>
            <Button icon={<AppstoreOutlined />} data-testid="create-from-template">
              {t("autoCreate.fromTemplate")}
            </Button>
          </Link>
          <Button icon={<PictureOutlined />} loading={drawing} onClick={() => void drawAvatar()} data-testid="auto-create-avatar">
            {t("autoCreate.drawAvatar")}
          </Button>
        </Flex>
        {offline ? (
          <Alert
            type="warning"
            showIcon
            message={offline}
            action={
              <Link to={templatesPath(true)}>
                <Button size="small">{t("autoCreate.pickTemplate")}</Button>
              </Link>
            }
            data-testid="auto-create-offline"
          />
        ) : null}
      </Flex>
    </Card>
  );
}
