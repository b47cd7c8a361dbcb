// Query files (.chainq), loaded when the first one is opened (src/ui/base/load.ts): the language
// features, the Testing view and the editor's runner.
export { QueryEditor } from './queryEditor';
