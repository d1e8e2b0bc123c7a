import { expect, test } from 'vitest';
import { agentLabel, maxAgentLabel } from './agent-label.ts';
import { clientName } from './approval-text.ts';

test('the bar names the agent as it named itself, without the version the audit keeps', () => {
  expect(agentLabel(clientName({ name: 'claude-ai', title: 'Claude Desktop', version: '0.1.0' }))).toBe(
    'Claude Desktop',
  );
  expect(agentLabel('cursor-like 1.0')).toBe('cursor-like');
  expect(agentLabel('Agent v2.3.1-beta.4')).toBe('Agent');
  // A bare number is the name itself, not a version after one.
  expect(agentLabel('42')).toBe('42');
});

test('a client with no name is an outside agent', () => {
  expect(agentLabel(null)).toBe('An outside agent');
  expect(agentLabel(clientName(undefined))).toBe('An outside agent');
  expect(agentLabel('\u202e\u200b\u0007')).toBe('An outside agent');
});

test('controls, bidi and hidden characters are taken out, and the name is one line', () => {
  expect(agentLabel('Evil\u202e tnega\u2066 1.0')).toBe('Evil tnega');
  expect(agentLabel('Line one\nSkimmer: nothing changed\u0000')).toBe('Line one Skimmer: nothing changed');
  expect(agentLabel('Smuggled\u{E0041}\u{E0042} agent')).toBe('Smuggled agent');
});

test('a long name is cut to 40 characters, whole characters, with an ellipsis', () => {
  const label = agentLabel(`${'🤖'.repeat(60)} 1.0`);
  expect(Array.from(label)).toHaveLength(maxAgentLabel);
  expect(label.endsWith('🤖…')).toBe(true);
  expect(agentLabel('a'.repeat(40))).toBe('a'.repeat(40));
});
