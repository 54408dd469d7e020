import type { Meta, StoryObj } from "@storybook/react-vite";
import { Button, Form } from "antd";
import { useState } from "react";
import { ChannelConfigFields, defaultSecretAction } from "./channel-config-fields";
import type { ChannelField } from "../../lib/api/channel-clients";
import type { SecretAction } from "./channel-rules";

const telegram: ChannelField[] = [
  {
    key: "botToken",
    label: { en: "Bot token", "zh-CN": "机器人令牌（Bot Token）" },
    help: { en: "From @BotFather, e.g. 123456:ABC-DEF…", "zh-CN": "在 @BotFather 处获取，例如 123456:ABC-DEF…" },
    secret: true,
    required: true,
    pattern: "^\\d+:[A-Za-z0-9_-]+$",
  },
  {
    key: "secretToken",
    label: { en: "Webhook secret token", "zh-CN": "Webhook 密钥（secret_token）" },
    help: { en: "Leave empty to derive one from the bot token.", "zh-CN": "留空则由机器人令牌自动生成。" },
    secret: true,
    required: false,
    pattern: "^[A-Za-z0-9_-]{1,256}$",
  },
];

const wechat: ChannelField[] = [
  { key: "appId", label: { en: "AppID", "zh-CN": "AppID" }, secret: false, required: true, pattern: "^wx[0-9a-f]{16}$" },
  {
    key: "encryptionMode",
    label: { en: "Message encryption", "zh-CN": "消息加解密方式" },
    secret: false,
    required: true,
    default: "safe",
    options: [
      { value: "plaintext", label: { en: "Plaintext", "zh-CN": "明文模式" } },
      { value: "compatible", label: { en: "Compatible", "zh-CN": "兼容模式" } },
      { value: "safe", label: { en: "Safe", "zh-CN": "安全模式" } },
    ],
  },
  { key: "appSecret", label: { en: "AppSecret", "zh-CN": "AppSecret" }, secret: true, required: true },
];

/** The fields in a form with a Validate button, as the config page holds them. */
function Harness({ fields, secretsSet }: { fields: ChannelField[]; secretsSet: string[] }) {
  const [form] = Form.useForm();
  const [actions, setActions] = useState<Record<string, SecretAction>>(() =>
    Object.fromEntries(fields.filter((field) => field.secret).map((field) => [field.key, defaultSecretAction(field, secretsSet)])),
  );
  return (
    <Form
      form={form}
      layout="vertical"
      style={{ maxWidth: 560 }}
      initialValues={{ config: Object.fromEntries(fields.map((field) => [field.key, field.secret ? "" : (field.default ?? "")])) }}
    >
      <ChannelConfigFields
        fields={fields}
        secretsSet={secretsSet}
        actions={actions}
        onActionChange={(key, action) => setActions((current) => ({ ...current, [key]: action }))}
      />
      <Button onClick={() => void form.validateFields().catch(() => undefined)}>Validate</Button>
    </Form>
  );
}

const meta = {
  title: "Clients/ChannelConfigFields",
  component: Harness,
  args: { fields: telegram, secretsSet: [] },
} satisfies Meta<typeof Harness>;

export default meta;
type Story = StoryObj<typeof meta>;

/** A new Telegram client: both secrets not set; Validate shows the required and pattern checks. */
export const NewTelegram: Story = {};

/** A saved client: secrets show Set with Replace (and Clear for the optional one). */
export const SavedSecrets: Story = { args: { secretsSet: ["botToken", "secretToken"] } };

/** Plain fields, a select of options with its default, and a secret. */
export const WithOptions: Story = { args: { fields: wechat } };
