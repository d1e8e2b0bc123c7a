#!/usr/bin/env node
import nodeModule from 'node:module';
import { cliEntry } from './cli-entry.mjs';
import { ensureNode24 } from './node24.mjs';

ensureNode24(import.meta.url);
// V8 keeps the code it compiled for each module on disk (Node's own cache, in the temporary folder), so a
// start after the first compiles nothing it compiled before (issue 18: the command line's start). Read from
// the module's default export: a Node 20 that started this file links it before re-running under Node 24.
nodeModule.enableCompileCache();
const { main } = await import(cliEntry());
process.exitCode = await main(process.argv.slice(2));
