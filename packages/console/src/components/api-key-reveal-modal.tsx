import { CheckOutlined, CopyOutlined } from "@ant-design/icons";
import { Alert, Button, Flex, Modal, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

/** Props of {@link ApiKeyRevealModal}. */
export interface ApiKeyRevealModalProps {
  /** The key's name and its secret, shown this one time. `undefined` closes the modal. */
  revealed: { name: string; key: string } | undefined;
  onClose: () => void;
}

/** Copies text to the clipboard, falling back to a selection copy; answers whether it worked. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Clipboard API refused (insecure origin, permissions): fall back to a selection copy.
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    const copied = document.execCommand("copy");
    area.remove();
    return copied;
  }
}

/**
 * Shows a newly created API key once, with a copy button and a warning that it cannot be
 * shown again. Closing it forgets the secret.
 */
export function ApiKeyRevealModal({ revealed, onClose }: ApiKeyRevealModalProps) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  useEffect(() => setCopied(false), [revealed?.key]);

  return (
    <Modal
      open={revealed !== undefined}
      title={t("apiKeys.reveal.title", { name: revealed?.name ?? "" })}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
      footer={
        <Button type="primary" onClick={onClose} data-testid="api-key-reveal-done">
          {t("apiKeys.reveal.done")}
        </Button>
      }
    >
      <Flex vertical gap={16}>
        <Alert type="warning" showIcon title={t("apiKeys.reveal.warning")} />
        <Flex gap={8} align="center" className="pl-secret">
          <Typography.Text code className="pl-secret__value" data-testid="api-key-reveal">
            {revealed?.key}
          </Typography.Text>
          <Button
            icon={copied ? <CheckOutlined /> : <CopyOutlined />}
            onClick={() => {
              if (revealed) void copyText(revealed.key).then(setCopied);
            }}
            data-testid="api-key-copy"
          >
            {copied ? t("common.copied") : t("common.copy")}
          </Button>
        </Flex>
      </Flex>
    </Modal>
  );
}
