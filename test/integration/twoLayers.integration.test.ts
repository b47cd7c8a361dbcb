// Both halves of the chain in the editor, against the providers `npm start` serves (the devnet's
// Local node, evmd-like, and Local node v0.5 with cosmos/evm v0.5's engines): Look Up of the
// delegation made through the staking precompile shows one receipt whose causes explain the
// balance change; Simulate… runs on each provider's engine and an override is refused before
// sending where the engine cannot take it, naming the provider that can; Look Up of the delegator
// shows the whole account page.

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChainEndpointsApi } from '../../src/api';
import { type Devnet, localProviders, startDevnet } from '../devnet/devnet';
import { EXTENSION_ID, closeAllEditors, providerSettings, runForDocument, setProviders, waitFor } from './helpers';
import { ui } from './uiDriver';

const BANK = '0x0000000000000000000000000000000000000804';
const NEWCOMER = '0x00000000000000000000000000000000c0ffee01';

describe('both layers in the editor: the receipt, a simulation on each engine, the account page', function () {
  this.timeout(120_000);
  let devnet: Devnet;
  let api: ChainEndpointsApi;

  before(async () => {
    devnet = await startDevnet({ realTxs: true, blockIntervalMs: 400, providers: localProviders(true, false) });
    await setProviders(providerSettings(devnet.providers));
    api = (await vscode.extensions.getExtension<ChainEndpointsApi>(EXTENSION_ID)!.activate())!;
    await waitFor('block 3', () => (devnet.height() >= 3n ? true : undefined), 20_000);
  });
  after(async () => {
    await closeAllEditors();
    await devnet?.stop();
  });

  it("Look Up of the precompile delegation: one receipt, the delegator's change explained by the rewards withdrawn, the delegation, the fee and the refund", async () => {
    const sample = devnet.chain.ledger.receiptSample;
    assert.ok(sample, 'the devnet delegates through the staking precompile in block 2');
    const { text } = await runForDocument('chainEndpoints.lookUp', { provider: 'Local node', query: sample.evmHash });
    assert.match(text, /Receipt: both layers/);
    // As receipt.chainq states it: alice's balance fell by exactly this much between blocks 1 and 2.
    assert.ok(text.includes('998154031000154031'), 'the measured change of the delegator');
    const causes = text.slice(text.indexOf('Effects by cause'), text.indexOf('State before and after'));
    for (const kind of ['fee', 'withdrawRewards', 'delegate', 'refund']) assert.match(causes, new RegExp(`\\d+\\. ${kind}: `), `${kind} among the causes`);
    assert.match(causes, /by the staking precompile/);
    assert.ok(text.includes(sample.delegator.bech32), 'the delegator in its bech32 form');
    // The same content as data: the measured change equals the sum of its causes, nothing unexplained.
    const data = await api.lookUp(sample.evmHash, { provider: 'Local node' });
    assert.equal(data.kind, 'tx');
    if (data.kind !== 'tx') return;
    const change = data.receipt?.changes.find((c) => c.bech32 === sample.delegator.bech32 && c.denom === 'atest');
    assert.ok(change, 'the delegator changes');
    assert.equal(change.measured, '-998154031000154031');
    assert.equal(change.explained, change.measured);
    assert.equal(change.unexplained, undefined);
    if (ui.available) await ui.screenshot('receipt.png');
  });

  it('Simulate…: eth_call on Local node, the call tree with a balance override on Local node v0.5, the override refused on Local node naming Local node v0.5', async () => {
    const token = devnet.chain.ledger.fixtureDeployment?.token;
    assert.ok(token, 'the fixture token is deployed in block 1');
    const alice = devnet.chain.ledger.keys[0].hex;
    const plain = await runForDocument('chainEndpoints.evm.simulate', {
      provider: 'Local node',
      address: token,
      function: 'balanceOf(address)',
      args: [alice],
    });
    assert.match(plain.text, /engine: `?eth_call and eth_estimateGas/);
    // Its gas is eth_estimateGas's figure: said to be an estimate, not "gas used".
    assert.match(plain.text, /^- gas \(estimate\): \d+$/m);
    assert.doesNotMatch(plain.text, /^- gas used:/m);
    if (ui.available) await ui.screenshot('simulate-eth-call.png');

    const spec = { address: BANK, function: 'balances(address)', args: [NEWCOMER], overrides: { [NEWCOMER]: { balance: '5000000000000000000' } } };
    const tree = await runForDocument('chainEndpoints.evm.simulate', { provider: 'Local node v0.5', ...spec });
    assert.match(tree.text, /engine: `?debug_traceCall with callTracer/);
    assert.ok(tree.text.includes('5000000000000000000'), 'the overridden balance read by the bank precompile');
    if (ui.available) await ui.screenshot('simulate.png');

    await assert.rejects(api.simulate({ provider: 'Local node', ...spec }), (e: Error) => {
      assert.match(e.message, /Local node v0\.5/);
      assert.doesNotMatch(e.message, /overrides are unsupported in call queries/, 'refused before sending, not the node error');
      return true;
    });
  });

  it('Look Up of the delegator: the account page with its balances reconciled, its stake and its history', async () => {
    const alice = devnet.chain.ledger.keys[0];
    const { text } = await runForDocument('chainEndpoints.lookUp', { provider: 'Local node', query: alice.hex });
    assert.ok(text.includes(alice.bech32), 'both forms of the address');
    const page = await api.lookUp(alice.hex, { provider: 'Local node' });
    assert.equal(page.kind, 'address');
    if (page.kind !== 'address') return;
    assert.equal(page.address.state?.reconciliation?.equal, true, 'the bank and EVM balances agree');
    const delegation = page.address.state?.delegations?.[0];
    assert.ok(delegation, 'her delegation');
    assert.ok(text.includes(delegation.validator), 'the validator delegated to, on the page');
    assert.ok((page.address.history?.entries.length ?? 0) > 0, 'her history from the node');
    if (ui.available) await ui.screenshot('account.png');
  });
});
