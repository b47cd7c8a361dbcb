// Providers, loaded on first use (src/ui/base/load.ts): Add Provider…, Import chain.json…, Set and
// Delete Secret, the provider pickers, and the catalogue when the tree expands an interface.
export { addProvider } from './addProvider';
export { importChainRegistry } from './importChainRegistry';
export { providerPrompts } from './providerPicks';
export { deleteSecret, setSecret } from './secretPrompts';
export { operationsFor, routeOperations } from '../../core/chain/operations';
export { canServe, restModuleOf } from '../../core/health/serves';
