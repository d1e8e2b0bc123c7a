// A string pass over mail HTML before anything parses it. The app's CSP also governs every document the
// renderer parses, DOMParser's (and so DOMPurify's) included, and the srcdoc mail frame inherits it (HTML
// §"policy containers"). Parsing an inline style, an on* handler or a <base> there makes Chromium refuse it
// and log a CSP violation, once per occurrence. So, first:
//   - <style> blocks are lifted out as CSS text, and style="…" is renamed data-mail-style="…"; both are then
//     sanitized as CSS and reach the frame only through CSSOM (mail-frame-document.ts);
//   - on* attributes and <base> tags are dropped (DOMPurify would drop them anyway).
//
// This pass is not a security boundary. Anything it misreads is still parsed and sanitized by DOMPurify, whose
// hooks move any remaining style attribute the same way; lifted text is treated as CSS and sanitized as CSS.
// Pure; tested in prepare-markup.test.ts.

export type PreparedMarkup = { html: string; css: string[] };

// One left-to-right pass, like the HTML tokenizer: a comment or raw-text element that starts first swallows
// any tag inside it, and a <style> block runs to the first </style. Character classes exclude `<` where a tag
// cannot contain one, so a failed match stops at the next tag and the scan stays linear.
const token =
  /<!--[\s\S]*?(?:--!?>|$)|<(script|textarea|title|xmp|noembed|noframes|noscript|iframe|plaintext)\b[\s\S]*?(?:<\/\1\s*>|$)|<style\b[^<>]*>([\s\S]*?)(?:<\/style\s*>|$)|<[a-z][^\s/<>]*(?:"[^"]*"|'[^']*'|[^'"<>])*>/gi;

// Inside a start tag: quoted values are skipped whole; `style` is renamed; on* attributes go, value and all.
const attribute =
  /("[^"]*"|'[^']*')|(^|[\s/])(style|on[a-z0-9_-]*)(?=[\s/>=]|$)(\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]*))?/gi;

export function prepareMarkup(html: string): PreparedMarkup {
  const css: string[] = [];
  const out = html.replace(
    token,
    (match: string, rawText: string | undefined, styleBody: string | undefined) => {
      if (styleBody !== undefined) {
        css.push(styleBody);
        return '';
      }
      if (rawText !== undefined || match.startsWith('<!')) return match;
      const nameEnd = match.search(/[\s/>]/);
      const name = match.slice(0, nameEnd);
      if (name.toLowerCase() === '<base') return '';
      return (
        name +
        match.slice(nameEnd).replace(attribute, (all, quoted, before: string, attr: string, value = '') => {
          if (quoted) return all;
          return attr.toLowerCase() === 'style' ? `${before}data-mail-style${value}` : '';
        })
      );
    },
  );
  return { html: out, css };
}
