// Reporters of query-file runs: plain text (for people), TAP, JUnit XML (for CI test views) and
// JSON. Each says what ran, on which provider, the result summary and every assertion. Masked:
// a server may echo a secret. Every string is one line without control characters (`t`): a server's
// text cannot start a line of its own (a CI workflow command such as ::error::) or reach a terminal.

import { masker } from '../secrets/mask';
import { redactUrl } from '../secrets/redact';
import { type AssertionResult, oneLine } from './assert';
import type { FileRun, ProviderRun, RequestRun } from './run';
import { argsText, assertionsOf, requestPassed } from './run';

export const REPORTERS = ['text', 'tap', 'junit', 'json'] as const;
export type ReporterName = (typeof REPORTERS)[number];

export interface FileReport {
  readonly file: string;
  readonly run: FileRun;
}

/** One line, no control characters (the documents' cleaning), masked by report(). */
const t = (s: string | undefined, max = 2000): string => (s === undefined ? '' : oneLine(masker.mask(s), max));

function resultLine(p: ProviderRun): string {
  const o = p.sent;
  if (!o) return t(p.record.error);
  return `${t(o.method)} ${o.status ?? '-'} ${Math.round(o.elapsedMs)} ms${p.shown ? ` · ${t(p.shown)}` : ''}`;
}

/** An assertion as run: references resolved. */
const shownAssertion = (a: AssertionResult) => t(a.shownText ?? a.assertion.text);

/** What a request sent on a provider, for a test's name: its name, the operation and its arguments as sent. */
function requestLabel(r: RequestRun, p?: ProviderRun): string {
  const target = r.request.target.text;
  const args = argsText(p?.args);
  return `${t(r.request.name)} (${t(target)}${args ? ` ${args}` : ''})`;
}

export function report(name: ReporterName, reports: readonly FileReport[]): string {
  const text = name === 'json' ? json(reports) : name === 'tap' ? tap(reports) : name === 'junit' ? junit(reports) : plain(reports);
  return masker.mask(text);
}

export function countAssertions(reports: readonly FileReport[]): { passed: number; failed: number } {
  let passed = 0;
  let failed = 0;
  // Counted in place (assertionsOf builds a list per request: a file of thousands needs none).
  const tally = (results: readonly AssertionResult[]) => {
    for (const a of results) {
      if (a.passed) passed++;
      else failed++;
    }
  };
  for (const { run } of reports) {
    for (const r of run.requests) {
      if (r.error) failed++;
      for (const p of r.runs) tally(p.assertions);
      tally(r.across);
    }
  }
  return { passed, failed };
}

function plain(reports: readonly FileReport[]): string {
  const out: string[] = [];
  for (const { file, run } of reports) {
    out.push(`${t(file)}`);
    for (const r of run.requests) {
      const mark = requestPassed(r) ? 'ok  ' : 'FAIL';
      out.push(`  ${mark} ${t(r.request.name)} (${t(r.request.op?.id ?? r.request.target.text)}, line ${r.request.line})${r.error ? `: ${t(r.error)}` : ''}`);
      for (const p of r.runs) {
        out.push(`       on ${t(p.provider)}: ${resultLine(p)}`);
        for (const a of p.assertions) out.push(`         ${a.passed ? '✓' : '✗'} ${shownAssertion(a)} — ${t(a.message)}`);
      }
      for (const a of r.across)
        out.push(`       ${a.passed ? '✓' : '✗'} ${shownAssertion(a)} — ${t(a.message)}${!a.passed && a.actual ? `: ${t(a.actual)}` : ''}`);
    }
  }
  const c = countAssertions(reports);
  out.push(`${c.failed === 0 ? 'PASSED' : 'FAILED'}: ${c.passed} passed, ${c.failed} failed`);
  return out.join('\n') + '\n';
}

function tap(reports: readonly FileReport[]): string {
  const lines: string[] = [];
  let n = 0;
  for (const { file, run } of reports) {
    for (const r of run.requests) {
      // TAP: a description never holds "#" (it starts a directive) in what came from outside.
      const name = `${t(file)} ${requestLabel(r)}`.replace(/#/g, '＃');
      if (r.error) lines.push(`not ok ${++n} - ${name}`, `  # ${t(r.error)}`);
      for (const { provider, a } of assertionsOf(r)) {
        lines.push(`${a.passed ? 'ok' : 'not ok'} ${++n} - ${name}${provider ? ` on ${t(provider.provider)}` : ''}: ${shownAssertion(a).replace(/#/g, '＃')}`);
        lines.push(`  # ${t(a.message)}${!a.passed && a.actual !== undefined ? ` (found ${t(a.actual)})` : ''}`);
      }
    }
  }
  return ['TAP version 13', `1..${n}`, ...lines].join('\n') + '\n';
}

const xml = (s: string) =>
  s
    .replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!)
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

function junit(reports: readonly FileReport[]): string {
  const suites: string[] = [];
  let total = 0;
  let failures = 0;
  for (const { file, run } of reports) {
    const cases: string[] = [];
    let suiteFailures = 0;
    for (const r of run.requests) {
      const seconds = (r.runs.reduce((s, p) => s + p.record.latencyMs, 0) / 1000).toFixed(3);
      if (r.error) {
        suiteFailures++;
        cases.push(`    <testcase classname="${xml(file)}" name="${xml(requestLabel(r))}" time="0"><failure message="${xml(t(r.error))}"/></testcase>`);
      }
      for (const { provider, a } of assertionsOf(r)) {
        const name = `${requestLabel(r, provider)}${provider ? ` on ${t(provider.provider)}` : ''}: ${shownAssertion(a)}`;
        const body = a.passed
          ? ''
          : `<failure message="${xml(t(a.message))}">${xml(`line ${a.assertion.line}: ${t(a.message)}${a.actual !== undefined ? `\nfound: ${t(a.actual)}` : ''}`)}</failure>`;
        if (!a.passed) suiteFailures++;
        cases.push(`    <testcase classname="${xml(file)}" name="${xml(name)}" time="${seconds}">${body}</testcase>`);
      }
    }
    total += cases.length;
    failures += suiteFailures;
    suites.push(
      `  <testsuite name="${xml(file)}" tests="${cases.length}" failures="${suiteFailures}" time="${(run.elapsedMs / 1000).toFixed(3)}">\n${cases.join('\n')}\n  </testsuite>`,
    );
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="chain-endpoints" tests="${total}" failures="${failures}">\n${suites.join('\n')}\n</testsuites>\n`;
}

function json(reports: readonly FileReport[]): string {
  const c = countAssertions(reports);
  const out = {
    passed: c.failed === 0,
    counts: c,
    files: reports.map(({ file, run }) => ({
      file,
      passed: run.passed,
      elapsedMs: run.elapsedMs,
      requests: run.requests.map((r) => ({
        name: r.request.name,
        line: r.request.line,
        operation: r.request.op?.id,
        passed: requestPassed(r),
        error: r.error && t(r.error),
        providers: r.runs.map((p) => ({
          provider: p.provider,
          request: p.sent && { method: p.sent.method, url: redactUrl(p.sent.url) },
          status: p.record.status,
          latencyMs: Math.round(p.record.latencyMs),
          summary: p.record.summary && t(p.record.summary),
          error: p.record.error && t(p.record.error),
          assertions: p.assertions.map(assertionJson),
        })),
        across: r.across.map(assertionJson),
      })),
    })),
  };
  return JSON.stringify(out, null, 2) + '\n';
}

function assertionJson(a: AssertionResult) {
  return { assertion: shownAssertion(a), line: a.assertion.line, passed: a.passed, message: t(a.message), actual: a.actual && t(a.actual) };
}
