// Editor-side logic that needs no editor: the command ids against package.json, and what the
// operation commands ask for (src/ui/requests/resolveArgs.ts) with scripted prompts.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { COMMAND_PREFIX, OPERATION_ALIASES, OPERATION_IDS } from '../../../../src/core/chain/operationIds';
import { findOperation } from '../../../../src/core/chain/operations';
import type { Provider } from '../../../../src/core/config/providers';
import { Commands } from '../../../../src/ui/base/commandIds';
import { resolveArgs } from '../../../../src/ui/requests/resolveArgs';
import type { PickItem } from '../../../../src/ui/base/prompts';
import { scriptedPrompts } from '../../helpers/prompts';
import { REPO_ROOT } from '../../helpers/repoRoot';

const root = REPO_ROOT;

/** Prompts that answer from a script and record what was asked (the shared builder). */
function scripted(answers: { pick?: (items: readonly PickItem[]) => PickItem | undefined; inputs?: (string | undefined)[] } = {}) {
  return scriptedPrompts(answers);
}

const local: Provider = { name: 'Local node', endpoints: { consensusRpc: 'http://127.0.0.1:26657', evmRpc: 'http://127.0.0.1:8545' } };
const other: Provider = { name: 'Other', endpoints: { consensusRpc: 'http://127.0.0.1:36657' } };
const evmOnly: Provider = { name: 'EVM only', endpoints: { evmRpc: 'http://127.0.0.1:9545' } };

describe('ui without the editor', () => {
  it('every command in package.json is registered (Commands or an operation), and every registered one is contributed', () => {
    const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    const contributed = new Set<string>(manifest.contributes.commands.map((c: { command: string }) => c.command));
    const registered = new Set<string>([...Object.values(Commands), ...[...OPERATION_IDS, ...Object.keys(OPERATION_ALIASES)].map((id) => COMMAND_PREFIX + id)]);
    assert.deepEqual(
      [...contributed].filter((c) => !registered.has(c)),
      [],
      'contributed but never registered',
    );
    assert.deepEqual(
      [...registered].filter((c) => !contributed.has(c)),
      [],
      'registered but not contributed',
    );
  });

  it('an operation node runs on its provider and asks only for the missing height', async () => {
    const op = findOperation('consensus.block')!;
    const { prompts, asked } = scripted({ inputs: ['42'] });
    const r = await resolveArgs(op, { providers: [local, other] }, { kind: 'operation', provider: other, operation: op }, prompts);
    assert.equal(r!.provider.name, 'Other');
    assert.deepEqual(r!.args, { height: '42' });
    assert.equal(asked.length, 1);
    assert.match(asked[0], /^input /);
  });

  it('with no provider named, offers only providers that have the interface, and stops when dismissed', async () => {
    const op = findOperation('consensus.block')!;
    const dismissed = scripted();
    assert.equal(await resolveArgs(op, { providers: [local, evmOnly, other] }, undefined, dismissed.prompts), undefined);
    assert.match(dismissed.asked[0], /^pick .*: Local node, Other$/);
    const chosen = scripted({ pick: (items) => items[1], inputs: ['7'] });
    const r = await resolveArgs(op, { providers: [local, evmOnly, other] }, undefined, chosen.prompts);
    assert.equal(r!.provider.name, 'Other');
  });

  it('a programmatic call with every argument asks nothing; a bad one is refused before any prompt', async () => {
    const op = findOperation('consensus.block')!;
    const none = scripted();
    const r = await resolveArgs(op, { providers: [local] }, { provider: 'local NODE', height: ' 12 ', confirmed: true }, none.prompts);
    assert.deepEqual(
      { provider: r!.provider.name, args: r!.args, confirmed: r!.confirmed },
      { provider: 'Local node', args: { height: '12' }, confirmed: true },
    );
    assert.deepEqual(none.asked, []);
    await assert.rejects(resolveArgs(op, { providers: [local] }, { provider: 'Local node', height: 'abc' }, none.prompts), /height/i);
    await assert.rejects(
      resolveArgs(op, { providers: [local] }, { provider: 'Nope' }, none.prompts),
      /No provider named "Nope"\. Configured providers: "Local node"\./,
    );
    await assert.rejects(resolveArgs(op, { providers: [evmOnly] }, { provider: 'EVM only' }, none.prompts), /has no Consensus RPC address/);
    await assert.rejects(resolveArgs(op, { providers: [evmOnly] }, undefined, none.prompts), /No configured provider has a Consensus RPC address/);
    await assert.rejects(resolveArgs(op, { providers: [local] }, 'Local node', none.prompts), /must be a tree item or an object/);
    assert.deepEqual(none.asked, []);
  });
});
