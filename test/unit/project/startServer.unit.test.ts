// `npm start` headless (scripts/start.mjs): code-server on loopback behind a password made for the
// run, workspace trust left on. Starts the real code-server (installed in .vscode-test/ by the
// in-editor tests, or here when it is not there yet) and knocks on it.

import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../helpers/repoRoot';

const root = REPO_ROOT;

/** Runs an ES module snippet in a child Node (the scripts are ES modules) and returns its last JSON line. */
function runModule(source: string, timeoutMs: number): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', source], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      const last = out.trim().split('\n').pop() ?? '';
      try {
        resolve(JSON.parse(last) as Record<string, unknown>);
      } catch {
        reject(new Error(`exit ${code}: ${out.slice(-2000)}\n${err.slice(-2000)}`));
      }
    });
  });
}

describe('npm start: code-server on loopback, behind a password, workspace trust on', function () {
  this.timeout(120_000);

  it('start.mjs asks for a random password and workspace trust, and prints the password with the address', () => {
    const src = readFileSync(path.join(root, 'scripts', 'start.mjs'), 'utf8');
    const call = /startCodeServer\(\{.*\}\);/.exec(src)?.[0] ?? '';
    assert.match(call, /password/, call);
    assert.match(call, /workspaceTrust: true/, call);
    assert.match(src, /randomBytes\(\d+\)/);
    assert.match(src, /Password \(made for this run\): \$\{password\}/);
    assert.doesNotMatch(call, /host/, 'no other host than the loopback default');
  });

  it('the server refuses the workbench without the password, accepts it with it, listens on 127.0.0.1 only and keeps trust on', async function () {
    // A fresh machine has no code-server before the first in-editor run: install it here (minutes,
    // once; the in-editor run reuses it) rather than skip, and fail loudly when it cannot be had.
    this.timeout(20 * 60_000);
    const installed = await runModule(
      `import { ensureCodeServer, isCodeServerInstalled } from './scripts/vscode/codeServer.mjs'; await ensureCodeServer(); console.log(JSON.stringify({ installed: isCodeServerInstalled() }));`,
      19 * 60_000,
    );
    assert.ok(installed.installed, 'code-server could not be installed into .vscode-test/ (see the output above)');
    const r = await runModule(
      `
      import fs from 'node:fs';
      import os from 'node:os';
      import path from 'node:path';
      import { startCodeServer } from './scripts/vscode/runCodeServer.mjs';
      const password = 'pw-' + Math.random().toString(36).slice(2);
      let refusedHost = false;
      try { await startCodeServer({ host: '0.0.0.0', password }); } catch { refusedHost = true; }
      const s = await startCodeServer({ password, workspaceTrust: true, echoServerLog: false });
      const base = 'http://127.0.0.1:' + s.port;
      const root = await fetch(base + '/', { redirect: 'manual' });
      const wrong = await fetch(base + '/login', { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'password=nope' });
      const right = await fetch(base + '/login', { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'password=' + encodeURIComponent(password) });
      const cookie = (right.headers.get('set-cookie') ?? '').split(';')[0];
      const inside = await fetch(base + '/', { redirect: 'manual', headers: { cookie } });
      const ifaces = Object.values(os.networkInterfaces()).flat().filter((i) => i && i.family === 'IPv4' && !i.internal).map((i) => i.address);
      let outside = 'no other address';
      for (const a of ifaces) { try { await fetch('http://' + a + ':' + s.port + '/', { signal: AbortSignal.timeout(2000) }); outside = 'answered on ' + a; } catch { outside = 'refused on ' + a; } }
      const settings = JSON.parse(fs.readFileSync(path.join(s.tmp, 'user', 'User', 'settings.json'), 'utf8'));
      const args = fs.readFileSync('/proc/' + s.child.pid + '/cmdline', 'utf8').split('\\0');
      const env = fs.readFileSync('/proc/' + s.child.pid + '/environ', 'utf8');
      await s.stop();
      console.log(JSON.stringify({
        refusedHost,
        root: [root.status, root.headers.get('location')],
        wrong: [wrong.status, wrong.headers.get('set-cookie') ? 'cookie' : 'no cookie'],
        right: [right.status, cookie ? 'cookie' : 'no cookie'],
        inside: inside.status,
        outside,
        trust: settings['security.workspace.trust.enabled'],
        auth: args[args.indexOf('--auth') + 1],
        disablesTrust: args.includes('--disable-workspace-trust'),
        passwordOnCommandLine: args.some((a) => a.includes(password)),
        passwordInEnv: env.includes('PASSWORD=' + password),
      }));
      `,
      100_000,
    );
    console.log(`      [start] ${JSON.stringify(r)}`);
    assert.equal(r.refusedHost, true, 'a non-loopback address is refused');
    const [rootStatus, rootLocation] = r.root as [number, string];
    assert.equal(rootStatus, 302);
    assert.match(rootLocation, /login/);
    assert.notEqual((r.wrong as [number, string])[1], 'cookie', 'a wrong password gets no session');
    assert.equal((r.right as [number, string])[1], 'cookie', 'the right password gets a session');
    assert.equal(r.inside, 200, 'with the session, the workbench');
    assert.doesNotMatch(String(r.outside), /answered/, "nothing answers on the machine's other addresses");
    assert.equal(r.auth, 'password');
    assert.equal(r.disablesTrust, false);
    assert.equal(r.trust, true);
    assert.equal(r.passwordOnCommandLine, false);
    assert.equal(r.passwordInEnv, true);
  });
});
