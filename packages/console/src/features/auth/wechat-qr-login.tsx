import { Button, Flex, Form, QRCode, Typography } from "antd";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { endpoints } from "../../lib/api/endpoints";
import type { Session, WechatQr } from "../../lib/api/types";
import { ContactFields, type ContactValues } from "./contact-fields";

/** How often the QR state is asked for. */
const POLL_INTERVAL_MS = 2000;

type Stage = "loading" | "scanning" | "expired" | "bind" | "failed";

/** Props of {@link WechatQrLogin}. */
export interface WechatQrLoginProps {
  phoneEnabled: boolean;
  onSignedIn: (session: Session) => void;
}

/**
 * WeChat QR sign-in: shows the QR, asks its state every 2 s, exchanges the login code once
 * confirmed, and asks for an e-mail or phone to bind when WeChat is not linked to an account.
 */
export function WechatQrLogin({ phoneEnabled, onSignedIn }: WechatQrLoginProps) {
  const { t } = useTranslation();
  const [qr, setQr] = useState<WechatQr>();
  const [stage, setStage] = useState<Stage>("loading");
  const [binding, setBinding] = useState(false);
  const [form] = Form.useForm<ContactValues>();
  const alive = useRef(true);
  // The parent's callback changes identity on every render; polling must not restart for it.
  const signedIn = useRef(onSignedIn);
  signedIn.current = onSignedIn;

  const start = useCallback(async () => {
    setStage("loading");
    const result = await endpoints.auth.wechatQr({ silent: true });
    if (!alive.current) return;
    if (!result.ok) {
      setStage("failed");
      return;
    }
    setQr(result.data);
    setStage("scanning");
  }, []);

  useEffect(() => {
    alive.current = true;
    void start();
    return () => {
      alive.current = false;
    };
  }, [start]);

  useEffect(() => {
    if (stage !== "scanning" || !qr) return undefined;
    const controller = new AbortController();
    const timer = window.setInterval(async () => {
      if (Date.parse(qr.expiresAt) < Date.now()) {
        setStage("expired");
        return;
      }
      const status = await endpoints.auth.wechatQrStatus(qr.state, { silent: true, signal: controller.signal, dedupeKey: "wechat-qr" });
      if (!status.ok || !alive.current) return;
      if (status.data.status === "expired") setStage("expired");
      else if (status.data.status === "bind_required") setStage("bind");
      else if (status.data.status === "confirmed" && status.data.loginCode) {
        window.clearInterval(timer);
        const session = await endpoints.auth.exchange({ loginCode: status.data.loginCode });
        if (session.ok) signedIn.current(session.data);
        else setStage("failed");
      }
    }, POLL_INTERVAL_MS);
    return () => {
      window.clearInterval(timer);
      controller.abort();
    };
  }, [stage, qr]);

  if (stage === "bind" && qr) {
    return (
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={async (values) => {
          setBinding(true);
          try {
            const result = await endpoints.auth.wechatBind({
              state: qr.state,
              channel: values.channel,
              target: values.target.trim(),
              code: values.code.trim(),
            });
            if (result.ok) onSignedIn(result.data);
          } finally {
            setBinding(false);
          }
        }}
      >
        <Typography.Paragraph type="secondary">{t("auth.wechat.bindHint")}</Typography.Paragraph>
        <ContactFields form={form} purpose="bind" phoneEnabled={phoneEnabled} testIdPrefix="wechat-bind" />
        <Button type="primary" htmlType="submit" size="large" block loading={binding} data-testid="wechat-bind-submit">
          {t("auth.wechat.bindSubmit")}
        </Button>
      </Form>
    );
  }

  return (
    <Flex vertical align="center" gap={16} className="pl-wechat" data-testid="login-wechat-qr">
      <QRCode
        value={qr?.qrUrl ?? "about:blank"}
        size={196}
        status={stage === "loading" ? "loading" : stage === "scanning" ? "active" : "expired"}
        onRefresh={() => void start()}
        statusRender={
          stage === "failed"
            ? () => (
                <Flex vertical align="center" gap={8}>
                  <Typography.Text>{t("auth.wechat.failed")}</Typography.Text>
                  <Button size="small" onClick={() => void start()}>
                    {t("common.retry")}
                  </Button>
                </Flex>
              )
            : undefined
        }
      />
      <Typography.Text type="secondary">{t("auth.wechat.scanHint")}</Typography.Text>
    </Flex>
  );
}
