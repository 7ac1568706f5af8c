// What grew between two V8 heap snapshots, by node type and name (a constructor, a closure's
// function name, "(system)" ...): count and self size, per stream when given --per N. Used on the
// snapshots bench/idle-streams.ts writes with --snapshots, to see where a stream's memory goes.
//
//   node --import ./test/stdio/swc-register.mjs bench/idle-streams/snapshot-diff.ts before.heapsnapshot
//        open.heapsnapshot [--per 1000] [--top 40]
import { readFileSync } from 'node:fs';
import { option } from '../cli-option.js';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

type Totals = Map<string, { count: number; bytes: number }>;

function totals(file: string): Totals {
  const heap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const fields = heap.snapshot.meta.node_fields;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const types = heap.snapshot.meta.node_types[0];
  const byName: Totals = new Map();
  for (let i = 0; i < heap.nodes.length; i += fields.length) {
    const type = types[heap.nodes[i + typeAt!]!]!;
    const name = heap.strings[heap.nodes[i + nameAt!]!]!;
    // Strings are keyed by type alone: their text is the name.
    const key =
      type === 'string' || type === 'concatenated string' || type === 'sliced string'
        ? type
        : `${type} ${name.slice(0, 60)}`;
    const entry = byName.get(key) ?? { count: 0, bytes: 0 };
    entry.count++;
    entry.bytes += heap.nodes[i + sizeAt!]!;
    byName.set(key, entry);
  }
  return byName;
}

const [beforeFile, afterFile] = process.argv.slice(2).filter((a) => a.endsWith('.heapsnapshot'));
if (!beforeFile || !afterFile)
  throw new Error('usage: snapshot-diff.ts before.heapsnapshot after.heapsnapshot [--per N]');
const per = option('per', 1);
const top = option('top', 40);
const before = totals(beforeFile);
const after = totals(afterFile);
const grown = [...after].map(([key, a]) => {
  const b = before.get(key) ?? { count: 0, bytes: 0 };
  return { key, count: (a.count - b.count) / per, bytes: (a.bytes - b.bytes) / per };
});
grown.sort((x, y) => y.bytes - x.bytes);
const total = grown.reduce((sum, g) => sum + g.bytes, 0);
console.log(`total self size grown: ${(total / 1024).toFixed(2)} KB${per > 1 ? ' per stream' : ''}`);
console.log('| bytes | count | type and name |\n| --- | --- | --- |');
for (const g of grown.slice(0, top)) console.log(`| ${g.bytes.toFixed(0)} | ${g.count.toFixed(2)} | ${g.key} |`);
