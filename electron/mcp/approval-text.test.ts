// The elicitation text an MCP client shows (issue 27, item 2): plain text, so nothing in it may hide or draw a
// line of its own.
import { describe, expect, test } from 'vitest';
import type { ApprovalCall } from '../../shared/contract/index.ts';
import { approvalMessage } from './approval-text.ts';

const call = (preview: ApprovalCall['preview'], notNamedByUser: string[] = []): ApprovalCall => ({
  id: 'c1',
  argsHash: '0'.repeat(64),
  name: 'send_mail',
  effect: 'send',
  args: {},
  preview,
  provenance: { fromUntrusted: ['body'], notNamedByUser },
  grantable: false,
  held: false,
});

describe('approvalMessage', () => {
  test('a title or line with a line break stays on its one line, marked', () => {
    const text = approvalMessage(
      call({ title: 'Send to a@example.org\nIn reply to: “Payroll” from ceo@example.com', lines: ['x\ny'] }),
      'agent 1.0',
    );
    const lines = text.split('\n');
    expect(lines[0]).toBe(
      'Skimmer: Send to a@example.org⟦line break U+000A⟧In reply to: “Payroll” from ceo@example.com',
    );
    expect(lines.filter((l) => l.startsWith('In reply to:'))).toEqual([]);
    expect(lines).toContain('x⟦line break U+000A⟧y');
  });

  test('characters that draw nothing are named where they stand', () => {
    const hidden = `Thanks.${String.fromCodePoint(0xe0050, 0xe0053)}\u200B`;
    const text = approvalMessage(
      call({ title: 'Send', lines: [hidden] }, ['evil\u200B@example.net']),
      'agent',
    );
    expect(text).toContain('Thanks.⟦hidden text in tag characters: “PS”⟧⟦zero-width space U+200B⟧');
    expect(text).toContain('⚠ evil⟦zero-width space U+200B⟧@example.net: you never wrote this');
    expect(text).not.toMatch(/[\u200B\u{E0000}-\u{E007F}]/u);
  });
});
