import { MessageOutlined } from "@ant-design/icons";
import { useTranslation } from "react-i18next";

/** Props of {@link WidgetPreview}. */
export interface WidgetPreviewProps {
  name: string;
  welcome: string;
  slogan: string;
  position: "left" | "right";
  primaryColor: string;
  avatarUrl?: string;
}

/** A static mock of the widget: the open panel above its bubble, in the client's look. */
export function WidgetPreview({ name, welcome, slogan, position, primaryColor, avatarUrl }: WidgetPreviewProps) {
  const { t } = useTranslation();
  const color = /^#[0-9a-fA-F]{6}$/.test(primaryColor) ? primaryColor : "#2563eb";
  return (
    <div
      className={`pl-client-preview pl-client-preview--${position}`}
      data-testid="client-preview"
      data-position={position}
      style={{ ["--pl-client-color" as string]: color }}
    >
      <div className="pl-client-preview__panel" role="presentation">
        <div className="pl-client-preview__header" data-testid="client-preview-header">
          {avatarUrl ? (
            <img className="pl-client-preview__avatar" src={avatarUrl} alt="" />
          ) : (
            <span className="pl-client-preview__avatar pl-client-preview__avatar--empty">{(name || "?").slice(0, 1)}</span>
          )}
          <span data-testid="client-preview-name">{name || t("clients.preview.untitled")}</span>
        </div>
        <div className="pl-client-preview__body">
          {welcome && (
            <div className="pl-client-preview__bubble" data-testid="client-preview-welcome">
              {welcome}
            </div>
          )}
          <div className="pl-client-preview__bubble pl-client-preview__bubble--visitor">{t("clients.preview.visitorSample")}</div>
        </div>
        <div className="pl-client-preview__input">{t("clients.preview.inputPlaceholder")}</div>
        {slogan && (
          <div className="pl-client-preview__slogan" data-testid="client-preview-slogan">
            {slogan}
          </div>
        )}
      </div>
      <div className="pl-client-preview__launcher" aria-hidden>
        <MessageOutlined />
      </div>
    </div>
  );
}
