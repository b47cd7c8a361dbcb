// The command contributions package.json must declare for the catalogue (scripts/sync-manifest.mjs
// writes them; a unit test checks package.json against this).

import { COMMAND_PREFIX, OPERATIONS } from './operations';

export const CATEGORY = 'Chain Endpoints';

export interface CommandContribution {
  command: string;
  title: string;
  category: string;
}

/** The package.nls.json key of a command's title. */
export function nlsKeyFor(command: string): string {
  return `command.${command.replace(/^chainEndpoints\./, '')}.title`;
}

export function manifestCommands(): CommandContribution[] {
  return OPERATIONS.map((op) => ({ command: COMMAND_PREFIX + op.id, title: op.title, category: CATEGORY }));
}
