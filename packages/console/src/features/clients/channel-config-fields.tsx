import { Button, Form, Input, Select, Space, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { checkChannelField, CHANNEL_VALUE_MAX, localized, type SecretAction } from "./channel-rules";
import type { ChannelField } from "../../lib/api/channel-clients";

export interface ChannelConfigFieldsProps {
  /** The platform's form from the catalogue. */
  fields: readonly ChannelField[];
  /** Keys of the secrets the server holds a value for. */
  secretsSet: readonly string[];
  /** What the owner does with each secret (default: keep when set, else replace). */
  actions: Record<string, SecretAction>;
  onActionChange: (key: string, action: SecretAction) => void;
}

/** Stands in for a secret's input while it is kept or cleared (the form item still validates it). */
function SecretMask({ text }: { text: string; value?: string; onChange?: unknown }) {
  return <Typography.Text type="secondary">{text}</Typography.Text>;
}

/** The action a secret field starts with. */
export function defaultSecretAction(field: ChannelField, secretsSet: readonly string[]): SecretAction {
  return secretsSet.includes(field.key) ? "keep" : "replace";
}

/**
 * The fields of a platform's configuration form, generated from the catalogue, inside a parent
 * antd Form under `config.<key>`: labels and help in the interface language, required marks,
 * a select for options, and secrets as password inputs that show whether a value is set, with
 * replace / keep / clear.
 */
export function ChannelConfigFields({ fields, secretsSet, actions, onActionChange }: ChannelConfigFieldsProps) {
  const { t, i18n } = useTranslation();
  return (
    <>
      {fields.map((field) => {
        const label = localized(field.label, i18n.language);
        const help = field.help ? localized(field.help, i18n.language) : undefined;
        const isSet = secretsSet.includes(field.key);
        const action = actions[field.key] ?? defaultSecretAction(field, secretsSet);
        const rule = {
          validator: async (_: unknown, value: string | undefined) => {
            const key = checkChannelField(field, value, field.secret ? { set: isSet, action } : undefined);
            if (key) throw new Error(t(key, { field: label, max: CHANNEL_VALUE_MAX }));
          },
        };
        const testId = `channel-field-${field.key}`;
        if (!field.secret) {
          return (
            <Form.Item key={field.key} name={["config", field.key]} label={label} extra={help} required={field.required} rules={[rule]}>
              {field.options ? (
                <Select
                  allowClear={!field.required}
                  options={field.options.map((option) => ({ value: option.value, label: localized(option.label, i18n.language) }))}
                  data-testid={testId}
                />
              ) : (
                <Input maxLength={CHANNEL_VALUE_MAX} data-testid={testId} />
              )}
            </Form.Item>
          );
        }
        const state = (
          <Tag color={isSet && action !== "clear" ? "green" : "default"} data-testid={`${testId}-state`}>
            {action === "clear" ? t("clients.channelForm.secretWillClear") : isSet ? t("clients.channelForm.secretSet") : t("clients.channelForm.secretNotSet")}
          </Tag>
        );
        return (
          <Form.Item
            key={field.key}
            label={
              <Space size={8}>
                {label}
                {state}
              </Space>
            }
            extra={help}
            required={field.required}
          >
            {action === "replace" ? (
              <Space.Compact style={{ width: "100%" }}>
                <Form.Item name={["config", field.key]} noStyle rules={[rule]}>
                  <Input.Password
                    autoComplete="new-password"
                    maxLength={CHANNEL_VALUE_MAX}
                    placeholder={isSet ? t("clients.channelForm.secretReplacePlaceholder") : undefined}
                    data-testid={testId}
                  />
                </Form.Item>
                {isSet && (
                  <Button onClick={() => onActionChange(field.key, "keep")} data-testid={`${testId}-keep`}>
                    {t("clients.channelForm.secretKeep")}
                  </Button>
                )}
              </Space.Compact>
            ) : (
              <Space wrap>
                <Form.Item name={["config", field.key]} noStyle rules={[rule]}>
                  <SecretMask text={action === "clear" ? t("clients.channelForm.secretClearHelp") : "••••••••"} />
                </Form.Item>
                <Button size="small" onClick={() => onActionChange(field.key, "replace")} data-testid={`${testId}-replace`}>
                  {t("clients.channelForm.secretReplace")}
                </Button>
                {action === "keep" && !field.required && (
                  <Button size="small" danger onClick={() => onActionChange(field.key, "clear")} data-testid={`${testId}-clear`}>
                    {t("clients.channelForm.secretClear")}
                  </Button>
                )}
                {action === "clear" && (
                  <Button size="small" onClick={() => onActionChange(field.key, "keep")}>
                    {t("clients.channelForm.secretKeep")}
                  </Button>
                )}
              </Space>
            )}
          </Form.Item>
        );
      })}
    </>
  );
}
