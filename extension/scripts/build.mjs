// Bundles the client and the server into extension/dist as two CommonJS files (esbuild).
// Usage: node extension/scripts/build.mjs [--production]
import { build } from 'esbuild';
import { chmod, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const extensionRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const production = process.argv.includes('--production');

const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  // The plugin reads its own package.json at run time; esbuild inlines the JSON.
  loader: { '.json': 'json' },
};

await Promise.all([
  build({
    ...common,
    entryPoints: { client: path.join(extensionRoot, 'src/client/extension.ts') },
    outdir: path.join(extensionRoot, 'dist'),
    external: ['vscode'],
  }),
  build({
    ...common,
    entryPoints: { server: path.join(extensionRoot, 'src/server/main.ts') },
    outdir: path.join(extensionRoot, 'dist'),
    // @typescript-eslint/utils pulls in all of ESLint; its config loader's optional TypeScript-config
    // loader (jiti) is never reached by the Linter class the server uses.
    external: ['jiti', 'jiti/package.json'],
  }),
]);

// `locksmith-lsp --stdio`: a tiny launcher so the server runs without the editor.
const launcher = path.join(extensionRoot, 'dist/locksmith-lsp.js');
await writeFile(
  launcher,
  "#!/usr/bin/env node\n'use strict';\nif (!process.argv.slice(2).some((arg) => arg.startsWith('--'))) process.argv.push('--stdio');\nrequire('./server.js');\n",
);
await chmod(launcher, 0o755);

for (const name of ['client.js', 'server.js']) {
  const { size } = await stat(path.join(extensionRoot, 'dist', name));
  console.log(`extension/dist/${name}: ${(size / 1024).toFixed(0)} KB`);
}
