#!/usr/bin/env node
import { ensureNode24 } from './node24.mjs';

ensureNode24(import.meta.url);
const { main } = await import('../electron/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
