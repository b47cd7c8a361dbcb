// The one way activation-time code reaches what is loaded on first use (src/ui/onDemand/index.ts,
// dist/onDemand.js in the release build). Nothing else imports that folder.

export type OnDemand = typeof import('../onDemand/index');

let loaded: Promise<OnDemand> | undefined;

export function loadOnDemand(): Promise<OnDemand> {
  return (loaded ??= import('../onDemand/index'));
}
