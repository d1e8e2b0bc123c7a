import { expect, test } from 'vitest';
import { goToTargets, goToView } from './go-to.ts';
import { keyCaps, listShortcuts, shortcutSections } from './shortcut-table.ts';

const rows = () => shortcutSections().flatMap((s) => s.rows.map((r) => ({ section: s.title, ...r })));

test('the dialog lists every conversation key the handler acts on, and the issue’s keys among them', () => {
  const listed = new Set(rows().map((r) => r.key));
  for (const row of Object.values(listShortcuts).flat()) expect(listed.has(row.key)).toBe(true);
  for (const key of [
    '?',
    'z',
    '[',
    ']',
    ';',
    ':',
    'u',
    'Escape',
    'x',
    's',
    'e',
    '#',
    'r',
    'a',
    'f',
    'c',
    '/',
    'j',
    'k',
  ])
    expect(listed.has(key)).toBe(true);
});

test('every go-to key is listed, and each goes where the dialog says', () => {
  const goTo = rows().filter((r) => r.section === 'Go to');
  expect(goTo.map((r) => r.key)).toEqual(goToTargets.map((t) => `g ${t.key}`));
  for (const t of goToTargets) {
    expect(goToView(t.key)).toBe(t.view);
    expect(goTo.find((r) => r.key === `g ${t.key}`)?.does).toBe(`Go to ${t.label}`);
  }
});

test('no section is empty, and a key is listed once in its section', () => {
  for (const section of shortcutSections()) {
    expect(section.rows.length).toBeGreaterThan(0);
    const keys = section.rows.map((r) => r.key);
    expect(new Set(keys).size).toBe(keys.length);
  }
});

test('keycaps: a go-to is two keys, a capital is Shift and the letter, Esc and Enter are named', () => {
  expect(keyCaps('g i')).toEqual(['g', 'i']);
  expect(keyCaps('I')).toEqual(['Shift', 'I']);
  expect(keyCaps('Escape')).toEqual(['Esc']);
  expect(keyCaps('Enter')).toEqual(['Enter']);
  expect(keyCaps('#')).toEqual(['#']);
});
