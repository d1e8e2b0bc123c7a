import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { projectRoot } from './app.ts';
import { dataFolderName, defaultDataDir } from './data-dir.ts';

describe('the data folder of the app and the CLI', () => {
  test.each([
    ['linux', {}, '/home/u', '/home/u/.config/Skimmer'],
    ['linux', { XDG_CONFIG_HOME: '/x' }, '/home/u', '/x/Skimmer'],
    ['freebsd', {}, '/home/u', '/home/u/.config/Skimmer'],
    ['darwin', {}, '/Users/u', '/Users/u/Library/Application Support/Skimmer'],
    ['darwin', { XDG_CONFIG_HOME: '/x' }, '/Users/u', '/Users/u/Library/Application Support/Skimmer'],
    ['win32', { APPDATA: '/c/Users/u/AppData/Roaming' }, '/c/Users/u', '/c/Users/u/AppData/Roaming/Skimmer'],
    ['win32', {}, '/c/Users/u', '/c/Users/u/AppData/Roaming/Skimmer'],
    ['linux', { SKIMMER_DATA_DIR: '/d' }, '/home/u', '/d'],
    ['darwin', { SKIMMER_DATA_DIR: '/d' }, '/Users/u', '/d'],
    ['win32', { SKIMMER_DATA_DIR: '/d', APPDATA: '/a' }, '/c/Users/u', '/d'],
  ] as const)('on %s with %o under %s is %s', (platform, env, home, expected) => {
    expect(defaultDataDir(env, platform, home)).toBe(expected);
  });

  // Run from a checkout, Electron names its own folders after package.json's productName; packaged, after
  // electron-builder's. Both say Skimmer, the folder this module picks.
  test('carries the product name that package.json and electron-builder.yml give the app', () => {
    const pkg = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8'));
    const builder = parse(readFileSync(join(projectRoot, 'electron-builder.yml'), 'utf8'));
    expect(pkg.productName).toBe(dataFolderName);
    expect(builder.productName).toBe(dataFolderName);
    expect(basename(defaultDataDir({}, 'linux', '/home/u'))).toBe(pkg.productName);
  });
});
