import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.ts';
import { readBuildClients } from './build-clients.ts';

function file(text: string): string {
  const f = join(tempDir(), 'oauth-clients.json');
  writeFileSync(f, text);
  return f;
}

describe("the build's client ids", () => {
  it('are none, quietly, when the build has no file', () => {
    const why: string[] = [];
    expect(readBuildClients(join(tempDir(), 'oauth-clients.json'), (w) => why.push(w))).toEqual({});
    expect(why).toEqual([]);
  });

  it('are read by preset, with a desktop client secret where given', () => {
    const f = file(
      JSON.stringify({
        google: { clientId: 'g-id.apps.googleusercontent.com', clientSecret: 'GOCSPX-not-secret' },
        microsoft: { clientId: '00000000-1111-2222-3333-444444444444' },
      }),
    );
    expect(readBuildClients(f, () => {})).toEqual({
      google: { clientId: 'g-id.apps.googleusercontent.com', clientSecret: 'GOCSPX-not-secret' },
      microsoft: { clientId: '00000000-1111-2222-3333-444444444444' },
    });
  });

  it('say why a file cannot be used, and give none from it', () => {
    for (const text of [
      '{not json',
      '["google"]',
      '{"google": {"clientId": ""}}',
      '{"google": {"id": "x"}}',
    ]) {
      const why: string[] = [];
      expect(readBuildClients(file(text), (w) => why.push(w))).toEqual({});
      expect(why).toHaveLength(1);
      expect(why[0]).toMatch(/is not \{"google"/);
    }
  });

  it('skip a provider Skimmer does not know, keeping the others', () => {
    const why: string[] = [];
    const f = file(JSON.stringify({ hotmail: { clientId: 'x' }, yahoo: { clientId: 'y' } }));
    expect(readBuildClients(f, (w) => why.push(w))).toEqual({ yahoo: { clientId: 'y' } });
    expect(why[0]).toMatch(/"hotmail", which is not a provider Skimmer knows/);
  });
});
