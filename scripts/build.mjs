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
 * only need the hooks). `targetDir`: cargo's target directory. `exec(command, args, env)`
 * and `tell(message)` run and report each step (by default in the foreground; `npm test`
 * runs builds beside its test layers with its own). `core`: a module cargo has already
 * compiled with these features (`npm test` takes the one its wasm test build links), in
 * place of compiling one. Every variant keeps its bindings in build/pkg-<features> and
 * bundles the worker in memory, so two builds may run at once. */
export async function build({ features = [], out = 'dist', optimise = true, targetDir = 'target', core = null, exec = (command, args, env) => run(command, args, { env }), tell = say } = {}) {
  ensureBuildTools();
  const variant = features.length ? `-${features.join('-')}` : '';
  const pkg = `build/pkg${variant}`;
  if (!core) {
    const profile = optimise ? ['--release'] : [];
    const cargoArgs = ['build', ...profile, '--lib', '--target', 'wasm32-unknown-unknown', ...(features.length ? ['--features', features.join(',')] : [])];
    tell(`compiling the core to WebAssembly (cargo ${cargoArgs.join(' ')})…`);
    await exec('cargo', cargoArgs, { CARGO_TARGET_DIR: targetDir });
  }
  tell('generating the JavaScript bindings (wasm-bindgen --target web)…');
  await exec('wasm-bindgen', ['--target', 'web', '--out-dir', pkg, core ?? `${targetDir}/wasm32-unknown-unknown/${optimise ? 'release' : 'debug'}/freshlab.wasm`]);
  if (optimise) {
    tell('optimising the module (wasm-opt -O3)…');
    await exec('wasm-opt', ['-O3', ...FEATURES, `${pkg}/freshlab_bg.wasm`, '-o', `${pkg}/freshlab_bg.wasm`]);
  }

  const esbuild = await import('esbuild');
  tell('bundling the worker and the page (esbuild)…');
  const bindings = bindingsOf(pkg);
  const worker = await esbuild.build({ absWorkingDir: root, entryPoints: ['www/worker.js'], bundle: true, format: 'iife', target: 'es2022', write: false, outfile: 'worker.js', minify: true, plugins: [bindings], logLevel: 'warning', logOverride: { 'empty-import-meta': 'silent' } });
  fs.rmSync(path.join(root, out), { recursive: true, force: true });
  fs.mkdirSync(path.join(root, out), { recursive: true });
  const wasm = fs.readFileSync(path.join(root, pkg, 'freshlab_bg.wasm'));
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
    loader: { '.csv': 'text' },
    plugins: [bindings, workerSource(worker.outputFiles[0].text)],
    define: { FRESHLAB_WASM: JSON.stringify(wasmName) },
    // the bindings' default module URL uses import.meta; the page always passes the module
    logOverride: { 'empty-import-meta': 'silent' },
    logLevel: 'warning',
  });
  fs.copyFileSync(path.join(root, 'index.html'), path.join(root, out, 'index.html'));
  // the samples (CSV page lists, a crawler's XML configuration, records): as files to download,
  // and as scripts the page loads when asked for
  fs.mkdirSync(path.join(root, out, 'samples'));
  for (const name of fs.readdirSync(path.join(root, 'www/samples')).filter((f) => ['.csv', '.xml', '.cxml', '.cdx', '.txt', '.properties', '.py'].some((ext) => f.endsWith(ext)))) {
    const text = fs.readFileSync(path.join(root, 'www/samples', name), 'utf8');
    fs.writeFileSync(path.join(root, out, 'samples', name), text);
    fs.writeFileSync(path.join(root, out, 'samples', `${name}.js`), `(globalThis.__freshlabSamples ??= {})[${JSON.stringify(name)}] = ${JSON.stringify(text)};\n`);
  }
  for (const asset of ['style.css', 'favicon.svg']) fs.copyFileSync(path.join(root, 'www', asset), path.join(root, out, asset));
  const size = (f) => `${(fs.statSync(path.join(root, f)).size / 1024).toFixed(0)} KB`;
  tell(`${out}/ is ready: app.js ${size(`${out}/app.js`)}, ${wasmName} ${size(`${out}/${wasmName}`)}, freshlab-wasm.js (for file:// only), index.html, style.css`);
}

/** esbuild: the page's and the worker's import of build/pkg/freshlab.js, from this
 * variant's bindings. */
function bindingsOf(pkg) {
  return {
    name: 'freshlab-bindings',
    setup(b) {
      b.onResolve({ filter: /\/build\/pkg\/freshlab\.js$/ }, () => ({ path: path.join(root, pkg, 'freshlab.js') }));
    },
  };
}

/** esbuild: the page's import of build/worker.bundle, as the worker's bundled text. */
function workerSource(text) {
  return {
    name: 'freshlab-worker-source',
    setup(b) {
      b.onResolve({ filter: /\/build\/worker\.bundle$/ }, () => ({ path: 'worker.bundle', namespace: 'freshlab-worker' }));
      b.onLoad({ filter: /.*/, namespace: 'freshlab-worker' }, () => ({ contents: text, loader: 'text' }));
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  build().catch((error) => {
    console.error(`freshlab: build failed: ${error.message}`);
    process.exit(1);
  });
}
