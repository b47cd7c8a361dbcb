// examples/monitoring: the alert rules pass the real promtool's check and their own rule tests, the
// scrape config is valid, and the rules and the Grafana dashboard name only metrics the exporter
// exports.

import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Exporter } from '../../../../src/core/monitor/exporter';
import { HttpClient } from '../../../../src/core/transport/http';
import { REPO_ROOT, promtool } from '../../helpers/prometheus';

const DIR = path.join(REPO_ROOT, 'examples', 'monitoring');

/** The chain_endpoints_* names a text mentions (histogram suffixes folded into their family). */
function metricNames(text: string): Set<string> {
  return new Set([...text.matchAll(/\bchain_endpoints_[a-z_]+/g)].map((m) => m[0].replace(/_(bucket|sum|count)$/, '')));
}

describe('monitor: examples/monitoring', function () {
  this.timeout(600_000); // a first install of promtool downloads Debian's package

  it('the rules pass promtool check rules and promtool test rules', () => {
    const check = promtool(['check', 'rules', 'chain-endpoints.rules.yml'], undefined, DIR);
    assert.equal(check.status, 0, check.out);
    assert.match(check.out, /SUCCESS: 7 rules found/);
    const test = promtool(['test', 'rules', 'chain-endpoints.rules.test.yml'], undefined, DIR);
    assert.equal(test.status, 0, test.out);
    assert.match(test.out, /SUCCESS/);
  });

  it('the scrape config passes promtool check config', () => {
    const check = promtool(['check', 'config', 'prometheus.yml'], undefined, DIR);
    assert.equal(check.status, 0, check.out);
  });

  it('the rules and the dashboard name only metrics the exporter exports', async () => {
    const http = new HttpClient();
    const ex = new Exporter(
      { providers: [], resolved: new Map(), queries: [], queryContext: { secretValue: () => undefined } },
      { http, intervalMs: 1000, timeoutMs: 1000, concurrency: 1 },
    );
    const exported = new Set(ex.registry.all().map((f) => f.name));
    await http.close();
    const rules = readFileSync(path.join(DIR, 'chain-endpoints.rules.yml'), 'utf8');
    const dashboard = readFileSync(path.join(DIR, 'grafana-dashboard.json'), 'utf8');
    const parsed = JSON.parse(dashboard) as { panels: { targets: { expr: string }[] }[] };
    assert.ok(parsed.panels.length >= 8);
    for (const [what, text] of [
      ['rules', rules],
      ['dashboard', dashboard],
    ] as const) {
      const names = metricNames(text);
      assert.ok(names.size >= 6, `${what} names ${[...names].join(', ')}`);
      for (const n of names) assert.ok(exported.has(n), `${what}: ${n} is not exported`);
    }
    // Each alert the issue asks for is there.
    for (const a of [
      'ChainEndpointDown',
      'ChainEndpointLagging',
      'ChainEndpointStale',
      'ChainEndpointWrongChain',
      'ChainEndpointsQueryFailing',
      'ChainEndpointCapabilityLost',
    ])
      assert.match(rules, new RegExp(`alert: ${a}\\n`));
  });
});
