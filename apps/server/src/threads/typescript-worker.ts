// Starts a worker thread on a TypeScript file of the server. The server runs from TypeScript
// through tsx, and tsx's ESM hooks do not reach worker threads on Node 20: the thread first
// loads tsx's CommonJS hook, then requires the entry file. Entry files (and what they import)
// are therefore compiled to CommonJS: no `import.meta`, no top-level await.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const BOOTSTRAP = `const { workerData } = require('node:worker_threads');
require(workerData.loader);
require(workerData.entry);`;

const TSX_CJS = createRequire(import.meta.url).resolve('tsx/cjs');

/**
 * A thread running `entry` (an absolute path) with `data` as its `workerData` (plus the
 * bootstrap's own `loader` and `entry` keys). The thread gets no Node flags of its own
 * (`--import tsx` would try the ESM hooks).
 */
export function startTypeScriptWorker<T extends object>(entry: string, data: T): Worker {
  const workerData = { ...data, loader: TSX_CJS, entry };
  return new Worker(BOOTSTRAP, { eval: true, workerData, execArgv: [] });
}
