// Reads a V8 .cpuprofile and prints where the time went: self time by function and by package (the
// node_modules folder, "skimmer" for our own files, "node:" for Node internals, and V8's pseudo-frames
// such as (garbage collector) and (program)), plus inclusive time for a few functions worth naming.
//
//   node bench/cpuprofile-top.ts FILE.cpuprofile [--top 25]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

type Frame = { functionName: string; url: string; lineNumber: number };
type ProfileNode = { id: number; callFrame: Frame; children?: number[] };
type Profile = {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
};

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '25' }, inclusive: { type: 'string', multiple: true } },
});
const file = positionals[0];
if (!file) throw new Error('usage: node bench/cpuprofile-top.ts FILE.cpuprofile');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;

const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => {
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

function pkg(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  if (url.startsWith('node:')) return 'node:';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1] as string;
  return 'skimmer';
}
function label(f: Frame): string {
  const where = f.url
    ? `${f.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/main\//, '')}:${f.lineNumber + 1}`
    : '';
  return `${f.functionName || '(anonymous)'} ${where}`.trim();
}

const byFunction = new Map<string, number>();
const byPackage = new Map<string, number>();
for (const [id, us] of selfUs) {
  const f = (byId.get(id) as ProfileNode).callFrame;
  byFunction.set(label(f), (byFunction.get(label(f)) ?? 0) + us);
  byPackage.set(pkg(f.url, f.functionName), (byPackage.get(pkg(f.url, f.functionName)) ?? 0) + us);
}

// Inclusive time: a sample counts once for every distinct named function on its stack.
const inclusiveNames = values.inclusive ?? [
  'store',
  'assign',
  'sqliteTransaction',
  'splitMbox',
  'parseMessage',
  'htmlText',
  'digest',
];
const inclusive = new Map<string, number>();
for (const [id, us] of selfUs) {
  const seen = new Set<string>();
  for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
    const name = (byId.get(n) as ProfileNode).callFrame.functionName;
    if (inclusiveNames.includes(name) && !seen.has(name)) {
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + us);
    }
  }
}

const pct = (us: number) =>
  `${((100 * us) / total).toFixed(1).padStart(5)} %  ${(us / 1e6).toFixed(2).padStart(6)} s`;
console.log(`Profile ${file}: ${(total / 1e6).toFixed(1)} s sampled`);
console.log('\nSelf time by package:');
for (const [k, us] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 15))
  console.log(`  ${pct(us)}  ${k}`);
console.log(`\nSelf time, top ${values.top} functions:`);
for (const [k, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) {
  console.log(`  ${pct(us)}  ${k}`);
}
console.log('\nInclusive time (functions of that name anywhere on the stack):');
console.log(
  '  (mailparser works in stream callbacks that start from the event loop, not under parseMessage:',
);
console.log('   its cost is the package rows above, not the parseMessage row below.)');
for (const [k, us] of [...inclusive].sort((a, b) => b[1] - a[1])) console.log(`  ${pct(us)}  ${k}`);
