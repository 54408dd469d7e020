/**
 * Splits an opening introduction into its text and guiding questions: questions are written in
 * square brackets (spec §3), e.g. "Hi! [What can you do?] [Pricing]". Brackets inside code
 * spans and Markdown links (`[text](url)`) are left alone.
 */
export function parseOpening(markdown: string): { text: string; guidingQuestions: string[] } {
  const guidingQuestions: string[] = [];
  const text = markdown
    .replace(/`[^`]*`|\[([^\]\n]{1,200})\](?!\()/g, (match, question: string | undefined) => {
      if (question === undefined) return match;
      const trimmed = question.trim();
      if (trimmed) guidingQuestions.push(trimmed);
      return "";
    })
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return { text, guidingQuestions };
}
