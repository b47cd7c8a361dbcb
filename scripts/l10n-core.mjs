// Adds the request core's strings to the English bundle. @vscode/l10n-dev only reads files that
// import 'vscode' or '@vscode/l10n', and src/core imports neither (it runs in plain Node), so its
// `l10n.t('…')` calls are collected here with the TypeScript parser and merged into
// l10n/bundle.l10n.json. Run by `npm run l10n` after the exporter.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const bundlePath = path.join(root, 'l10n', 'bundle.l10n.json');
const coreDir = path.join(root, 'src', 'core');

const found = new Set();
for (const name of readdirSync(coreDir).filter((f) => f.endsWith('.ts'))) {
  const file = path.join(coreDir, name);
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.expression.getText(source) === 'l10n' &&
      node.expression.name.text === 't'
    ) {
      const first = node.arguments[0];
      if (first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))) found.add(first.text);
      else if (first) throw new Error(`${name}:${source.getLineAndCharacterOfPosition(first.pos).line + 1}: l10n.t needs a literal message`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

const bundle = JSON.parse(readFileSync(bundlePath, 'utf8'));
let added = 0;
for (const message of found) {
  if (!(message in bundle)) {
    bundle[message] = message;
    added++;
  }
}
writeFileSync(bundlePath, JSON.stringify(bundle, null, 2) + '\n');
console.log(`l10n: ${found.size} core strings (${added} new); bundle has ${Object.keys(bundle).length} entries`);
