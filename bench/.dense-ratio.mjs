import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { collectCorpusFiles, corpusModules } from '../corpus/files.mjs';
import { RUNS, lintCorpus } from './run.mjs';
const espree = createRequire(import.meta.url)('espree');
function st(f,t){ if(f.endsWith('.mjs')) return 'module'; if (f.endsWith('.cjs')) return 'commonjs'; try { espree.parse(t,{ecmaVersion:'latest',sourceType:'commonjs'}); return 'commonjs'; } catch { return 'module'; } }
const files = collectCorpusFiles().filter((f) => ['.js','.cjs','.mjs'].includes(path.extname(f)));
const corpus = files.map((file) => { const text = fs.readFileSync(file, 'utf8'); return { file, text, sourceType: st(file, text) }; });
const [core, ls] = lintCorpus(RUNS, corpus, { cwd: corpusModules });
console.log(`core ${core.ruleTotal.toFixed(0)} locksmith ${ls.ruleTotal.toFixed(0)} dense_ratio=${(ls.ruleTotal/core.ruleTotal).toFixed(3)} findings=${ls.findings} crashes=${ls.crashes.length}`);
console.log('  ', [...ls.ruleTimes].sort((a,b)=>b[1]-a[1]).slice(0,5).map(([k,v])=>k.replace('locksmith/','')+' '+v.toFixed(0)).join(', '));
