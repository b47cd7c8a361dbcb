// The explorer, loaded on first use (src/ui/base/load.ts): Look Up… (command and API), the links and
// hovers of result documents, and the hover of an address in any file.
export { lookUpCommand, lookUpForApi } from './lookUp';
export { documentHover, documentLinks } from './documentLinks';
export { addressHover } from './addressHover';
