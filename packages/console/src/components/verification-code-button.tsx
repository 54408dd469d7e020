import { Button } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

/** Props of {@link VerificationCodeButton}. */
export interface VerificationCodeButtonProps {
  /**
   * Sends the code. Resolves to the seconds to wait before a resend is allowed, or
   * `undefined` when sending failed (the button is usable again at once).
   */
  onSend: () => Promise<number | undefined>;
  disabled?: boolean;
  "data-testid"?: string;
}

/** "Send code" with the resend countdown the server asks for. */
export function VerificationCodeButton({ onSend, disabled = false, "data-testid": testId }: VerificationCodeButtonProps) {
  const { t } = useTranslation();
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const [secondsLeft, setSecondsLeft] = useState(0);

  useEffect(() => {
    if (secondsLeft <= 0) return undefined;
    const timer = window.setTimeout(() => setSecondsLeft((value) => value - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [secondsLeft]);

  const waiting = secondsLeft > 0;
  return (
    <Button
      className="pl-code-button"
      disabled={disabled || waiting}
      loading={sending}
      data-testid={testId}
      onClick={async () => {
        setSending(true);
        try {
          const wait = await onSend();
          if (wait !== undefined) {
            setSent(true);
            setSecondsLeft(Math.max(0, Math.ceil(wait)));
          }
        } finally {
          setSending(false);
        }
      }}
    >
      {waiting ? t("auth.code.resendIn", { seconds: secondsLeft }) : sent ? t("auth.code.resend") : t("auth.code.send")}
    </Button>
  );
}
