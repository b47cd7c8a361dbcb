// Which kind of Providers-view node a command was given (commands get the node as an argument),
// without loading the nodes themselves (treeNodes.ts): the commands are registered at activation,
// the view is built just after.

import type { InterfaceNode, OperationNode, TreeNode } from './treeNodes';

function hasKind(value: unknown, kind: TreeNode['kind']): boolean {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === kind;
}

export function isInterfaceNode(value: unknown): value is InterfaceNode {
  return hasKind(value, 'interface');
}

export function isOperationNode(value: unknown): value is OperationNode {
  return hasKind(value, 'operation');
}
