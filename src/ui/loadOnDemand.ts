// Loads src/ui/onDemand.ts, the code behind what no one uses at startup, on the first call (the
// release build keeps it in its own file, dist/onDemand.js: scripts/build.mjs). Other modules reach
// it only through this function, so that activation does not compile it.

export const loadOnDemand = () => import('./onDemand/index');
