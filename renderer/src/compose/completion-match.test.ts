import { describe, expect, test } from 'vitest';
import { stillFits } from './completion-match.ts';

const jordan = { name: 'Jordan Ellis', address: 'jordan.ellis@example.com' };
const erin = { name: 'Érin Park', address: 'erin.park@example.org' };

describe('a completion offer still fits what is typed', () => {
  test('when the text starts a word of the name or the address, ignoring case and accents', () => {
    expect(stillFits(jordan, 'e')).toBe(true);
    expect(stillFits(jordan, 'ELL')).toBe(true);
    expect(stillFits(jordan, 'example')).toBe(true);
    expect(stillFits(erin, 'erin')).toBe(true);
    expect(stillFits(erin, 'park@')).toBe(true);
  });

  test('not once the typing has gone past it, or inside a word', () => {
    expect(stillFits(jordan, 'erin@example.org')).toBe(false);
    expect(stillFits(jordan, 'llis')).toBe(false);
    expect(stillFits(jordan, '  ')).toBe(false);
  });
});
