import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { Session } from 'node:inspector/promises';
import { collectCorpusFiles, corpusModules } from '../corpus/files.mjs';
import { RUNS, lintCorpus } from './run.mjs';
const espree = createRequire(import.meta.url)('espree');
function st(f,t){ if(f.endsWith('.mjs')) return 'module'; if (f.endsWith('.cjs')) return 'commonjs'; try { espree.parse(t,{ecmaVersion:'latest',sourceType:'commonjs'}); return 'commonjs'; } catch { return 'module'; } }
const files = collectCorpusFiles().filter((f) => ['.js','.cjs','.mjs'].includes(path.extname(f)));
const corpus = files.map((file) => { const text = fs.readFileSync(file, 'utf8'); return { file, text, sourceType: st(file, text) }; });
const runs = RUNS.filter((r) => r.name === 'locksmith');
const session = new Session(); session.connect();
for (let i = 0; i < 3; i++) {
  if (i === 2) { await session.post('Profiler.enable'); await session.post('Profiler.start'); }
  const [t] = lintCorpus(runs, corpus, { cwd: corpusModules, warmUpFiles: 0 });
  console.log('pass', i, t.ruleTotal.toFixed(0), 'ms', [...t.ruleTimes].sort((a,b)=>b[1]-a[1]).slice(0,4).map(([k,v])=>k.replace('locksmith/','')+' '+v.toFixed(0)).join(', '));
}
const { profile } = await session.post('Profiler.stop');
fs.mkdirSync('/tmp/prof', { recursive: true });
fs.writeFileSync('/tmp/prof/warm.cpuprofile', JSON.stringify(profile));
