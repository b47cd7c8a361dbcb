// @ts-check
// Case "routes": the module routes' pick (REST: Query a Module Route…). The code is loaded first
// (in the extension it is the requests feature's file, dist/requests-<hash>.js, loaded by its first command); then, cold
// in a fresh process: the generated table (modules.json parsed: the bundle embeds it as a literal,
// parsed when that file loads), the first moduleOperations() (192 operations built) and the
// pick's items; warm: the items built again (every later opening). Baseline: as many plain items
// from the static catalogue's operations (a pick over today's commands, scaled to as many items).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { OUT, childMain, core, require, summary } from './lib.mjs';

childMain(async ({ n }) => {
  const c0 = performance.now();
  const { moduleOperations } = core('chain/catalogue/modules');
  const { routeOperations, OPERATIONS } = core('chain/operations');
  const { routePickItems } = require(path.join(OUT, 'src', 'ui', 'requests', 'restQuery.js'));
  const codeMs = performance.now() - c0;
  const providers = [
    { name: 'A', endpoints: { rest: 'http://a' } },
    { name: 'B', endpoints: { rest: 'http://b' } },
  ];
  const caps = (name) => ({ provider: name, probedAt: 1, notes: [], rest: { modules: { nft: name === 'B', staking: true } } });
  const text = readFileSync(path.join(OUT, 'src', 'core', 'chain', 'catalogue', 'modules.json'), 'utf8');
  const t0 = performance.now();
  JSON.parse(text);
  const parsed = performance.now();
  moduleOperations();
  const built = performance.now();
  const items = routePickItems(routeOperations(), providers, caps);
  const cold = performance.now() - t0;
  const warm = [];
  const base = [];
  for (let i = 0; i < n; i++) {
    let s = performance.now();
    routePickItems(routeOperations(), providers, caps);
    warm.push(performance.now() - s);
    s = performance.now();
    const plain = [];
    while (plain.length < items.length) for (const op of OPERATIONS) plain.push({ label: op.label, description: op.id, detail: op.title, operation: op });
    base.push(performance.now() - s);
  }
  return { routes: items.length, coldMs: cold, parseMs: parsed - t0, buildMs: built - parsed, codeMs, warm: summary(warm), baseline: summary(base) };
});
