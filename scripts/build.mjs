// `npm run build`: the core to WebAssembly, then a self-contained static site in dist/
// (one script with the module inlined, so it also works from file:// on a USB stick).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { root, run, say } from './shell.mjs';
import { ensureBuildTools } from './setup.mjs';

const WASM = 'target/wasm32-unknown-unknown/release/freshlab.wasm';
// wasm-opt needs these when the module's target_features section is absent.
const FEATURES = ['--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-sign-ext', '--enable-mutable-globals', '--enable-reference-types', '--enable-multivalue'];

export async function build() {
  ensureBuildTools();
  say('compiling the core to WebAssembly (cargo build --release --target wasm32-unknown-unknown)…');
  run('cargo', ['build', '--release', '--lib', '--target', 'wasm32-unknown-unknown']);
  say('generating the JavaScript bindings (wasm-bindgen --target web)…');
  run('wasm-bindgen', ['--target', 'web', '--out-dir', 'build/pkg', WASM]);
  say('optimising the module (wasm-opt -O3)…');
  run('wasm-opt', ['-O3', ...FEATURES, 'build/pkg/freshlab_bg.wasm', '-o', 'build/pkg/freshlab_bg.wasm']);

  const esbuild = await import('esbuild');
  say('bundling the worker and the page (esbuild)…');
  await esbuild.build({ absWorkingDir: root, entryPoints: ['www/worker.js'], bundle: true, format: 'iife', target: 'es2022', outfile: 'build/worker.bundle', minify: true, logLevel: 'warning', logOverride: { 'empty-import-meta': 'silent' } });
  fs.rmSync(path.join(root, 'dist'), { recursive: true, force: true });
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['www/main.js'],
    bundle: true,
    format: 'iife',
    target: 'es2022',
    outfile: 'dist/app.js',
    minify: true,
    loader: { '.wasm': 'binary', '.bundle': 'text', '.csv': 'text' },
    // the bindings' default module URL uses import.meta; the page always passes the module
    logOverride: { 'empty-import-meta': 'silent' },
    logLevel: 'warning',
  });
  fs.copyFileSync(path.join(root, 'index.html'), path.join(root, 'dist/index.html'));
  for (const asset of ['style.css', 'favicon.svg']) fs.copyFileSync(path.join(root, 'www', asset), path.join(root, 'dist', asset));
  const size = (f) => `${(fs.statSync(path.join(root, f)).size / 1024).toFixed(0)} KB`;
  say(`dist/ is ready: app.js ${size('dist/app.js')} (module ${size('build/pkg/freshlab_bg.wasm')} inlined), index.html, style.css`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  build().catch((error) => {
    console.error(`freshlab: build failed: ${error.message}`);
    process.exit(1);
  });
}
