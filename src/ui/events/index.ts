// Event watches, loaded on first use (src/ui/base/load.ts): Watch Events… and the API's watch().
export { watchEvents, watchForApi } from './watchEvents';
