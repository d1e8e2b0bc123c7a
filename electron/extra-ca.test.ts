import { rootCertificates } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { startTestCa } from '../test/support/test-ca.ts';
import { rootsWith } from './extra-ca.ts';

describe('rootsWith', () => {
  it('leaves the system roots alone without an extra CA', () => {
    expect(rootsWith(undefined)).toBeUndefined();
  });

  it('adds the extra CA beside every system root instead of in their place', () => {
    const ca = startTestCa().cert;
    const roots = rootsWith(ca);
    expect(roots).toHaveLength(rootCertificates.length + 1);
    expect(roots?.slice(0, -1)).toEqual([...rootCertificates]);
    expect(roots?.at(-1)).toBe(ca);
  });
});
