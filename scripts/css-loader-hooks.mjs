// Module hooks for scripts/css-loader.mjs: any `.css` import becomes an empty module.
export async function load(url, context, nextLoad) {
  if (url.endsWith('.css')) return { format: 'module', source: '', shortCircuit: true };
  return nextLoad(url, context);
}
