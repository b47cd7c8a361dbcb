// @ts-check
// Mocha reporter for the unit tests run by scripts/test.mjs: the usual spec output, plus the counts
// and failures written as JSON to $CHAIN_ENDPOINTS_RESULT_FILE for the summary.
const fs = require('fs');
const Mocha = require('mocha');

const { EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING, EVENT_RUN_END } = Mocha.Runner.constants;

class CountingSpec extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const result = { passed: 0, failed: 0, pending: 0, failures: [] };
    runner.on(EVENT_TEST_PASS, () => {
      result.passed++;
    });
    runner.on(EVENT_TEST_PENDING, () => {
      result.pending++;
    });
    runner.on(EVENT_TEST_FAIL, (test, err) => {
      result.failed++;
      result.failures.push({ title: test.fullTitle(), message: String(err && err.message ? err.message : err) });
    });
    runner.once(EVENT_RUN_END, () => {
      if (process.env.CHAIN_ENDPOINTS_RESULT_FILE) fs.writeFileSync(process.env.CHAIN_ENDPOINTS_RESULT_FILE, JSON.stringify(result));
    });
  }
}

module.exports = CountingSpec;
