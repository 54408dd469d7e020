import { App, Button, message as staticMessage, Modal, notification as staticNotification } from "antd";
import { useEffect, type ReactNode } from "react";
import { i18n } from "../i18n";
import { sanitizeHtml } from "./sanitize-html";

type AppApi = ReturnType<typeof App.useApp>;

let api: Pick<AppApi, "message" | "modal" | "notification"> = {
  message: staticMessage,
  modal: Modal,
  notification: staticNotification,
} as unknown as AppApi;

/**
 * Hands antd's context-aware message, modal and notification to code outside React (the
 * request layer), so toasts follow the current theme and locale. Render once inside `<App>`.
 */
export function FeedbackBridge(): null {
  const current = App.useApp();
  useEffect(() => {
    api = current;
  }, [current]);
  return null;
}

/** User-facing feedback the request layer and pages share. */
export const feedback = {
  error(text: ReactNode): void {
    void api.message.error(text);
  },
  warning(text: ReactNode): void {
    void api.message.warning(text);
  },
  success(text: ReactNode): void {
    void api.message.success(text);
  },
  /** A server message meant as HTML (code 440), shown after sanitizing. */
  htmlError(html: string): void {
    api.modal.error({
      title: i18n.t("errors.noticeTitle"),
      // Only the sanitizer's output reaches the DOM (as in components/safe-html, which sits above this layer).
      content: (
        <div
          data-testid="html-message"
          ref={(element) => {
            if (element) element.innerHTML = sanitizeHtml(html);
          }}
        />
      ),
      okText: i18n.t("common.iKnow"),
    });
  },
  /** The network-problem warning with its Refresh button. */
  networkWarning(): void {
    const key = "network-warning";
    api.notification.warning({
      key,
      title: i18n.t("errors.networkTitle"),
      description: i18n.t("errors.networkDescription"),
      actions: (
        <Button type="primary" size="small" onClick={() => window.location.reload()} data-testid="network-refresh">
          {i18n.t("common.refresh")}
        </Button>
      ),
    });
  },
};
