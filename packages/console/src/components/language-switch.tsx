import { GlobalOutlined } from "@ant-design/icons";
import { Button, Dropdown } from "antd";
import { useTranslation } from "react-i18next";
import { changeLanguage, LANGUAGES, normaliseLanguage, type Language } from "../i18n";

/** Each language named in itself, so it can be found whatever the current language is. */
const LANGUAGE_NAMES: Record<Language, string> = { en: "English", "zh-CN": "简体中文" };

/** Props of {@link LanguageSwitch}. */
export interface LanguageSwitchProps {
  /** Called after the interface has switched, e.g. to save the choice to the account. */
  onChange?: (language: Language) => void;
  /** Show only the globe icon. */
  iconOnly?: boolean;
}

/** The language menu of the top bar: switches i18n, antd's locale and the stored 'language'. */
export function LanguageSwitch({ onChange, iconOnly = false }: LanguageSwitchProps) {
  const { t, i18n } = useTranslation();
  const current = normaliseLanguage(i18n.language);
  return (
    <Dropdown
      trigger={["click"]}
      menu={{
        selectable: true,
        selectedKeys: [current],
        items: LANGUAGES.map((language) => ({
          key: language,
          label: <span data-testid={`language-option-${language}`}>{LANGUAGE_NAMES[language]}</span>,
        })),
        onClick: ({ key }) => {
          const language = normaliseLanguage(key);
          void changeLanguage(language).then(() => onChange?.(language));
        },
      }}
    >
      <Button type="text" icon={<GlobalOutlined />} aria-label={t("language.label")} data-testid="language-switch">
        {iconOnly ? null : LANGUAGE_NAMES[current]}
      </Button>
    </Dropdown>
  );
}
