// `npm run build`: the core to WebAssembly, then a static site in dist/: index.html,
// app.js (the page and the worker), the module as its own file named by its content
// (fetched with streaming compilation and cached once for every embed), and
// freshlab-wasm.js, the module as text for a page opened from file:// (where fetch is
// refused), loaded only there.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { root, run, say } from './shell.mjs';
import { ensureBuildTools } from './setup.mjs';

// wasm-opt needs these when the module's target_features section is absent.
const FEATURES = ['--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-sign-ext', '--enable-mutable-globals', '--enable-reference-types', '--enable-multivalue'];

/** The site in `out` (dist/ by default). `features`: cargo features of the module — the
 * page's own build has none; the end-to-end tests' hooks (`test-hooks`, into dist-test/)
 * and the browser benchmark's kernels (`bench`, into dist-bench/) get their own builds,
 * so the page's module carries neither. `optimise: false` compiles in cargo's dev profile
 * and skips wasm-opt (about a minute less; for the tests' hooks build, whose two tests
 * only need the hooks). */
export async function build({ features = [], out = 'dist', optimise = true } = {}) {
  ensureBuildTools();
  const variant = features.length ? `-${features.join('-')}` : '';
  const pkg = `build/pkg${variant}`;
  const profile = optimise ? ['--release'] : [];
  const cargoArgs = ['build', ...profile, '--lib', '--target', 'wasm32-unknown-unknown', ...(features.length ? ['--features', features.join(',')] : [])];
  say(`compiling the core to WebAssembly (cargo ${cargoArgs.join(' ')})…`);
  run('cargo', cargoArgs);
  say('generating the JavaScript bindings (wasm-bindgen --target web)…');
  run('wasm-bindgen', ['--target', 'web', '--out-dir', pkg, `target/wasm32-unknown-unknown/${optimise ? 'release' : 'debug'}/freshlab.wasm`]);
  if (optimise) {
    say('optimising the module (wasm-opt -O3)…');
    run('wasm-opt', ['-O3', ...FEATURES, `${pkg}/freshlab_bg.wasm`, '-o', `${pkg}/freshlab_bg.wasm`]);
  }
  if (variant) {
    // the page and worker import build/pkg: this variant's bindings and module
    fs.rmSync(path.join(root, 'build/pkg'), { recursive: true, force: true });
    fs.cpSync(path.join(root, pkg), path.join(root, 'build/pkg'), { recursive: true });
  }

  const esbuild = await import('esbuild');
  say('bundling the worker and the page (esbuild)…');
  await esbuild.build({ absWorkingDir: root, entryPoints: ['www/worker.js'], bundle: true, format: 'iife', target: 'es2022', outfile: 'build/worker.bundle', minify: true, logLevel: 'warning', logOverride: { 'empty-import-meta': 'silent' } });
  fs.rmSync(path.join(root, out), { recursive: true, force: true });
  fs.mkdirSync(path.join(root, out), { recursive: true });
  const wasm = fs.readFileSync(path.join(root, 'build/pkg/freshlab_bg.wasm'));
  const wasmName = `freshlab.${crypto.createHash('sha256').update(wasm).digest('hex').slice(0, 12)}.wasm`;
  fs.writeFileSync(path.join(root, out, wasmName), wasm);
  fs.writeFileSync(path.join(root, out, 'freshlab-wasm.js'), `globalThis.__freshlabWasm="${wasm.toString('base64')}";\n`);
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['www/main.js'],
    bundle: true,
    format: 'iife',
    target: 'es2022',
    outfile: `${out}/app.js`,
    minify: true,
    loader: { '.bundle': 'text', '.csv': 'text' },
    define: { FRESHLAB_WASM: JSON.stringify(wasmName) },
    // the bindings' default module URL uses import.meta; the page always passes the module
    logOverride: { 'empty-import-meta': 'silent' },
    logLevel: 'warning',
  });
  fs.copyFileSync(path.join(root, 'index.html'), path.join(root, out, 'index.html'));
  // the samples: as CSV to download, and as scripts the page loads when asked for
  fs.mkdirSync(path.join(root, out, 'samples'));
  for (const name of fs.readdirSync(path.join(root, 'www/samples')).filter((f) => f.endsWith('.csv'))) {
    const text = fs.readFileSync(path.join(root, 'www/samples', name), 'utf8');
    fs.writeFileSync(path.join(root, out, 'samples', name), text);
    fs.writeFileSync(path.join(root, out, 'samples', `${name}.js`), `(globalThis.__freshlabSamples ??= {})[${JSON.stringify(name)}] = ${JSON.stringify(text)};\n`);
  }
  for (const asset of ['style.css', 'favicon.svg']) fs.copyFileSync(path.join(root, 'www', asset), path.join(root, out, asset));
  const size = (f) => `${(fs.statSync(path.join(root, f)).size / 1024).toFixed(0)} KB`;
  say(`${out}/ is ready: app.js ${size(`${out}/app.js`)}, ${wasmName} ${size(`${out}/${wasmName}`)}, freshlab-wasm.js (for file:// only), index.html, style.css`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  build().catch((error) => {
    console.error(`freshlab: build failed: ${error.message}`);
    process.exit(1);
  });
}
