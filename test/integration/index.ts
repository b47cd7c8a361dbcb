// Integration test entry: VS Code loads this module (extensionTestsPath) inside the extension host
// and calls run(). It runs mocha (bdd: describe/it) over every out/test/integration/**/*.integration.test.js,
// prints each test's result through console (which reaches the runner: stdout under
// @vscode/test-electron, codeAutomationLog under code-server) and ends with one machine-readable line
//   CHAIN_ENDPOINTS_RESULT {"passed":N,"failed":M,...}
// (also written to $CHAIN_ENDPOINTS_RESULT_FILE when set). Rejects when any test fails.
import * as fs from 'fs';
import * as path from 'path';
import Mocha = require('mocha');

const TEST_SUFFIX = '.integration.test.js';

function findTests(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...findTests(full));
    else if (entry.name.endsWith(TEST_SUFFIX)) out.push(full);
  }
  return out.sort();
}

interface Failure {
  title: string;
  message: string;
  stack?: string;
}

/** One line per test, failures with message and stack, a summary, then the result line. */
class ConsoleReporter {
  constructor(runner: Mocha.Runner) {
    const { EVENT_SUITE_BEGIN, EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING, EVENT_RUN_END, EVENT_HOOK_END } = Mocha.Runner.constants;
    void EVENT_HOOK_END;
    let passed = 0;
    let pending = 0;
    const failures: Failure[] = [];
    const started = Date.now();
    runner.on(EVENT_SUITE_BEGIN, (suite: Mocha.Suite) => {
      if (suite.title) console.log(`${'  '.repeat(Math.max(0, depth(suite) - 1))}${suite.title}`);
    });
    runner.on(EVENT_TEST_PASS, (test: Mocha.Test) => {
      passed++;
      console.log(`${indent(test)}✔ ${test.title} (${test.duration ?? 0} ms)`);
    });
    runner.on(EVENT_TEST_PENDING, (test: Mocha.Test) => {
      pending++;
      console.log(`${indent(test)}- ${test.title} (skipped)`);
    });
    runner.on(EVENT_TEST_FAIL, (test: Mocha.Test | Mocha.Hook, err: Error) => {
      const title = test.fullTitle();
      const message = err && err.message ? err.message : String(err);
      failures.push({ title, message, stack: err?.stack });
      console.log(`${indent(test)}✘ ${test.title}`);
      console.log(`FAILED: ${title}\n  ${message.split('\n').join('\n  ')}`);
      const frames = (err?.stack ?? '').split('\n').filter((l) => /^\s+at /.test(l));
      if (frames.length) console.log(frames.slice(0, 10).join('\n'));
    });
    runner.once(EVENT_RUN_END, () => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(`\n${passed} passing, ${failures.length} failing, ${pending} pending (${seconds} s)`);
      failures.forEach((f, i) => console.log(`  ${i + 1}) ${f.title}: ${f.message.split('\n')[0]}`));
      const result = { passed, failed: failures.length, pending, failures: failures.map(({ title, message }) => ({ title, message })) };
      console.log(`CHAIN_ENDPOINTS_RESULT ${JSON.stringify(result)}`);
      const file = process.env.CHAIN_ENDPOINTS_RESULT_FILE;
      if (file) {
        try {
          fs.writeFileSync(file, JSON.stringify(result));
        } catch (e) {
          console.error(`could not write ${file}: ${String(e)}`);
        }
      }
    });
  }
}

function depth(s: Mocha.Suite): number {
  let d = 0;
  for (let p: Mocha.Suite | undefined = s; p && !p.root; p = p.parent) d++;
  return d;
}

function indent(t: Mocha.Runnable): string {
  return '  '.repeat(t.parent ? depth(t.parent) : 0);
}

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: ConsoleReporter as unknown as string });
  const grep = process.env.CHAIN_ENDPOINTS_TEST_GREP;
  if (grep) mocha.grep(grep);
  const files = findTests(__dirname);
  if (files.length === 0) {
    console.log('CHAIN_ENDPOINTS_RESULT {"passed":0,"failed":1,"failures":[{"title":"integration","message":"no *.integration.test.js found"}]}');
    return Promise.reject(new Error(`no *${TEST_SUFFIX} under ${__dirname}`));
  }
  for (const f of files) mocha.addFile(f);
  return new Promise((resolve, reject) => {
    try {
      mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} integration test(s) failed`)) : resolve()));
    } catch (e) {
      console.error(e);
      reject(e);
    }
  });
}
