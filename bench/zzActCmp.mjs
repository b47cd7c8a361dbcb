import fs from 'node:fs';
import { runChild } from './lib.mjs';
fs.writeFileSync('/tmp/empty-ext.js', "require('vscode');\nexports.activate = () => ({});\nexports.deactivate = () => undefined;\n");
const out = {};
for (let round = 0; round < 3; round++) {
  for (const [k, bundle] of [['new', '/tmp/newdist/extension.js'], ['old', '/tmp/olddist/extension.js'], ['empty', '/tmp/empty-ext.js']]) {
    for (const mode of ['startup', 'idle']) {
      const r = await runChild('activation.mjs', { launches: 3, observeMs: 500, bundle, ...(mode === 'idle' ? { activateAfterMs: 3000 } : {}) });
      (out[`${k} ${mode}`] ??= []).push(...(r.ownSamples ?? [r.ownMs.median]));
      console.log(k, mode, JSON.stringify({ own: r.ownMs, load: r.loadMs.median, act: r.activateCallMs.median }));
    }
  }
}
console.log(JSON.stringify(out));
