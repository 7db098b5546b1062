import { fileURLToPath } from 'node:url';

// This example lives inside the library's repository and borrows its node_modules (one folder
// up the tree), so Next is told where the workspace root is. A standalone app needs neither line.
const root = fileURLToPath(new URL('../..', import.meta.url));

/** @type {import('next').NextConfig} */
export default {
  turbopack: { root },
  outputFileTracingRoot: root,
};
