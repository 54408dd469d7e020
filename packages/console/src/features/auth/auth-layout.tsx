import { CheckCircleFilled } from "@ant-design/icons";
import { Flex, Typography } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { PATHS } from "../../lib/paths";
import { BrandLogo } from "../../components/brand-logo";
import { LanguageSwitch } from "../../components/language-switch";

/** Props of {@link AuthLayout}. */
export interface AuthLayoutProps {
  title: ReactNode;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}

/** The two-panel frame of the sign-in, registration and password pages. */
export function AuthLayout({ title, subtitle, children, footer }: AuthLayoutProps) {
  const { t } = useTranslation();
  const points = [t("auth.brand.point1"), t("auth.brand.point2"), t("auth.brand.point3")];
  return (
    <div className="pl-auth">
      <aside className="pl-auth__brand">
        <Link to={PATHS.home} aria-label={t("nav.home")}>
          <BrandLogo inverted />
        </Link>
        <div className="pl-auth__pitch">
          <h1 className="pl-auth__headline">{t("auth.brand.headline")}</h1>
          <p className="pl-auth__lead">{t("auth.brand.lead")}</p>
          <ul className="pl-auth__points">
            {points.map((point) => (
              <li key={point}>
                <CheckCircleFilled /> {point}
              </li>
            ))}
          </ul>
        </div>
        <p className="pl-auth__legal">{t("auth.brand.legal", { year: new Date().getFullYear() })}</p>
      </aside>
      <main className="pl-auth__main">
        <Flex justify="flex-end" className="pl-auth__toolbar">
          <LanguageSwitch />
        </Flex>
        <div className="pl-auth__panel">
          <div className="pl-auth__mobile-logo">
            <BrandLogo />
          </div>
          <Typography.Title level={2} className="pl-auth__title">
            {title}
          </Typography.Title>
          {subtitle ? <Typography.Paragraph type="secondary">{subtitle}</Typography.Paragraph> : null}
          {children}
          {footer ? <div className="pl-auth__footer">{footer}</div> : null}
        </div>
      </main>
    </div>
  );
}
