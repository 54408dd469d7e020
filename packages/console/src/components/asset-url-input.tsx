import { LoadingOutlined, UploadOutlined } from "@ant-design/icons";
import { Button, Input, Space, Tooltip, Typography } from "antd";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { chatFileEndpoints } from "../lib/api/chat-files";
import { handledByRequestLayer } from "../lib/api/request";
import { IMAGE_ACCEPT } from "./chat/pending-files";

/** Props of {@link AssetUrlInput}: a form control (Form.Item passes value and onChange). */
export interface AssetUrlInputProps {
  value?: string;
  onChange?: (value: string) => void;
  id?: string;
  maxLength?: number;
  placeholder?: string;
  disabled?: boolean;
  /** Test id of the address input; the button is `{testId}-upload`, its file input `{testId}-upload-input`. */
  "data-testid"?: string;
}

/**
 * An image address (avatars): typed in, or an image uploaded as a public asset (JPEG/PNG ≤ 5 MB)
 * whose answered address fills the field. The server's refusal shows under the field.
 */
export function AssetUrlInput({ value, onChange, id, maxLength, placeholder, disabled = false, "data-testid": testId = "asset-url" }: AssetUrlInputProps) {
  const { t } = useTranslation();
  const picker = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState<string>();

  const upload = async (file: File) => {
    setUploading(true);
    setError(undefined);
    try {
      const result = await chatFileEndpoints.uploadAsset(file);
      if (result.ok) onChange?.(result.data.url);
      else if (!handledByRequestLayer(result.error)) setError(result.error.message || t("errors.generic"));
    } finally {
      setUploading(false);
    }
  };

  return (
    <div style={{ display: "flex", flexDirection: "column", gap: 4, flex: "1 1 auto", minWidth: 0 }}>
      <Space.Compact style={{ width: "100%" }}>
        <Input
          id={id}
          value={value}
          onChange={(event) => onChange?.(event.target.value)}
          maxLength={maxLength}
          placeholder={placeholder}
          disabled={disabled}
          data-testid={testId}
        />
        <Tooltip title={t("assetUpload.hint")}>
          <Button
            icon={uploading ? <LoadingOutlined /> : <UploadOutlined />}
            disabled={disabled || uploading}
            onClick={() => picker.current?.click()}
            data-testid={`${testId}-upload`}
          >
            {t("assetUpload.button")}
          </Button>
        </Tooltip>
      </Space.Compact>
      <input
        ref={picker}
        type="file"
        accept={IMAGE_ACCEPT}
        style={{ display: "none" }}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = "";
          if (file) void upload(file);
        }}
        data-testid={`${testId}-upload-input`}
      />
      {error ? (
        <Typography.Text type="danger" data-testid={`${testId}-upload-error`}>
          {error}
        </Typography.Text>
      ) : null}
    </div>
  );
}
