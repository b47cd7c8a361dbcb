// @ts-check
// Writes the English string bundle, l10n/bundle.l10n.json, from every `l10n.t(...)` call: the
// editor side's `vscode.l10n.t('…')` / `vscode.l10n.t({ message, comment })` and the request core's
// `l10n.t('…')` (src/core runs in plain Node and has its own seam, src/core/base/l10n.ts). The bundle
// is exactly what the code uses: strings no longer used are dropped. (@vscode/l10n-dev's exporter
// finds no call in files that import vscode as `import vscode = require('vscode')`, as ours do.)
//   node scripts/l10n.mjs           rewrite the bundle (npm run l10n)
//   node scripts/l10n.mjs --check   exit 1 when the bundle differs from the code (a unit test runs it)
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const bundlePath = path.join(root, 'l10n', 'bundle.l10n.json');

function* sources(dir) {
  for (const name of readdirSync(dir).sort()) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) yield* sources(file);
    else if (name.endsWith('.ts')) yield file;
  }
}

/** The bundle the code asks for: message (or message/comment) -> entry, in source order. */
export function collect() {
  const bundle = {};
  for (const file of sources(path.join(root, 'src'))) {
    const rel = path.relative(root, file);
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const where = (node) => `${rel}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
    const visit = (node) => {
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        (node.expression.name.text === 't' || node.expression.name.text === 'both')
      ) {
        const callee = node.expression.expression.getText(source);
        const first = node.arguments[0];
        if ((callee === 'l10n' || callee === 'vscode.l10n') && first) {
          if (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first)) {
            bundle[first.text] = first.text;
          } else if (ts.isObjectLiteralExpression(first)) {
            const prop = (name) => first.properties.find((p) => ts.isPropertyAssignment(p) && p.name.getText(source) === name)?.['initializer'];
            const message = prop('message');
            const comment = prop('comment');
            if (!message || !ts.isStringLiteralLike(message)) throw new Error(`${where(first)}: l10n.t({ message }) needs a literal message`);
            const comments = !comment
              ? []
              : ts.isArrayLiteralExpression(comment)
                ? comment.elements.map((e) => /** @type {any} */ (e).text)
                : [/** @type {any} */ (comment).text];
            if (comments.some((c) => typeof c !== 'string')) throw new Error(`${where(first)}: l10n.t comments must be literals`);
            if (comments.length === 0) bundle[message.text] = message.text;
            else bundle[`${message.text}/${comments.join('')}`] = { message: message.text, comment: comments };
          } else if (!(rel === path.join('src', 'extension.ts') && ts.isIdentifier(first))) {
            // (src/extension.ts passes the core's literal messages through to vscode.l10n.t.)
            throw new Error(`${where(first)}: l10n.t needs a literal message`);
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return bundle;
}

if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  const wanted = collect();
  const text = JSON.stringify(wanted, null, 2) + '\n';
  const current = readFileSync(bundlePath, 'utf8');
  if (process.argv.includes('--check')) {
    if (current !== text) {
      const had = JSON.parse(current);
      const missing = Object.keys(wanted).filter((k) => !(k in had));
      const unused = Object.keys(had).filter((k) => !(k in wanted));
      console.error(
        `l10n/bundle.l10n.json is out of date (run npm run l10n): ${missing.length} missing, ${unused.length} unused${
          missing.length
            ? `; missing: ${missing
                .slice(0, 5)
                .map((k) => JSON.stringify(k))
                .join(', ')}`
            : ''
        }`,
      );
      process.exit(1);
    }
    console.log(`l10n: bundle up to date (${Object.keys(wanted).length} strings)`);
  } else {
    const before = Object.keys(JSON.parse(current));
    writeFileSync(bundlePath, text);
    const added = Object.keys(wanted).filter((k) => !before.includes(k)).length;
    console.log(`l10n: ${Object.keys(wanted).length} strings (${added} added, ${before.filter((k) => !(k in wanted)).length} dropped)`);
  }
}
