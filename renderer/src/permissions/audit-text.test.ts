import { expect, test } from 'vitest';
import { grantScopeText, provenanceText } from './audit-text.ts';

test('a grant says where it applies', () => {
  expect(grantScopeText({ scope: 'always', conversationId: null, conversationTitle: null })).toBe(
    'Always, in every conversation',
  );
  expect(grantScopeText({ scope: 'conversation', conversationId: 4, conversationTitle: 'Tidy up' })).toBe(
    'In “Tidy up”',
  );
  expect(grantScopeText({ scope: 'conversation', conversationId: 4, conversationTitle: null })).toBe(
    'In “conversation 4”',
  );
});

test('provenance lists what came from the email, or nothing', () => {
  expect(provenanceText({ fromUntrusted: [], notNamedByUser: [] })).toBeNull();
  expect(provenanceText({ fromUntrusted: ['to[0]'], notNamedByUser: ['x@example.net'] })).toBe(
    'From the email, not from you: to[0], x@example.net',
  );
});
