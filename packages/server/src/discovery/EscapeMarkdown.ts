/**
 * Seller text is data, never structure: Markdown metacharacters are escaped,
 * and so are `:` and `www.`, which would otherwise make bare addresses links,
 * so a name or description cannot add links, images, headings, emphasis or
 * HTML to what agents read (control characters are refused at registration).
 * Seller text is never used as link text, whose parsing differs between
 * renderers.
 */
export const escapeMarkdown = (text: string) =>
  text
    .replace(/[\\`*_[\]<>|:]/g, (c) => `\\${c}`)
    .replace(/^[#+\->!=~]/, (c) => `\\${c}`)
    .replace(/www\./gi, (w) => `${w.slice(0, 3)}\\.`)
