// The core's translation seam: with a translator installed, core sentences go through it whole,
// with their placeholders filled; without one they are English.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import * as l10n from '../../../../src/core/base/l10n';
import { EndpointError, LocalizedError, networkError, rewrapped, shownMessage } from '../../../../src/core/base/errors';
import { validateHeight } from '../../../../src/core/chain/validate';
import { REPO_ROOT } from '../../helpers/repoRoot';

describe('l10n (core)', () => {
  afterEach(() => l10n.setTranslator(undefined));

  it('format(): {n} filled by the n-th argument; no such argument, not a number or unclosed: left as written', () => {
    assert.equal(l10n.format('{0} = {1} (decimal)', '0x10', 16), '0x10 = 16 (decimal)');
    assert.equal(l10n.format('{1}{0}{1}', 'a', 'b'), 'bab');
    assert.equal(l10n.format('a {5} b {0}', 'x'), 'a {5} b x');
    assert.equal(l10n.format('{x} {0}} {{1} {', 'A', 'B'), '{x} A} {B {');
    assert.equal(l10n.format('{10} {1}', ...'abcdefghijk'.split('')), 'k b');
    assert.equal(l10n.format('no placeholder', 'x'), 'no placeholder');
    assert.equal(l10n.format('{0}', '{1}', 'y'), '{1}'); // an argument is never read as a placeholder
    assert.equal(l10n.format('keep {0}'), 'keep {0}');
  });

  it('sends validator and EndpointError messages through the translator, placeholders filled', () => {
    l10n.setTranslator((m, ...a) => `«${l10n.format(m, ...a)}»`);
    assert.equal(validateHeight('abc'), '«"abc" is not a block height: type a whole number from 1 to 9223372036854775807.»');
    const e = networkError(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }), 'http://h:1');
    assert.equal(e.shown, '«Could not reach http://h:1: «connection refused (nothing listens at that address)».»');
    // The log keeps English, the nested phrase included.
    assert.equal(e.message, 'Could not reach http://h:1: connection refused (nothing listens at that address).');
  });

  it('both(): a Message argument fills each form with its own; join() keeps both forms; rewrapped() keeps the shown text', () => {
    l10n.setTranslator((m, ...a) => `«${l10n.format(m, ...a)}»`);
    const inner = l10n.both('inner {0}', 1);
    assert.deepEqual(l10n.both('outer: {0} and {1}', inner, 'x'), { english: 'outer: inner 1 and x', shown: '«outer: «inner 1» and x»' });
    assert.deepEqual(l10n.join(inner, ' / ', l10n.both('b')), { english: 'inner 1 / b', shown: '«inner 1» / «b»' });
    const caught = new EndpointError('input', l10n.both('Provider "{0}" has no address.', 'p'));
    const again = rewrapped(caught);
    assert.ok(again instanceof LocalizedError && !(again instanceof EndpointError));
    assert.equal(again.message, 'Provider "p" has no address.');
    assert.equal(shownMessage(again), '«Provider "p" has no address.»');
    assert.equal(shownMessage(rewrapped(new Error('plain'))), 'plain');
    // An error whose text came in both forms keeps them through networkError() too.
    const wrapped = networkError(new LocalizedError(l10n.both('odd')), 'h');
    assert.equal(wrapped.message, 'Could not reach h: odd.');
    assert.equal(wrapped.shown, '«Could not reach h: «odd».»');
  });

  it('is English with {n} filled when no translator is set', () => {
    assert.equal(l10n.t('{0} of {1}', 1, 'two'), '1 of two');
    assert.equal(l10n.t('kept {2} and {"k":1}', 'a'), 'kept {2} and {"k":1}');
    assert.equal(validateHeight(''), 'Type a block height: a whole number from 1 to 9223372036854775807.');
  });

  it('the English bundle lists exactly the strings the code asks for (npm run l10n)', () => {
    const root = REPO_ROOT;
    const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'l10n.mjs'), '--check'], { cwd: root, encoding: 'utf8' });
    assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
  });
});
