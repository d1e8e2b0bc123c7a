import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.ts';
import { browserOpener } from './open-browser.ts';

function fakeXdgOpen(): string {
  const bin = join(tempDir(), 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'xdg-open'), '#!/bin/sh\nexit 0\n');
  chmodSync(join(bin, 'xdg-open'), 0o755);
  return bin;
}

describe('browserOpener', () => {
  it('has none on Linux without a display, even with xdg-open installed', () => {
    expect(browserOpener({ PATH: fakeXdgOpen() }, 'linux')).toBeNull();
  });

  it('has none with a display but no xdg-open', () => {
    expect(browserOpener({ PATH: tempDir(), DISPLAY: ':0' }, 'linux')).toBeNull();
  });

  it('hands the system only a web address', async () => {
    const open = browserOpener({ PATH: fakeXdgOpen(), WAYLAND_DISPLAY: 'wayland-0' }, 'linux');
    expect(open).not.toBeNull();
    await expect(open?.('file:///etc/passwd')).rejects.toThrow(/only a web address/);
    await expect(open?.('https://login.example.com/authorize?x=1')).resolves.toBeUndefined();
  });
});
