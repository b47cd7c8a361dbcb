// The explorer, loaded on first use (src/ui/base/load.ts): Look Up… (command and API), and the links
// and hovers of result documents.
export { lookUpCommand, lookUpForApi } from './lookUp';
export { documentHover, documentLinks } from './documentLinks';
