// @ts-check
// The test contracts (test/fixtures/contracts/src/*.sol) compiled with solc from npm (the
// devDependency's exact version) into build artifacts as the two common toolchains write them:
// - Foundry: out/<File>.sol/<Contract>.json (abi, bytecode, deployedBytecode with its
//   immutableReferences, methodIdentifiers, rawMetadata, metadata), sources named src/<File>.sol;
// - Hardhat: artifacts/contracts/<File>.sol/<Contract>.json (hh-sol-artifact-1) and its .dbg.json,
//   sources named contracts/<File>.sol (so the CBOR metadata differs from Foundry's, as in life).
// The artifacts are checked in: the devnet deploys the Foundry ones, `npm start`'s sample
// workspace (examples/workspace/out) carries a copy, and a unit test runs `--check`.
//
//   node scripts/contracts.mjs           write test/fixtures/contracts/{out,artifacts} and examples/workspace/{out,src}
//   node scripts/contracts.mjs --check   compile afresh and compare with what is checked in (exit 1 on a difference)
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fixtures = path.join(root, 'test', 'fixtures', 'contracts');
const srcDir = path.join(fixtures, 'src');
/** Where each layout is written (relative to the repo root). */
const TARGETS = [
  { dir: path.join(fixtures, 'out'), layout: 'foundry' },
  { dir: path.join(fixtures, 'artifacts'), layout: 'hardhat' },
  { dir: path.join(root, 'examples', 'workspace', 'out'), layout: 'foundry' },
  { dir: path.join(root, 'examples', 'workspace', 'src'), layout: 'sources' },
];
/** Compiler settings: Foundry's defaults but with the optimizer on; Cancun (evmd v0.3.2 runs go-ethereum 1.15). */
const SETTINGS = { optimizer: { enabled: true, runs: 200 }, evmVersion: 'cancun' };

/** @param {string} prefix source unit prefix ("src" for Foundry, "contracts" for Hardhat) */
function compile(prefix) {
  const solc = require('solc');
  const sources = {};
  for (const f of readdirSync(srcDir)
    .filter((n) => n.endsWith('.sol'))
    .sort()) {
    sources[`${prefix}/${f}`] = { content: readFileSync(path.join(srcDir, f), 'utf8') };
  }
  const input = {
    language: 'Solidity',
    sources,
    settings: {
      ...SETTINGS,
      outputSelection: {
        '*': { '*': ['abi', 'evm.bytecode', 'evm.deployedBytecode', 'evm.methodIdentifiers', 'metadata'] },
      },
    },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (out.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  return { version: solc.version(), contracts: out.contracts };
}

const hex = (s) => (s.startsWith('0x') ? s : `0x${s}`);

/** @returns {Map<string, string>} relative path -> file text, for one layout */
function artifacts(layout) {
  const files = new Map();
  const { contracts } = compile(layout === 'foundry' ? 'src' : 'contracts');
  for (const [unit, byName] of Object.entries(contracts)) {
    const file = path.basename(unit);
    for (const [name, c] of Object.entries(byName)) {
      const b = c.evm.bytecode;
      const d = c.evm.deployedBytecode;
      let body;
      if (layout === 'foundry') {
        body = {
          abi: c.abi,
          bytecode: { object: hex(b.object), linkReferences: b.linkReferences },
          deployedBytecode: { object: hex(d.object), linkReferences: d.linkReferences, immutableReferences: d.immutableReferences },
          methodIdentifiers: c.evm.methodIdentifiers,
          rawMetadata: c.metadata,
          metadata: JSON.parse(c.metadata),
        };
        files.set(`${file}/${name}.json`, JSON.stringify(body, null, 2) + '\n');
      } else {
        body = {
          _format: 'hh-sol-artifact-1',
          contractName: name,
          sourceName: unit,
          abi: c.abi,
          bytecode: hex(b.object),
          deployedBytecode: hex(d.object),
          linkReferences: b.linkReferences,
          deployedLinkReferences: d.linkReferences,
        };
        files.set(`contracts/${file}/${name}.json`, JSON.stringify(body, null, 2) + '\n');
        // The debug file Hardhat writes beside each artifact (a reader must skip it).
        files.set(
          `contracts/${file}/${name}.dbg.json`,
          JSON.stringify({ _format: 'hh-sol-dbg-1', buildInfo: '../../build-info/fixtures.json' }, null, 2) + '\n',
        );
      }
    }
  }
  return files;
}

function listFiles(dir, base = dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listFiles(path.join(dir, e.name), base) : [path.relative(base, path.join(dir, e.name))],
  );
}

function main() {
  const check = process.argv.includes('--check');
  // The sample workspace is a Foundry project: its src/ holds the same sources.
  const sources = new Map(readdirSync(srcDir).map((f) => [f, readFileSync(path.join(srcDir, f), 'utf8')]));
  const byLayout = { foundry: artifacts('foundry'), hardhat: artifacts('hardhat'), sources };
  const problems = [];
  for (const t of TARGETS) {
    const want = byLayout[t.layout];
    if (check) {
      const have = new Set(listFiles(t.dir));
      for (const [rel, text] of want) {
        const f = path.join(t.dir, rel);
        if (!existsSync(f)) problems.push(`${path.relative(root, f)}: missing`);
        else if (readFileSync(f, 'utf8') !== text) problems.push(`${path.relative(root, f)}: differs from a fresh compile`);
        have.delete(rel);
      }
      for (const rel of have) problems.push(`${path.relative(root, path.join(t.dir, rel))}: not produced by a fresh compile`);
    } else {
      rmSync(t.dir, { recursive: true, force: true });
      for (const [rel, text] of want) {
        mkdirSync(path.dirname(path.join(t.dir, rel)), { recursive: true });
        writeFileSync(path.join(t.dir, rel), text);
      }
    }
  }
  if (problems.length) {
    console.error(`contracts: the checked-in artifacts are stale (run node scripts/contracts.mjs):\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log(check ? 'contracts: artifacts match a fresh compile' : `contracts: wrote ${TARGETS.map((t) => path.relative(root, t.dir)).join(', ')}`);
}

main();
