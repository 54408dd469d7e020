import { PlayCircleOutlined } from "@ant-design/icons";
import { Alert, Button, Col, Form, Row, Select } from "antd";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSpaceQuery } from "../../lib/api/query";
import { voiceEndpoints } from "../../lib/api/voice";

/** The speech models the instance serves; undefined while loading. */
function useSpeechModels() {
  const { data, isError } = useSpaceQuery({ key: ["voice", "models"], fetch: (signal) => voiceEndpoints.speechModels({ silent: true, signal }) });
  return isError ? [] : data;
}

/** The tones of a speech model; undefined while loading or without a model. */
function useTones(model: string | null | undefined) {
  const { data, isError } = useSpaceQuery({
    key: ["voice", "tones", model ?? ""],
    enabled: !!model,
    fetch: (signal) => voiceEndpoints.tones(model!, { silent: true, signal }),
  });
  return isError ? [] : data;
}

/**
 * The app editor's voice (spec §3 sound/voice): a speech model and one of its tones, with a demo
 * button; with no speech model configured, where to configure one.
 */
export function VoiceSettingsSection() {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const models = useSpeechModels();
  const model = Form.useWatch("voiceModel", form) as string | null | undefined;
  const tone = Form.useWatch("voice", form) as string | null | undefined;
  const tones = useTones(model);
  const audio = useRef<HTMLAudioElement>(null);
  const [loading, setLoading] = useState(false);
  const url = useRef<string>(undefined);
  useEffect(() => () => (url.current ? URL.revokeObjectURL(url.current) : undefined), []);

  const playDemo = async () => {
    if (!model || !tone || !audio.current) return;
    setLoading(true);
    const result = await voiceEndpoints.demo(model, tone, { silent: true });
    setLoading(false);
    if (!result.ok || !result.data) return;
    if (url.current) URL.revokeObjectURL(url.current);
    url.current = URL.createObjectURL(result.data);
    audio.current.src = url.current;
    void audio.current.play().catch(() => undefined);
  };

  if (models !== undefined && models.length === 0) {
    return (
      <Form.Item label={t("voice.label")} data-testid="app-voice-settings">
        <Alert type="info" showIcon message={t("voice.offline")} data-testid="app-voice-offline" />
      </Form.Item>
    );
  }
  return (
    <Row gutter={16} data-testid="app-voice-settings">
      <Col xs={24} md={10}>
        <Form.Item name="voiceModel" label={t("voice.model")} extra={t("voice.modelHint")}>
          <Select
            allowClear
            loading={models === undefined}
            placeholder={t("voice.none")}
            onChange={() => form.setFieldValue("voice", null)}
            options={(models ?? []).map((entry) => ({
              value: entry.id,
              label: t("voice.option", { id: entry.id, provider: entry.providerName, credits: entry.creditsPerThousandChars }),
            }))}
            data-testid="app-voice-model"
          />
        </Form.Item>
      </Col>
      <Col xs={24} md={10}>
        <Form.Item name="voice" label={t("voice.tone")} rules={[{ required: !!model, message: t("voice.toneRequired") }]}>
          <Select
            showSearch
            disabled={!model}
            loading={!!model && tones === undefined}
            optionFilterProp="label"
            options={(tones ?? []).map((entry) => ({ value: entry.id, label: entry.locale ? `${entry.name} (${entry.locale})` : entry.name }))}
            data-testid="app-voice-tone"
          />
        </Form.Item>
      </Col>
      <Col xs={24} md={4}>
        <Form.Item label=" " colon={false}>
          <Button icon={<PlayCircleOutlined />} disabled={!model || !tone} loading={loading} onClick={() => void playDemo()} data-testid="app-voice-demo">
            {t("voice.demo")}
          </Button>
          {/* biome-ignore lint/a11y/useMediaCaption: a demo of a voice reading a fixed sentence, no dialogue to caption */}
          <audio ref={audio} hidden data-testid="app-voice-demo-audio" />
        </Form.Item>
      </Col>
    </Row>
  );
}
