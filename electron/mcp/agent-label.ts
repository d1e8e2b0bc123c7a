// How the Undo bar names an outside agent ("Claude Desktop: Archived 1 message", issue 29 §7): the name the
// client gave in its MCP initialize, as the audit recorded it (approval-text.ts `clientName`: its title or
// name, then its version). Pure.
//
// SECURITY: the name is the client's own words, and a client an email took over could pick one to pass for
// Skimmer or for the user ("You", "Skimmer: nothing changed"), or to turn the bar's text around with bidi
// controls. So: control, format (bidi, zero-width) and other hidden characters are taken out, whitespace is one
// space, and it is cut to 40 characters; the renderer shows it as text, set apart from Skimmer's own words.
import { stripHiddenText } from '../text/hidden-characters.ts';

export const maxAgentLabel = 40;

// The version clientName put after the name ("1.2", "0.3.0-beta.1", "v2").
const trailingVersion = /\s+v?\d+(\.\d+)*([-+][0-9A-Za-z.-]+)?$/;
const controls = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\u2028\u2029]/gu;

/** The bar's name for the agent whose audit entry says `client`; a generic name when nothing is left of it. */
export function agentLabel(client: string | null): string {
  const plain = stripHiddenText(client ?? '')
    .text.replace(/\s+/g, ' ')
    .replace(controls, '')
    .replace(/ {2,}/g, ' ')
    .trim();
  const name = plain.replace(trailingVersion, '').trim() || plain;
  if (name === '' || name === 'an unnamed client') return 'An outside agent';
  const chars = Array.from(name);
  return chars.length <= maxAgentLabel
    ? name
    : `${chars
        .slice(0, maxAgentLabel - 1)
        .join('')
        .trimEnd()}…`;
}
