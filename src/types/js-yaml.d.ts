// The one function of js-yaml (bundled into dist/onDemand.js for the OpenAPI import) this project uses.
declare module 'js-yaml' {
  export function load(text: string, options?: { json?: boolean; filename?: string }): unknown;
}
