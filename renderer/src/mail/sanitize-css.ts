// Mail CSS (style attributes and <style> blocks) is parsed by the browser's own CSS parser, walked rule by rule
// and declaration by declaration, and serialized again. Working on the parsed form rather than on text means
// escapes (`\75rl(…)`), comments and odd spacing are already resolved when a value is judged. DOM-dependent
// (CSSStyleSheet); exercised through Chromium by the end-to-end suite.
import { classifyResource } from './resource-url.ts';

export type CssPolicy = { loadRemote: boolean };
export type CleanCss = { css: string; blockedRemote: number };

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

export function sanitizeStylesheet(text: string, policy: CssPolicy): CleanCss {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(text.replace(importRule, ''));
  const blockedRemote = cleanRules(sheet.cssRules, sheet, policy);
  return { css: [...sheet.cssRules].map((rule) => rule.cssText).join('\n'), blockedRemote };
}

// A style attribute's text is parsed as the body of one rule. Text that closes that rule early can only add
// rules after it, and only the first rule's declarations are read.
let scratch: CSSStyleSheet | null = null;

export function sanitizeDeclarations(text: string, policy: CssPolicy): CleanCss {
  scratch ??= new CSSStyleSheet();
  const sheet = scratch;
  sheet.replaceSync(`x{${text.replace(importRule, '')}\n}`);
  const rule = sheet.cssRules[0];
  if (!(rule instanceof CSSStyleRule) || rule.selectorText !== 'x') return { css: '', blockedRemote: 0 };
  const blockedRemote = cleanDeclarations(rule.style, policy);
  return { css: rule.style.cssText, blockedRemote };
}

type RuleOwner = { deleteRule(index: number): void };

function cleanRules(rules: CSSRuleList, owner: RuleOwner, policy: CssPolicy): number {
  let blocked = 0;
  for (let index = rules.length - 1; index >= 0; index--) {
    const rule = rules[index];
    if (!rule) continue;
    if (!keptRules.has(ruleType(rule))) {
      owner.deleteRule(index);
      continue;
    }
    if ('style' in rule && rule.style instanceof CSSStyleDeclaration)
      blocked += cleanDeclarations(rule.style, policy);
    // Keyframes hold only keyframe rules, which are always kept, so their string-keyed deleteRule is never used.
    if ('cssRules' in rule && rule.cssRules instanceof CSSRuleList) {
      blocked += cleanRules(rule.cssRules, rule as unknown as RuleOwner, policy);
    }
  }
  return blocked;
}

function ruleType(rule: CSSRule): string {
  return Object.prototype.toString.call(rule).slice(8, -1);
}

// Functions that fetch or paint something from elsewhere and have no place in mail.
const foreignFunction = /\b(?:src|image|element|paint|cross-fade)\(/i;
// The serializer always writes url("…") with `"` and `\` escaped (CSSOM §"serialize a URL").
const urlFunction = /url\(\s*"((?:[^"\\]|\\[\s\S])*)"\s*\)/gi;

function cleanDeclarations(style: CSSStyleDeclaration, policy: CssPolicy): number {
  let blocked = 0;
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
    const verdict = judgeValue(style.getPropertyValue(name), policy);
    if (verdict === 'keep') continue;
    style.removeProperty(name);
    if (verdict === 'blocked') blocked++;
  }
  return blocked;
}

type ValueVerdict = 'keep' | 'blocked' | 'dropped';

function judgeValue(value: string, policy: CssPolicy): ValueVerdict {
  if (foreignFunction.test(value)) return 'dropped';
  const references = value.match(/url\(/gi)?.length ?? 0;
  if (references === 0) return 'keep';
  const urls = [...value.matchAll(urlFunction)].map((match) => unescapeCss(match[1] ?? ''));
  // A url( the serializer did not write in its usual form is not something to guess about.
  if (urls.length !== references) return 'dropped';
  let verdict: ValueVerdict = 'keep';
  for (const url of urls) {
    const resource = classifyResource(url);
    if (resource.kind === 'unusable') return 'dropped';
    if (resource.kind === 'remote' && !policy.loadRemote) verdict = 'blocked';
  }
  return verdict;
}

function unescapeCss(text: string): string {
  return text.replace(/\\([0-9a-f]{1,6}\s?|[\s\S])/gi, (_, sequence: string) => {
    if (!/^[0-9a-f]/i.test(sequence)) return sequence;
    const code = Number.parseInt(sequence, 16);
    const valid = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
    return String.fromCodePoint(valid ? code : 0xfffd);
  });
}
