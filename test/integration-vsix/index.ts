// Entry of the .vsix suite (npm run test:vsix, scripts/vscode/testVsix.mjs): VS Code loads this module
// as extensionTestsPath in a code-server where Chain Endpoints is the copy installed from the .vsix.
// It runs every *.vsix.test.js beside it; `npm test` never looks in this folder. Output goes through
// console.log one finished line at a time (the runner forwards console calls unformatted).
import * as fs from 'fs';
import * as path from 'path';
import Mocha = require('mocha');

class LineReporter {
  constructor(runner: Mocha.Runner) {
    const { EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_RUN_END } = Mocha.Runner.constants;
    let passed = 0;
    let failed = 0;
    runner.on(EVENT_TEST_PASS, (t: Mocha.Test) => {
      passed++;
      console.log(`  ✔ ${t.fullTitle()} (${t.duration ?? 0} ms)`);
    });
    runner.on(EVENT_TEST_FAIL, (t: Mocha.Runnable, err: Error) => {
      failed++;
      console.log(
        `  ✘ ${t.fullTitle()}\nFAILED: ${t.fullTitle()}\n  ${String(err?.message ?? err)
          .split('\n')
          .join('\n  ')}`,
      );
      const frames = (err?.stack ?? '')
        .split('\n')
        .filter((l) => /^\s+at /.test(l))
        .slice(0, 6);
      if (frames.length) console.log(frames.join('\n'));
    });
    runner.once(EVENT_RUN_END, () => console.log(`${passed} passing, ${failed} failing`));
  }
}

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: LineReporter as unknown as string });
  const files = fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith('.vsix.test.js'))
    .sort();
  if (files.length === 0) return Promise.reject(new Error(`no *.vsix.test.js in ${__dirname}`));
  for (const f of files) mocha.addFile(path.join(__dirname, f));
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} vsix test(s) failed`)) : resolve()));
  });
}
