import { Form, Select } from "antd";
import { useTranslation } from "react-i18next";

/** The speech fields of the provider form, trimmed for the request. */
export function speechFieldsOf(fields: { speechModels?: string[]; speechFormat?: "openai" | "azure"; speechVoices?: string[] }) {
  const clean = (list: string[] | undefined) => (list ?? []).map((item) => item.trim()).filter(Boolean);
  return { speechModels: clean(fields.speechModels), speechFormat: fields.speechFormat ?? "openai", speechVoices: clean(fields.speechVoices) } as const;
}

/** The provider form's block of text-to-speech models: ids, wire format, and the voices of an OpenAI-format server. */
export function SpeechProviderFields() {
  const { t } = useTranslation();
  const format = Form.useWatch("speechFormat") as "openai" | "azure" | undefined;
  return (
    <div data-testid="provider-speech">
      <Form.Item name="speechModels" label={t("voice.providerModels")} extra={t("voice.providerModelsHint")}>
        <Select mode="tags" tokenSeparators={[",", " "]} open={false} placeholder="tts-1" data-testid="provider-speech-models" />
      </Form.Item>
      <Form.Item name="speechFormat" label={t("voice.format")} extra={t(`voice.formatHints.${format ?? "openai"}`)}>
        <Select options={(["openai", "azure"] as const).map((value) => ({ value, label: t(`voice.formats.${value}`) }))} data-testid="provider-speech-format" />
      </Form.Item>
      {format !== "azure" ? (
        <Form.Item name="speechVoices" label={t("voice.providerVoices")} extra={t("voice.providerVoicesHint")}>
          <Select mode="tags" tokenSeparators={[",", " "]} open={false} placeholder="alloy" data-testid="provider-speech-voices" />
        </Form.Item>
      ) : null}
    </div>
  );
}
