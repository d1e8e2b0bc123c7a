import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { projectRoot } from './app.ts';

const config = parse(readFileSync(join(projectRoot, 'electron-builder.yml'), 'utf8'));

describe('electron-builder.yml', () => {
  test('never rebuilds native modules and keeps them out of the asar archive', () => {
    expect(config.npmRebuild).toBe(false);
    expect(config.asarUnpack).toContain('**/*.node');
  });

  test('turns off every fuse the app does not need (checklist 19)', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      grantFileProtocolExtraPrivileges: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      enableCookieEncryption: true,
    });
  });

  test("packs the build's own OAuth client ids when the release machine has them, and git never does", () => {
    expect(config.files).toContain('oauth-clients.json');
    expect(readFileSync(join(projectRoot, '.gitignore'), 'utf8').split('\n')).toContain('oauth-clients.json');
  });

  test('builds AppImage and deb, dmg, and nsis', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.win.target).toEqual(['nsis']);
  });
});
