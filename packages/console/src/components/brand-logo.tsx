/** Props of {@link BrandLogo}. */
export interface BrandLogoProps {
  /** Hide the word mark (collapsed sider). */
  markOnly?: boolean;
  /** Light text for dark backgrounds. */
  inverted?: boolean;
}

/** Parley's mark and word mark. */
export function BrandLogo({ markOnly = false, inverted = false }: BrandLogoProps) {
  return (
    <span className={inverted ? "pl-logo pl-logo--inverted" : "pl-logo"}>
      <svg className="pl-logo__mark" viewBox="0 0 32 32" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill={inverted ? "#ffffff" : "#4f5bd5"} />
        <path
          d="M9 10.5A3.5 3.5 0 0 1 12.5 7h7A3.5 3.5 0 0 1 23 10.5v5a3.5 3.5 0 0 1-3.5 3.5H15l-4.2 3.6c-.7.6-1.8.1-1.8-.8z"
          fill={inverted ? "#4f5bd5" : "#ffffff"}
        />
        <circle cx="13" cy="13" r="1.4" fill={inverted ? "#ffffff" : "#4f5bd5"} />
        <circle cx="19" cy="13" r="1.4" fill={inverted ? "#ffffff" : "#4f5bd5"} />
      </svg>
      {markOnly ? null : <span className="pl-logo__word">Parley</span>}
    </span>
  );
}
