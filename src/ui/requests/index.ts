// Requests, loaded on first use (src/ui/base/load.ts): running a catalogue operation or a module
// route, copy as curl, the API's run(), importing OpenAPI routes; and the catalogue for History.
export { copyAsCurl, curlLine, runForApi, runOperation, restQueryCommand } from './runOperation';
export { importOpenApiCommand, restoreImportedRoutes } from './importOpenApi';
export { findOperation } from '../../core/chain/operations';
