// The vscode stub itself (vscodeStub.ts): require('vscode') answers it, what is not implemented throws
// when touched, an unscripted window function throws, settings and trust read as the editor reads them.
import { vscodeStub } from './vscodeStub';
import * as assert from 'node:assert/strict';

const vscode = require('vscode') as typeof import('vscode');

describe('helpers/vscodeStub: the vscode of the ui handlers’ unit tests', () => {
  beforeEach(() => vscodeStub.reset());

  it('anything not implemented throws when touched, naming it', () => {
    assert.throws(() => vscode.languages, /vscode\.languages is not in the vscode stub/);
    assert.throws(() => vscode.workspace.fs, /vscode\.workspace\.fs is not in the vscode stub/);
    assert.throws(() => vscode.window.showQuickPick, /vscode\.window\.showQuickPick is not scripted in this test/);
  });

  it('a scripted window function answers; reset() forgets it', async () => {
    vscodeStub.script({ showInformationMessage: (async (m: string) => `seen ${m}`) as never });
    assert.equal(await vscode.window.showInformationMessage('hi'), 'seen hi');
    vscodeStub.reset();
    assert.throws(() => vscode.window.showInformationMessage, /not scripted/);
  });

  it('settings by level, a workspace level ignored when untrusted, updates recorded and announced', async () => {
    vscodeStub.reset({ user: { requestTimeoutSeconds: 5 }, workspace: { requestTimeoutSeconds: 9 } });
    const c = vscode.workspace.getConfiguration('chainEndpoints');
    assert.equal(c.get('requestTimeoutSeconds'), 9);
    assert.deepEqual(
      { ...c.inspect('requestTimeoutSeconds') },
      { key: 'chainEndpoints.requestTimeoutSeconds', defaultValue: undefined, globalValue: 5, workspaceValue: 9, workspaceFolderValue: undefined },
    );
    vscodeStub.trusted = false;
    assert.equal(vscode.workspace.isTrusted, false);
    assert.equal(c.get('requestTimeoutSeconds'), 5);
    assert.equal(c.get('missing', 'fallback'), 'fallback');
    const seen: boolean[] = [];
    const sub = vscode.workspace.onDidChangeConfiguration((e) => seen.push(e.affectsConfiguration('chainEndpoints.statusBar')));
    await c.update('statusBar.pin', true, vscode.ConfigurationTarget.Global);
    sub.dispose();
    assert.deepEqual(seen, [true]);
    assert.equal(vscode.workspace.getConfiguration('chainEndpoints').get('statusBar.pin'), true);
    assert.deepEqual(vscodeStub.updates, [{ key: 'chainEndpoints.statusBar.pin', value: true, target: vscode.ConfigurationTarget.Global }]);
  });

  it('l10n.t fills {0} and {name}; Uri parses, joins and prints as the editor does', () => {
    assert.equal(vscode.l10n.t('{0} of {1}', 'a', 2), 'a of 2');
    assert.equal(vscode.l10n.t('hello {who}', { who: 'you' }), 'hello you');
    const u = vscode.Uri.from({ scheme: 'chain-endpoints', path: '/alpha/Look Up 1.md', query: 'lookUp&abc' });
    assert.equal(u.toString(), 'chain-endpoints:/alpha/Look%20Up%201.md?lookUp&abc');
    assert.equal(vscode.Uri.parse(u.toString()).path, '/alpha/Look Up 1.md');
    assert.equal(vscode.Uri.joinPath(vscode.Uri.file('/a/b'), '../c', 'd.json').fsPath, '/a/c/d.json');
    assert.equal(vscode.Uri.file('/tmp/x y').toString(), 'file:///tmp/x%20y');
  });

  it('a CancellationTokenSource cancels once and tells its listeners', () => {
    const s = new vscode.CancellationTokenSource();
    let told = 0;
    s.token.onCancellationRequested(() => told++);
    assert.equal(s.token.isCancellationRequested, false);
    s.cancel();
    s.cancel();
    assert.equal(s.token.isCancellationRequested, true);
    assert.equal(told, 1);
  });
});
