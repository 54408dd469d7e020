/** Where a template's detail lives in the home shell or in the console. */
export function templatePath(code: string, inConsole: boolean): string {
  return `${inConsole ? "/console" : ""}/template/${encodeURIComponent(code)}`;
}

/** The template list in the home shell or in the console. */
export function templatesPath(inConsole: boolean): string {
  return inConsole ? "/console/templates" : "/templates";
}

/** The sign-in page, returning to `path` afterwards. */
export function loginReturning(path: string): string {
  return `/login?returnTo=${encodeURIComponent(path)}`;
}
