// The exposition format of the exporter's registry: HELP and TYPE per family, label values escaped,
// histograms with cumulative buckets, +Inf and the sum and count, special values spelled as
// Prometheus reads them; and the real promtool checks the text.

import * as assert from 'node:assert/strict';
import { Registry, escapeHelp, escapeLabelValue, formatValue, wellFormed } from '../../../../src/core/monitor/metrics';
import { HOSTILE_VALUES, duplicateSeries, promtoolCheckMetrics } from '../../helpers/prometheus';

describe('monitor: metric registry and exposition', () => {
  it('escapes label values and HELP text as the text format says', () => {
    assert.equal(escapeLabelValue('a\\b"c\nd'), 'a\\\\b\\"c\\nd');
    assert.equal(escapeHelp('x\\y\nz "q"'), 'x\\\\y\\nz "q"');
    const r = new Registry();
    r.family('t_up', 'Help with a\nline feed and \\.', 'gauge', ['provider']).set({ provider: 'evil"}\nname\\' }, 1);
    const text = r.render();
    assert.equal(text, '# HELP t_up Help with a\\nline feed and \\\\.\n# TYPE t_up gauge\nt_up{provider="evil\\"}\\nname\\\\"} 1\n');
    // One sample per line: the line feed in the value never starts a line.
    assert.equal(text.split('\n').filter((l) => l.startsWith('name')).length, 0);
  });

  it('writes any label value as one valid line: lone surrogates as U+FFFD, and values that read the same are one series', function () {
    this.timeout(600_000); // a first install of promtool downloads Debian's package
    assert.equal(wellFormed('a\uD800b\uDC00c\uD83D\uDE00'), 'a\uFFFDb\uFFFDc\uD83D\uDE00');
    const r = new Registry();
    const up = r.family('t_up', 'Up.', 'gauge', ['network', 'provider']);
    const h = r.family('t_seconds', 'Durations.', 'histogram', ['provider'], [0.1]);
    for (const [i, v] of HOSTILE_VALUES.entries()) {
      up.set({ network: v, provider: v }, i);
      h.observe({ provider: v }, 0.05);
    }
    // The two lone surrogates read the same once encoded ("lone\uFFFD"): one series each family, not two lines.
    assert.equal(up.size, HOSTILE_VALUES.length - 1);
    assert.equal(h.size, HOSTILE_VALUES.length - 1);
    // A NUL no longer joins values into one key: ("a\0b", "c") and ("a", "b\0c") are two series.
    up.set({ network: 'a\u0000b', provider: 'c' }, 1);
    up.set({ network: 'a', provider: 'b\u0000c' }, 2);
    assert.equal(up.size, HOSTILE_VALUES.length + 1);
    const text = r.render();
    assert.deepEqual(duplicateSeries(text), []);
    assert.ok(!/[\uD800-\uDFFF]/.test(text.replace(/\uD83D\uDE00/g, '')), 'no lone surrogate left');
    // Every sample is one line: a value's line feed never starts one.
    for (const line of text.split('\n')) assert.ok(line === '' || /^(# (HELP|TYPE) )?t_(up|seconds)/.test(line), line.slice(0, 80));
    const checked = promtoolCheckMetrics(text);
    assert.equal(checked.status, 0, checked.out);
    up.remove({ network: 'lone\uDC00', provider: 'lone\uD800' });
    assert.ok(!r.render().includes('t_up{network="lone\uFFFD"'));
  });

  it('writes histograms with cumulative buckets, +Inf, _sum and _count', () => {
    const r = new Registry();
    const h = r.family('t_seconds', 'Durations.', 'histogram', ['m'], [0.1, 1]);
    h.observe({ m: 'a' }, 0.05);
    h.observe({ m: 'a' }, 0.5);
    h.observe({ m: 'a' }, 5);
    const text = r.render();
    assert.match(text, /t_seconds_bucket\{m="a",le="0.1"\} 1\n/);
    assert.match(text, /t_seconds_bucket\{m="a",le="1"\} 2\n/);
    assert.match(text, /t_seconds_bucket\{m="a",le="\+Inf"\} 3\n/);
    assert.match(text, /t_seconds_sum\{m="a"\} 5.55\n/);
    assert.match(text, /t_seconds_count\{m="a"\} 3\n/);
  });

  it('spells special values as Prometheus reads them and refuses bad names', () => {
    assert.equal(formatValue(NaN), 'NaN');
    assert.equal(formatValue(Infinity), '+Inf');
    assert.equal(formatValue(-Infinity), '-Inf');
    assert.equal(formatValue(1e21), '1e+21');
    const r = new Registry();
    assert.throws(() => r.family('bad-name', 'x', 'gauge', []), /bad metric name/);
    assert.throws(() => r.family('ok', 'x', 'gauge', ['le']), /bad label name/);
    assert.throws(() => r.family('ok2', 'x', 'gauge', ['__x']), /bad label name/);
    r.family('dup', 'x', 'gauge', []);
    assert.throws(() => r.family('dup', 'x', 'gauge', []), /declared twice/);
  });

  it('retain and remove keep the series bounded by what is configured', () => {
    const r = new Registry();
    const g = r.family('t', 'x', 'gauge', ['provider']);
    for (let i = 0; i < 100; i++) g.set({ provider: `p${i % 5}` }, i);
    assert.equal(g.size, 5);
    g.retain((l) => l.provider !== 'p0');
    g.remove({ provider: 'p1' });
    assert.equal(g.size, 3);
  });

  it('passes the real promtool check metrics', function () {
    this.timeout(600_000); // a first install downloads Debian's package
    const r = new Registry();
    r.family('chain_endpoints_t_up', 'Up.', 'gauge', ['provider']).set({ provider: 'a "quoted"\\name\n' }, 1);
    const h = r.family('chain_endpoints_t_seconds', 'Durations.', 'histogram', ['m'], [0.1, 1]);
    h.observe({ m: 'x' }, 0.2);
    r.family('chain_endpoints_t_total', 'Count.', 'counter', ['kind']).inc({ kind: 'timeout' });
    const checked = promtoolCheckMetrics(r.render());
    assert.equal(checked.status, 0, checked.out);
    assert.equal(checked.out, '');
    // And promtool does see a broken text (the check can fail).
    const broken = promtoolCheckMetrics('# TYPE x gauge\nx{a="unterminated} 1\n');
    assert.notEqual(broken.status, 0);
  });
});
