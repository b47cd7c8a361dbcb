// What each feature's register.ts is handed at activation (src/extension.ts builds it once): the
// shared services, and `keep` for what the feature registers (disposed on deactivation). Only
// activation-time files import this one (a feature's lazily loaded code takes CommandDeps): the
// HealthController it names loads the features' code through src/ui/base/load.ts.

import type * as vscode from 'vscode';
import type { CommandDeps } from './deps';
import type { HealthController } from '../health/healthController';

export interface Activation extends CommandDeps {
  readonly extensionUri: vscode.Uri;
  readonly health: HealthController;
  readonly keep: (d: vscode.Disposable) => void;
}
