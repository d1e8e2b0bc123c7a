import { describe, expect, test } from 'vitest';
import { forwardedLine } from '../../../shared/compose/forward.ts';
import { swapSignature } from './signature-swap.ts';

const quote = 'On Tue, 3 Mar 2026 at 14:05, Priya Raman wrote:\n> The numbers are in.\n';

describe('the signature follows the From', () => {
  test('swaps an unchanged signature block for the new address’s', () => {
    const body = `Thanks!\n\n-- \nAnn, at work\n\n${quote}`;
    expect(swapSignature(body, 'Ann, at work', 'Ann, at home')).toBe(
      `Thanks!\n\n-- \nAnn, at home\n\n${quote}`,
    );
  });

  test('leaves a signature the user has edited', () => {
    const body = `Thanks!\n\n-- \nAnn, at work (on leave)\n\n${quote}`;
    expect(swapSignature(body, 'Ann, at work', 'Ann, at home')).toBe(body);
  });

  test('takes the block out when the new address has no signature', () => {
    expect(swapSignature(`\n\n-- \nAnn\n\n${quote}`, 'Ann', null)).toBe(`\n\n${quote}`);
  });

  test('puts a new block above the quote of a reply', () => {
    expect(swapSignature(`Yes.\n\n${quote}`, null, 'Ann')).toBe(`Yes.\n\n-- \nAnn\n\n${quote}`);
  });

  test('puts a new block above a forwarded message', () => {
    const forwarded = `${forwardedLine}\nFrom: Priya <priya@example.com>\n`;
    expect(swapSignature(`\n\n${forwarded}`, null, 'Ann')).toBe(`\n\n-- \nAnn\n\n${forwarded}`);
  });

  test('puts a new block at the end of a new mail', () => {
    expect(swapSignature('See you at ten.\n', null, 'Ann')).toBe('See you at ten.\n\n-- \nAnn\n\n');
  });

  test('does nothing when both addresses sign alike', () => {
    expect(swapSignature('Hi\n\n-- \nAnn\n\n', 'Ann', 'Ann\n')).toBe('Hi\n\n-- \nAnn\n\n');
  });
});
