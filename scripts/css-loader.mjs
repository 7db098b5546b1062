// CopilotKit's v2 entry imports its own stylesheet. Bundlers handle that; plain Node does not,
// so the package check loads `.css` files as empty modules, as a bundler's CSS pipeline would.
import { register } from 'node:module';
import { createRequire } from 'node:module';

register(new URL('./css-loader-hooks.mjs', import.meta.url));
createRequire(import.meta.url).extensions['.css'] = () => {};
