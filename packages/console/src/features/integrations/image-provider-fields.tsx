import { Form, Select } from "antd";
import { useTranslation } from "react-i18next";

/** The image formats a model provider's image API may speak. */
export const IMAGE_FORMATS = ["openai", "midjourney"] as const;

/** The image block of the model provider form: the image models it draws with and its image API. */
export function ImageProviderFields() {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item name="imageModels" label={t("paint.provider.models")} extra={t("paint.provider.modelsHint")}>
        <Select mode="tags" tokenSeparators={[",", " "]} open={false} placeholder="dall-e-3" data-testid="provider-image-models" />
      </Form.Item>
      <Form.Item name="imageFormat" label={t("paint.provider.format")} extra={t("paint.provider.formatHint")}>
        <Select options={IMAGE_FORMATS.map((value) => ({ value, label: t(`paint.provider.formats.${value}`) }))} data-testid="provider-image-format" />
      </Form.Item>
    </>
  );
}
