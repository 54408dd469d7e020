import { CheckOutlined, CopyOutlined } from "@ant-design/icons";
import { Button, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { copyText } from "./api-key-reveal-modal";
import "./code-snippet.css";

/** Props of {@link CodeSnippet}. */
export interface CodeSnippetProps {
  code: string;
  /** A short label such as 'curl' or 'TypeScript'. */
  language?: string;
  "data-testid"?: string;
}

/** A read-only block of code with a copy button, for copy-paste examples. */
export function CodeSnippet({ code, language, "data-testid": testId }: CodeSnippetProps) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  useEffect(() => setCopied(false), [code]);
  return (
    <div className="pl-snippet" data-testid={testId ?? "code-snippet"}>
      <div className="pl-snippet__bar">
        <Typography.Text type="secondary" className="pl-snippet__language">
          {language}
        </Typography.Text>
        <Button
          size="small"
          type="text"
          icon={copied ? <CheckOutlined /> : <CopyOutlined />}
          onClick={() => void copyText(code).then(setCopied)}
          data-testid={testId ? `${testId}-copy` : "code-snippet-copy"}
        >
          {copied ? t("common.copied") : t("common.copy")}
        </Button>
      </div>
      <pre className="pl-snippet__code">
        <code data-testid={testId ? `${testId}-code` : "code-snippet-code"}>{code}</code>
      </pre>
    </div>
  );
}
