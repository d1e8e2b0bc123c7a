// Mail CSS (style attributes and <style> blocks) is parsed by the browser's own CSS parser, walked rule by rule
// and declaration by declaration, and serialized again. Working on the parsed form rather than on text means
// escapes (`\75rl(…)`), comments and odd spacing are already resolved when a value is judged. DOM-dependent
// (CSSStyleSheet); exercised in Debian's Chromium by test/e2e/mail-sanitizer.test.ts.
//
// Whether or not the user has loaded images, CSS keeps no remote reference (resource-url.ts, styleReference): only
// data:image URLs survive in it, so the result does not depend on that choice.
import { styleReference } from './resource-url.ts';

// Rules that can only hold selectors and declarations. Everything else is dropped: @font-face (fonts are never
// loaded), @import (remote sheets; constructed sheets refuse them anyway), @namespace, @property,
// @counter-style, and any rule type this list does not know yet.
const keptRules = new Set([
  'CSSStyleRule',
  'CSSMediaRule',
  'CSSSupportsRule',
  'CSSContainerRule',
  'CSSLayerBlockRule',
  'CSSLayerStatementRule',
  'CSSKeyframesRule',
  'CSSKeyframeRule',
  'CSSPageRule',
  'CSSMarginRule',
  'CSSNestedDeclarations',
  'CSSStartingStyleRule',
  'CSSScopeRule',
]);

// Constructed sheets drop @import with a console warning; removing them first keeps the console quiet.
const importRule = /@import\b[^;]*;?/gi;

export function sanitizeStylesheet(text: string): string {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(text.replace(importRule, ''));
  cleanRules(sheet.cssRules, sheet);
  return [...sheet.cssRules].map((rule) => rule.cssText).join('\n');
}

// A style attribute's text is parsed as the body of one rule. Text that closes that rule early can only add
// rules after it, and only the first rule's declarations are read.
let scratch: CSSStyleSheet | null = null;

export function sanitizeDeclarations(text: string): string {
  scratch ??= new CSSStyleSheet();
  const sheet = scratch;
  sheet.replaceSync(`x{${text.replace(importRule, '')}\n}`);
  const rule = sheet.cssRules[0];
  if (!(rule instanceof CSSStyleRule) || rule.selectorText !== 'x') return '';
  cleanDeclarations(rule.style);
  return rule.style.cssText;
}

type RuleOwner = { deleteRule(index: number): void };

function cleanRules(rules: CSSRuleList, owner: RuleOwner): void {
  for (let index = rules.length - 1; index >= 0; index--) {
    const rule = rules[index];
    if (!rule) continue;
    if (!keptRules.has(ruleType(rule))) {
      owner.deleteRule(index);
      continue;
    }
    if ('style' in rule && rule.style instanceof CSSStyleDeclaration) cleanDeclarations(rule.style);
    // Keyframes hold only keyframe rules, which are always kept, so their string-keyed deleteRule is never used.
    if ('cssRules' in rule && rule.cssRules instanceof CSSRuleList) {
      cleanRules(rule.cssRules, rule as unknown as RuleOwner);
    }
  }
}

function ruleType(rule: CSSRule): string {
  return Object.prototype.toString.call(rule).slice(8, -1);
}

// Functions that fetch or paint something from elsewhere and have no place in mail. image-set() (and its -webkit-
// spelling) also takes a bare string as a URL, `image-set("https://…" 1x)`, which no url() check would see.
const foreignFunction = /\b(?:src|image|image-set|element|paint|cross-fade)\(/i;
// The serializer always writes url("…") with `"` and `\` escaped (CSSOM §"serialize a URL").
const urlFunction = /url\(\s*"((?:[^"\\]|\\[\s\S])*)"\s*\)/gi;

function cleanDeclarations(style: CSSStyleDeclaration): void {
  for (let index = style.length - 1; index >= 0; index--) {
    const name = style.item(index);
    // Custom properties keep their raw text (escapes included) and are resolved later through var(): they
    // cannot be judged here, so they go.
    if (name.startsWith('--')) {
      style.removeProperty(name);
      continue;
    }
    // SECURITY: fixed, absolute or sticky boxes let mail lay a fake message or button over the real one
    // (UI redress); mail clients commonly drop them (Gmail keeps only static and relative).
    if (name === 'position' && !/^(?:static|relative)$/i.test(style.getPropertyValue(name).trim())) {
      style.removeProperty(name);
      continue;
    }
    if (!keepsValue(style.getPropertyValue(name))) style.removeProperty(name);
  }
}

// A value stays only if every url() in it is one CSS may keep (data:image; never remote, see styleReference).
function keepsValue(value: string): boolean {
  if (foreignFunction.test(value)) return false;
  const references = value.match(/url\(/gi)?.length ?? 0;
  if (references === 0) return true;
  const urls = [...value.matchAll(urlFunction)].map((match) => unescapeCss(match[1] ?? ''));
  // A url( the serializer did not write in its usual form is not something to guess about.
  if (urls.length !== references) return false;
  return urls.every((url) => styleReference(url) !== null);
}

function unescapeCss(text: string): string {
  return text.replace(/\\([0-9a-f]{1,6}\s?|[\s\S])/gi, (_, sequence: string) => {
    if (!/^[0-9a-f]/i.test(sequence)) return sequence;
    const code = Number.parseInt(sequence, 16);
    const valid = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
    return String.fromCodePoint(valid ? code : 0xfffd);
  });
}
