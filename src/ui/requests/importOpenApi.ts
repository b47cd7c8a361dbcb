// REST: Import a Chain's Own Module Routes (OpenAPI)…: a network's chain has modules of its own; their
// GET routes join the catalogue for that network's providers (the tree's REST groups, the route
// pick, query files and api.run() by id `chain.<module>.<Rpc>`). From a file (JSON or YAML,
// OpenAPI v2 or v3) or from a provider's `/swagger/` when it serves one (through the same
// HttpClient: timeout, size cap, cancellation). The document is untrusted: read by
// core/chain/catalogue/imported.ts (validated, bounded) and stored in globalState (bounded).

import * as l10n from '../../core/base/l10n';
import { readFile, stat } from 'node:fs/promises';
import vscode = require('vscode');
import * as yaml from 'js-yaml';
import { LocalizedError, errorMessage } from '../../core/base/errors';
import { moduleOperations, routeOperation } from '../../core/chain/catalogue/modules';
import { type StoredImport, mergeImport, readOpenApi, readStoredImports } from '../../core/chain/catalogue/imported';
import { setImportedOperations } from '../../core/chain/operations';
import { networkNamed } from '../../core/config/networks';
import { type Provider, providerNamed } from '../../core/config/providers';
import { execute } from '../../core/chain/execute';
import type { Operation } from '../../core/chain/operations';
import { requestOptions } from '../../core/chain/requestOptions';
import { redactUrl } from '../../core/secrets/redact';
import type { CommandDeps } from '../base/deps';
import { currentNetworks } from '../providers/networkDirectory';
import { windowPrompts } from '../base/prompts';
import { readSettings } from '../base/settings';
import { providerPrompts } from '../providers/providerPicks';

const STATE_KEY = 'chainEndpoints.importedRoutes';
/** A document larger than this is refused (the Cosmos SDK's own is 2.4 MB). */
const MAX_DOCUMENT_BYTES = 8 * 1024 * 1024;
/** What the stored imports may take in globalState, all networks together. */
const MAX_STORED_BYTES = 1024 * 1024;
/** Where a node's gateway serves its definition. */
const SWAGGER_PATHS = ['/swagger/swagger.yaml', '/swagger/swagger.json', '/swagger.json', '/openapi.json'];
/** A GET of the provider's REST address at `path` (one of SWAGGER_PATHS). */
const OPENAPI_GET: Operation = {
  id: 'rest.openApiDocument',
  iface: 'rest',
  label: 'OpenAPI document',
  title: 'OpenAPI document',
  params: [],
  build: (a) => ({ kind: 'get', path: a.path }),
};

let restored = false;

/** Puts the stored imports into the catalogue (once per session; again after an import). */
export function restoreImportedRoutes(deps: CommandDeps): void {
  if (restored || !deps.state) return;
  restored = true;
  apply(readStoredImports(deps.state.get(STATE_KEY)));
}

function apply(stored: readonly StoredImport[]): void {
  setImportedOperations(stored.flatMap((s) => s.routes.map((r) => routeOperation(r, `import:${s.network}`))));
}

/** Parses a document's text: JSON, else YAML (js-yaml's default schema: no code, no custom types). */
export function parseDocument(text: string): unknown {
  const t = text.trimStart();
  return t.startsWith('{') ? JSON.parse(t) : yaml.load(t, { json: true });
}

export async function importOpenApiCommand(deps: CommandDeps, arg?: unknown): Promise<number | undefined> {
  const providers = readSettings().providers.providers;
  const networks = currentNetworks(providers).filter((n) => n.providers.some((p) => p.endpoints.rest));
  if (networks.length === 0) {
    void vscode.window.showWarningMessage(vscode.l10n.t('No provider has a REST address: add one first.'));
    return undefined;
  }
  const given = typeof arg === 'object' && arg !== null ? (arg as { network?: unknown; file?: unknown; provider?: unknown }) : {};
  const network =
    networkNamed(networks, given.network) ??
    (networks.length === 1
      ? networks[0]
      : (
          await vscode.window.showQuickPick(
            networks.map((n) => ({ label: n.label, description: n.providers.map((p) => p.name).join(', '), network: n })),
            { title: vscode.l10n.t('Import module routes for which network?'), ignoreFocusOut: true },
          )
        )?.network);
  if (!network) return undefined;
  let text: string;
  let from: string;
  if (typeof given.file === 'string') {
    from = given.file;
    text = await readBounded(given.file);
  } else if (typeof given.provider === 'string') {
    const p = providerNamed(network.providers, given.provider);
    if (!p?.endpoints.rest) throw new LocalizedError(l10n.both('Provider "{0}" of {1} has no REST address.', String(given.provider), network.label));
    ({ text, from } = await fetchSwagger(deps, p));
  } else {
    const fileItem = { label: vscode.l10n.t('$(file) An OpenAPI file (JSON or YAML, v2 or v3)…'), source: 'file' as const };
    const nodeItems = network.providers
      .filter((p) => p.endpoints.rest)
      .map((p) => ({
        label: vscode.l10n.t("$(globe) {0}'s /swagger/", p.name),
        description: redactUrl(p.endpoints.rest!),
        source: 'node' as const,
        provider: p,
      }));
    // The nodes' items carry their provider: the shared provider pick adds each one's REST state and height, the last used first.
    const prompts = providerPrompts(windowPrompts, () => deps.health?.rows() ?? [], 'rest');
    const choice = await prompts.pick<(typeof nodeItems)[number] | typeof fileItem>([fileItem, ...nodeItems], { title: vscode.l10n.t('Import from') });
    if (!choice) return undefined;
    if (choice.source === 'file') {
      const picked = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { OpenAPI: ['json', 'yaml', 'yml'] } });
      if (!picked?.[0]) return undefined;
      from = picked[0].fsPath;
      text = await readBounded(from);
    } else {
      ({ text, from } = await fetchSwagger(deps, choice.provider));
    }
  }
  let doc: unknown;
  try {
    doc = parseDocument(text);
  } catch (err) {
    throw new LocalizedError(l10n.both('{0} is neither JSON nor YAML: {1}', from, errorMessage(err).slice(0, 200)));
  }
  const known = new Set(moduleOperations().map((op) => op.route!.path));
  const result = readOpenApi(doc, known);
  const entry: StoredImport = { network: network.key, from, importedAt: Date.now(), routes: result.routes };
  const { all, taken } = mergeImport(readStoredImports(deps.state?.get(STATE_KEY)), entry);
  if (Buffer.byteLength(JSON.stringify(all)) > MAX_STORED_BYTES) {
    throw new LocalizedError(l10n.both('The imported routes would take more than 1 MB of storage: import fewer (a smaller document).'));
  }
  await deps.state?.update(STATE_KEY, all);
  restored = true;
  apply(all);
  const s = result.skipped;
  const count = result.routes.length - taken.length;
  deps.log.info(
    `[routes] imported ${count} route(s) for ${network.label} from ${from} (known ${s.known}, invalid ${s.invalid}, over limit ${s.overLimit}, state-changing ${s.sends}, ids of another network ${taken.length})`,
  );
  void vscode.window.showInformationMessage(
    s.sends + taken.length === 0
      ? vscode.l10n.t(
          "{0} route(s) of the chain's own modules imported for {1} ({2} already known, {3} left out as invalid).",
          count,
          network.label,
          s.known,
          s.invalid + s.overLimit,
        )
      : vscode.l10n.t(
          "{0} route(s) of the chain's own modules imported for {1} ({2} already known, {3} left out as invalid, {4} refused: named like a request that changes state, or an id another network already imported).",
          count,
          network.label,
          s.known,
          s.invalid + s.overLimit,
          s.sends + taken.length,
        ),
  );
  return count;
}

async function readBounded(file: string): Promise<string> {
  const info = await stat(file);
  if (info.size > MAX_DOCUMENT_BYTES) throw new LocalizedError(l10n.both('{0} is larger than 8 MB: not an OpenAPI document this import reads.', file));
  return readFile(file, 'utf8');
}

async function fetchSwagger(
  deps: CommandDeps,
  p: { name: string; endpoints: { rest?: string }; headers?: Record<string, string> },
): Promise<{ text: string; from: string }> {
  const wire = await deps.secrets.resolved(p as Provider);
  // Through execute() like every request: its timeout, size caps, redaction and secret rule; never spilled (8 MB at most).
  const settings = { ...readSettings(), maxDocumentBytes: MAX_DOCUMENT_BYTES, maxDownloadBytes: MAX_DOCUMENT_BYTES };
  const tried: string[] = [];
  for (const path of SWAGGER_PATHS) {
    const o = await execute(wire, OPENAPI_GET, { path }, requestOptions(settings, { http: deps.http, provider: wire }, 'silent'));
    // A YAML document is not JSON: its parse failure does not matter, its body does.
    const body = o.body && (!o.error || o.error.kind === 'parse') ? o.body.toString('utf8') : '';
    if (o.status === 200 && body.trim() !== '' && !body.trimStart().startsWith('<')) return { text: body, from: redactUrl(o.request.url) };
    tried.push(`${path}: ${o.status || 'no answer'}`);
  }
  throw new LocalizedError(l10n.both('{0} serves no OpenAPI document ({1}). Import a file instead.', p.name, tried.join(', ')));
}
