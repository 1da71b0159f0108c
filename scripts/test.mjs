// `npm test`: every test layer, each counted. A layer that fails, or runs no test, fails
// the whole command.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { root, say } from './shell.mjs';
import { ensureNodeModules, ensureBuildTools, ensureChromium, ensurePeerPython } from './setup.mjs';

/** Runs a command, streaming and capturing its output; resolves {code, text}. */
function tee(command, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env } });
    let text = '';
    const pass = (stream) => (chunk) => {
      text += chunk;
      stream.write(chunk);
    };
    child.stdout.on('data', pass(process.stdout));
    child.stderr.on('data', pass(process.stderr));
    child.on('error', (error) => resolve({ code: -1, text: `${command} could not start: ${error.message}` }));
    child.on('close', (code) => resolve({ code, text }));
  });
}

/** Totals of cargo's "test result:" lines. */
function cargoCounts(text) {
  let passed = 0;
  let failed = 0;
  for (const m of text.matchAll(/test result: \w+\. (\d+) passed; (\d+) failed/g)) {
    passed += Number(m[1]);
    failed += Number(m[2]);
  }
  return { passed, failed };
}

/** Totals of node --test's summary. */
function nodeCounts(text) {
  const get = (name) => Number(text.match(new RegExp(`^# ${name} (\\d+)`, 'm'))?.[1] ?? 0);
  return { passed: get('pass'), failed: get('fail') + get('cancelled') };
}

const WASM_RUNNER = { CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER: 'wasm-bindgen-test-runner' };

/** The library's tests and every integration test that does not declare itself native
 * only (`#![cfg(not(target_arch = "wasm32"))]`): compiling and linking those, and the
 * CLI, for WebAssembly would only make empty test modules. */
function wasmTestTargets() {
  const dir = path.join(root, 'tests');
  const native = /^#!\[cfg\(not\(target_arch = "wasm32"\)\)\]/m;
  const targets = fs
    .readdirSync(dir, { withFileTypes: true })
    .map((e) => (e.isFile() && e.name.endsWith('.rs') ? [e.name.slice(0, -3), path.join(dir, e.name)] : [e.name, path.join(dir, e.name, 'main.rs')]))
    .filter(([, file]) => fs.existsSync(file) && !native.test(fs.readFileSync(file, 'utf8')));
  return ['--lib', ...targets.flatMap(([name]) => ['--test', name])];
}
const WASM_TESTS = ['test', '--target', 'wasm32-unknown-unknown', ...wasmTestTargets()];

const layers = [
  { name: 'native (cargo test)', command: 'cargo', args: ['test', '--all-targets'], counts: cargoCounts },
  { name: 'wasm in node (wasm-bindgen-test)', command: 'cargo', args: WASM_TESTS, env: WASM_RUNNER, counts: cargoCounts },
  {
    name: 'wasm in a headless Chromium worker (wasm-bindgen-test)',
    command: 'cargo',
    args: WASM_TESTS,
    // in a dedicated worker, where the page runs the core: on the page's main thread the
    // library's synchronous tests (28–33 s here) kept ChromeDriver's poll from an answer
    // past its 30 s and failed a fresh clone ("Timed out receiving message from
    // renderer"); the runner's own wait is 5 minutes (its default of 20 s failed once too)
    env: { ...WASM_RUNNER, WASM_BINDGEN_USE_DEDICATED_WORKER: '1', CHROMEDRIVER: '/usr/bin/chromedriver', WASM_BINDGEN_TEST_TIMEOUT: '300' },
    counts: cargoCounts,
  },
  { name: 'end-to-end in headless Chromium (playwright)', build: true, command: process.execPath, args: ['--test', '--test-reporter=tap', 'tests/e2e/'], counts: nodeCounts },
];

function chromiumLeftovers() {
  return new Set(fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith('org.chromium.Chromium.')));
}

async function main() {
  const started = Date.now();
  ensureNodeModules();
  ensureBuildTools();
  ensureChromium();
  ensurePeerPython();
  const before = chromiumLeftovers();
  const results = [];
  for (const layer of layers) {
    say(`test layer: ${layer.name}`);
    const began = Date.now();
    if (layer.build) {
      const { build } = await import('./build.mjs');
      await build({ features: ['test-hooks'], out: 'dist-test', optimise: false });
      await build();
    }
    const { code, text } = await tee(layer.command, layer.args, layer.env);
    const { passed, failed } = layer.counts(text);
    const ok = code === 0 && failed === 0 && passed > 0;
    const seconds = Math.round((Date.now() - began) / 1000);
    results.push({ name: layer.name, passed, failed, ok, seconds, why: code !== 0 && failed === 0 ? `exit code ${code}` : passed === 0 ? 'no test ran' : '' });
  }
  for (const dir of chromiumLeftovers()) if (!before.has(dir)) fs.rmSync(path.join(os.tmpdir(), dir), { recursive: true, force: true });
  say('test layers:');
  for (const r of results) {
    console.log(`  ${r.ok ? 'ok  ' : 'FAIL'}  ${r.name.padEnd(56)} ${String(r.passed).padStart(4)} passed, ${r.failed} failed, ${String(r.seconds).padStart(4)} s (builds included)${r.why ? ` (${r.why})` : ''}`);
  }
  if (results.some((r) => !r.ok)) {
    say('some test layer failed');
    process.exit(1);
  }
  say(`all ${results.length} layers passed in ${((Date.now() - started) / 60000).toFixed(1)} min, installs and builds included`);
}

main().catch((error) => {
  console.error(`freshlab: tests could not run: ${error.message}`);
  process.exit(1);
});
