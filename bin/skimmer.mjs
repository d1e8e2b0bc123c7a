#!/usr/bin/env node
import { cliEntry } from './cli-entry.mjs';
import { ensureNode24 } from './node24.mjs';

ensureNode24(import.meta.url);
const { main } = await import(cliEntry());
process.exitCode = await main(process.argv.slice(2));
