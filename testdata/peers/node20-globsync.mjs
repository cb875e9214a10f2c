// Loaded with `node --import ./node20-globsync.mjs`: the conformance
// harness (@modelcontextprotocol/conformance) imports fs.globSync, which
// Node.js has from version 22 on. On an older Node.js this gives the
// harness an fs whose globSync says so when called (the client scenarios
// never call it); on Node.js 22 and later it does nothing.
import { register } from 'node:module';

if (Number(process.versions.node.split('.')[0]) < 22) {
  const shim = [
    "import fs from 'node:fs';",
    "export * from 'node:fs';",
    'export default fs;',
    "export function globSync() { throw new Error('fs.globSync needs Node.js 22 or later'); }",
  ].join('\n');
  const hooks = `
    const shim = ${JSON.stringify('data:text/javascript,' + encodeURIComponent(shim))};
    export async function resolve(specifier, context, next) {
      if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL &&
          context.parentURL.includes('/@modelcontextprotocol/conformance/')) {
        return { url: shim, shortCircuit: true };
      }
      return next(specifier, context);
    }`;
  register('data:text/javascript,' + encodeURIComponent(hooks));
}
