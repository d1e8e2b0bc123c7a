// Text an HTML mail hides from the person but not from a model: white on white, zero sizes, `display:none`.
// Pure; the mail's warnings report it and the assistant's copy is flagged by it (DESIGN §8).

import { detachedString } from '../../shared/detached-string.ts';
import { decodeEntities } from './html-entities.ts';

// htmlparser2 is in node_modules only as a dependency of html-to-text, not of Skimmer itself, so this
// is a small scanner instead. It reads inline styles and attributes only (no <style> rules, no layout):
// enough for the hidden-text tricks seen in the wild (Gmail/Gemini, July 2025), not a renderer.

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);
// Sticky: matches only at lastIndex, so each tag costs its own length, not the rest of the document.
const tagPattern = /<(\/?)([a-zA-Z][^\s/>]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/y;
const drawingAttribute = /style|color|hidden/i;
const RAW_TEXT = new Set(['script', 'style', 'title', 'textarea', 'noscript', 'template']);

type Rgb = readonly [number, number, number];
type Frame = { name: string; hidden: boolean; color: Rgb | 'transparent' | null; background: Rgb };

const NAMED: Record<string, Rgb> = {
  white: [255, 255, 255],
  black: [0, 0, 0],
  snow: [255, 250, 250],
  ivory: [255, 255, 240],
  whitesmoke: [245, 245, 245],
  ghostwhite: [248, 248, 255],
  red: [255, 0, 0],
  blue: [0, 0, 255],
  green: [0, 128, 0],
  gray: [128, 128, 128],
  grey: [128, 128, 128],
};

function parseColor(raw: string): Rgb | 'transparent' | null {
  const value = raw.trim().toLowerCase();
  if (value === 'transparent') return 'transparent';
  const named = NAMED[value];
  if (named) return named;
  const hex = /^#?([0-9a-f]{3,8})$/.exec(value)?.[1];
  if (hex && [3, 4, 6, 8].includes(hex.length)) {
    const full = hex.length <= 4 ? [...hex].map((c) => c + c).join('') : hex;
    if (full.length === 8 && full.slice(6) === '00') return 'transparent';
    return [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16)) as unknown as Rgb;
  }
  const rgb = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/.exec(value);
  if (rgb) {
    if (rgb[4] !== undefined && Number.parseFloat(rgb[4]) === 0) return 'transparent';
    return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])];
  }
  return null;
}

/** The first colour token of a `background` shorthand, or of `background-color`. */
function parseBackground(value: string): Rgb | null {
  for (const token of value.split(/\s+(?![^(]*\))/)) {
    const color = parseColor(token);
    if (color && color !== 'transparent') return color;
  }
  return null;
}

const isZero = (value: string | undefined): boolean =>
  value !== undefined && /^[-+]?0*\.?0*(?:px|pt|em|rem|%|vh|vw|ex|ch)?$/.test(value.trim());

function parseStyle(style: string): Map<string, string> {
  const declarations = new Map<string, string>();
  const uncommented = style.includes('/*') ? style.replace(/\/\*[\s\S]*?\*\//g, '') : style;
  for (const part of uncommented.split(';')) {
    const colon = part.indexOf(':');
    if (colon < 0) continue;
    const property = part.slice(0, colon).trim().toLowerCase();
    const value = part.slice(colon + 1);
    const important = value.includes('!') ? value.replace(/!\s*important/i, '') : value;
    if (property) declarations.set(property, important.trim().toLowerCase());
  }
  return declarations;
}

// The attributes frameFor reads; the others are not parsed further.
const drawingAttributes = new Set(['style', 'color', 'bgcolor', 'hidden']);

function parseAttributes(source: string): Map<string, string> {
  const attributes = new Map<string, string>();
  const attribute = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;
  for (const match of source.matchAll(attribute)) {
    const name = (match[1] ?? '').toLowerCase();
    if (!drawingAttributes.has(name) || attributes.has(name)) continue;
    const value = match[2] ?? match[3] ?? match[4] ?? '';
    attributes.set(name, value.includes('&') ? decodeEntities(value) : value);
  }
  return attributes;
}

const nearlySame = (a: Rgb, b: Rgb): boolean =>
  Math.abs(a[0] - b[0]) <= 16 && Math.abs(a[1] - b[1]) <= 16 && Math.abs(a[2] - b[2]) <= 16;

/** What a tag's own attributes say about how it draws, before its parent's colours are known. */
type Drawing = { background: Rgb | null; color: Rgb | 'transparent' | null; hides: boolean };

function drawingOf(attributes: Map<string, string>): Drawing {
  const style = parseStyle(attributes.get('style') ?? '');
  const background =
    parseBackground(style.get('background-color') ?? style.get('background') ?? '') ??
    parseBackground(attributes.get('bgcolor') ?? '');
  const color = parseColor(style.get('color') ?? attributes.get('color') ?? '');
  const overflowHidden = /hidden|clip/.test(style.get('overflow') ?? '');
  const offscreen = (value: string | undefined) => value !== undefined && Number.parseFloat(value) <= -1000;
  const hides =
    attributes.has('hidden') ||
    style.get('display') === 'none' ||
    /^(?:hidden|collapse)$/.test(style.get('visibility') ?? '') ||
    isZero(style.get('font-size')) ||
    isZero(style.get('opacity')) ||
    (overflowHidden &&
      (isZero(style.get('height')) ||
        isZero(style.get('max-height')) ||
        isZero(style.get('width')) ||
        isZero(style.get('max-width')))) ||
    offscreen(style.get('text-indent')) ||
    offscreen(style.get('left')) ||
    offscreen(style.get('top'));
  return { background, color, hides };
}

// A newsletter repeats the same few attribute lists on most of its tags, and a sender's next newsletter repeats
// them again: reading one was most of hiddenHtmlText's time (issue 18). What a list says is read once and kept
// here (the objects are shared, never changed); emptied when full, and a long list is not kept.
const drawings = new Map<string, Drawing>();
const drawingsSize = 2048;
const drawingKeyLength = 1000;

function frameFor(name: string, attributeSource: string, parent: Frame): Frame {
  let drawing = drawings.get(attributeSource);
  if (!drawing) {
    drawing = drawingOf(parseAttributes(attributeSource));
    if (drawings.size >= drawingsSize) drawings.clear();
    // The list is a piece of the whole HTML: kept as is, it would keep the message alive (detached-string.ts).
    if (attributeSource.length <= drawingKeyLength) drawings.set(detachedString(attributeSource), drawing);
  }
  const background = drawing.background ?? parent.background;
  const color = drawing.color ?? parent.color;
  const hiddenHere =
    drawing.hides || color === 'transparent' || (color !== null && nearlySame(color, background));
  return { name, hidden: parent.hidden || hiddenHere, color, background };
}

/**
 * The text of elements hidden by inline style or the `hidden` attribute, one string per outermost
 * hidden element, whitespace collapsed. The page background is taken to be white, as mail clients draw it.
 */
export function hiddenHtmlText(html: string): string[] {
  const root: Frame = { name: '#root', hidden: false, color: null, background: [255, 255, 255] };
  const stack: Frame[] = [root];
  const found: string[] = [];
  let collecting: string[] | null = null;
  let collectingDepth = -1;
  let at = 0;
  const lower = html.toLowerCase();

  const finish = () => {
    const text = (collecting ?? []).join('').replace(/\s+/g, ' ').trim();
    if (text) found.push(text);
    collecting = null;
    collectingDepth = -1;
  };
  const addText = (raw: string) => {
    if (collecting) collecting.push(decodeEntities(raw));
  };
  // The text between tags, cut out only while it is collected: most of a document's text is not hidden.
  const addTextBetween = (from: number, to: number) => {
    if (collecting) collecting.push(decodeEntities(html.slice(from, to)));
  };

  while (at < html.length) {
    const lt = html.indexOf('<', at);
    if (lt < 0) {
      addTextBetween(at, html.length);
      break;
    }
    addTextBetween(at, lt);
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      at = end < 0 ? html.length : end + 3;
      continue;
    }
    tagPattern.lastIndex = lt;
    const tag = tagPattern.exec(html);
    if (!tag) {
      if (html[lt + 1] === '!' || html[lt + 1] === '?') {
        const end = html.indexOf('>', lt);
        at = end < 0 ? html.length : end + 1;
      } else {
        addText('<');
        at = lt + 1;
      }
      continue;
    }
    at = lt + tag[0].length;
    const closing = tag[1] === '/';
    const name = (tag[2] ?? '').toLowerCase();
    if (closing) {
      const index = stack.findLastIndex((frame) => frame.name === name);
      if (index > 0) {
        stack.length = index;
        if (collecting && stack.length <= collectingDepth) finish();
      }
      continue;
    }
    const parent = stack.at(-1) ?? root;
    const attributeSource = tag[3] ?? '';
    // Only `style`, `color`, `bgcolor` and `hidden` can hide an element (frameFor): without any of them it
    // draws as its parent does, and most tags of a newsletter have none (a fifth of an import's parsing, issue 18).
    const frame = drawingAttribute.test(attributeSource)
      ? frameFor(name, attributeSource, parent)
      : { ...parent, name };
    if (RAW_TEXT.has(name)) {
      // Script and style bodies are not text anyone reads; skip to the matching close tag.
      const end = lower.indexOf(`</${name}`, at);
      const close = end < 0 ? -1 : html.indexOf('>', end);
      at = close < 0 ? html.length : close + 1;
      continue;
    }
    if (VOID.has(name) || attributeSource.trimEnd().endsWith('/')) {
      if (name === 'br') addText(' ');
      continue;
    }
    if (frame.hidden && !parent.hidden) {
      collecting = [];
      collectingDepth = stack.length;
    }
    if (collecting && /^(?:p|div|li|tr|td|h\d|table|blockquote)$/.test(name)) addText(' ');
    stack.push(frame);
  }
  if (collecting) finish();
  return found;
}
