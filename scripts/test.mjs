// `npm test`: every test layer, each counted. A layer that fails, or runs no test, fails
// the whole command.
//
// Most steps keep both cores busy, but some hold one and leave the other idle (a test
// run in node, the release build's link-time optimisation). So the compilations (native
// tests, wasm tests with the end-to-end tests' hooks, whose module the hooks' site then
// takes, and the page) run one after another while each finished build's tests run
// beside the next compilation; the end-to-end
// tests run last, two files at a time, with nothing else running (they time the page's
// main thread by its CPU, not by the clock). Three compilations at once were measured
// slower than in turn: 9 min 14 s for the three, against 7 min 31 s one after another.
// What is missing (npm packages, wasm-bindgen, Chromium, the peer's Python) is installed
// by scripts/setup.mjs, beside the native compilation, which needs none of it.
// The wasm builds use their own target directory (target/wasm-tests), so that cargo does
// not make them wait for the native layer's lock on target/debug. Each step's output goes
// to the terminal, every line tagged with the step, and whole to
// build/test-logs/<step>.log.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { root, say } from './shell.mjs';

const LOGS = path.join(root, 'build', 'test-logs');
const WASM_TARGET_DIR = 'target/wasm-tests';
const HOOKS = ['test-hooks'];

/** One step's account: a tagged line on the terminal, and its own log file. */
function journal(tag) {
  fs.mkdirSync(LOGS, { recursive: true });
  const file = path.join(LOGS, `${tag}.log`);
  fs.writeFileSync(file, '');
  // a line begun on one stream (stdout, stderr) is finished on that stream
  const partials = {};
  const write = (chunk, stream = 'out') => {
    fs.appendFileSync(file, chunk);
    const lines = ((partials[stream] ?? '') + chunk).split('\n');
    partials[stream] = lines.pop();
    for (const line of lines) process.stdout.write(`[${tag}] ${line}\n`);
  };
  const flush = () => {
    for (const partial of Object.values(partials)) if (partial) process.stdout.write(`[${tag}] ${partial}\n`);
    for (const stream of Object.keys(partials)) partials[stream] = '';
  };
  return { file, write, flush, tell: (message) => write(`\x1b[1mfreshlab:\x1b[0m ${message}\n`) };
}

/** Runs a command in the background through a journal; resolves {code, text}. */
function runLogged(log, command, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env } });
    let text = '';
    // decoded per stream, so that a character split between two chunks stays whole
    const pass = (stream) => (chunk) => {
      text += chunk;
      log.write(chunk, stream);
    };
    child.stdout.setEncoding('utf8').on('data', pass('out'));
    child.stderr.setEncoding('utf8').on('data', pass('err'));
    child.on('error', (error) => {
      // a command that cannot start (missing, not executable) says why in the log and the error
      const reason = `${command} could not start: ${error.message}\n`;
      log.write(reason, 'err');
      log.flush();
      resolve({ code: -1, text: text + reason, reason });
    });
    child.on('close', (code) => {
      log.flush();
      resolve({ code, text });
    });
  });
}

/** The same, throwing when the command fails (for the builds). */
async function mustRun(log, command, args, env) {
  const { code, reason } = await runLogged(log, command, args, env);
  if (reason) throw new Error(`${reason.trim()} (see ${path.relative(root, log.file)})`);
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} failed with exit code ${code} (see ${path.relative(root, log.file)})`);
}

/** Totals of cargo's and wasm-bindgen-test's "test result:" lines. */
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

/** Compiles the wasm test modules; resolves their paths (cargo's test executables) and
 * the core's own module, which cargo links beside them. Compiled with the end-to-end
 * tests' hooks (`test-hooks`: two exports, a panic and an endless loop, that no test here
 * calls), so that this module is the one the hooks build needs: one compilation of the
 * core in the dev profile instead of two (about 50 s here). A `cargo build` of the same
 * features would not find it fresh: wasm-bindgen-test, a dev-dependency, turns on
 * features of shared crates (num-traits' `libm`, serde_json's `alloc`). */
async function buildWasmTests(log) {
  const args = ['test', '--target', 'wasm32-unknown-unknown', '--features', HOOKS.join(','), ...wasmTestTargets(), '--no-run', '--message-format=json-render-diagnostics'];
  log.tell(`compiling the tests to WebAssembly (cargo ${args.join(' ')})…`);
  const { code, text } = await runLogged(log, 'cargo', args, { CARGO_TARGET_DIR: WASM_TARGET_DIR });
  if (code !== 0) throw new Error(`the wasm test build failed with exit code ${code} (see ${path.relative(root, log.file)})`);
  const artifacts = text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line))
    .filter((m) => m.reason === 'compiler-artifact');
  const modules = artifacts.filter((m) => m.profile?.test && m.executable).map((m) => m.executable);
  if (modules.length === 0) throw new Error('the wasm test build made no test module');
  const core = artifacts.find((m) => m.target?.name === 'freshlab' && m.target.kind.includes('cdylib') && !m.profile?.test)?.filenames.find((f) => f.endsWith('.wasm'));
  if (!core) throw new Error('the wasm test build made no module of the core');
  return { modules, core };
}

/** Runs every wasm test module with wasm-bindgen-test-runner, one after another, as
 * cargo's runner would; resolves {code, text}. */
async function runWasmTests(log, modules, env) {
  let code = 0;
  let text = '';
  for (const module of modules) {
    const result = await runLogged(log, 'wasm-bindgen-test-runner', [module], env);
    code ||= result.code;
    text += result.text;
  }
  return { code, text };
}

const CHROMIUM_WORKER = {
  // in a dedicated worker, where the page runs the core: on the page's main thread the
  // library's synchronous tests (28–33 s here) kept ChromeDriver's poll from an answer
  // past its 30 s and failed a fresh clone ("Timed out receiving message from
  // renderer"); the runner's own wait is 5 minutes (its default of 20 s failed once too)
  WASM_BINDGEN_USE_DEDICATED_WORKER: '1',
  CHROMEDRIVER: '/usr/bin/chromedriver',
  WASM_BINDGEN_TEST_TIMEOUT: '300',
};

function chromiumLeftovers() {
  return new Set(fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith('org.chromium.Chromium.')));
}

/** A test layer: runs `work(log)` (which resolves {code, text}) once `after` has settled,
 * and counts its tests. A layer whose prerequisite failed fails, saying which. */
async function layer(results, { name, tag, after = [], work, counts }) {
  const log = journal(tag);
  const ready = await Promise.allSettled(after);
  const failed = ready.find((r) => r.status === 'rejected');
  const began = Date.now();
  if (failed) {
    results.push({ name, passed: 0, failed: 0, ok: false, seconds: 0, why: `not run: ${failed.reason.message}` });
    return;
  }
  say(`test layer started: ${name}`);
  const { code, text } = await work(log);
  const { passed, failed: failures } = counts(text);
  const ok = code === 0 && failures === 0 && passed > 0;
  const seconds = Math.round((Date.now() - began) / 1000);
  say(`test layer ${ok ? 'passed' : 'FAILED'}: ${name} (${seconds} s)`);
  results.push({ name, passed, failed: failures, ok, seconds, why: code !== 0 && failures === 0 ? `exit code ${code}, see ${path.relative(root, log.file)}` : passed === 0 ? 'no test ran' : '' });
}

/** A build step: resolves when done, rejects (and is reported) when it fails. */
async function step(steps, { name, tag, after = [], work }) {
  await Promise.all(after);
  const log = journal(tag);
  const began = Date.now();
  say(`started: ${name}`);
  try {
    const value = await work(log);
    steps.push({ name, seconds: Math.round((Date.now() - began) / 1000), ok: true });
    return value;
  } catch (error) {
    steps.push({ name, seconds: Math.round((Date.now() - began) / 1000), ok: false });
    say(`FAILED: ${name}: ${error.message}`);
    throw error;
  }
}

async function main() {
  const started = Date.now();
  const before = chromiumLeftovers();
  const { build } = await import('./build.mjs');
  const site = (log, options) => build({ ...options, exec: (command, args, env) => mustRun(log, command, args, env), tell: log.tell });

  const results = [];
  const steps = [];
  const quiet = (promise) => promise.catch(() => {});
  // the tools (npm ci, the wasm target and wasm-bindgen, Chromium, the peer's Python),
  // installed where missing, beside the native compilation, which needs none of them
  const tools = step(steps, { name: 'the tools (npm ci, wasm-bindgen, Chromium, Python)', tag: 'setup', work: (log) => mustRun(log, process.execPath, ['scripts/setup.mjs']) });
  // the compilations, in turn
  const nativeTests = step(steps, { name: 'the native test build', tag: 'native-build', work: (log) => mustRun(log, 'cargo', ['test', '--all-targets', '--no-run']) });
  const wasmTests = step(steps, { name: 'the wasm test build', tag: 'wasm-build', after: [quiet(nativeTests), tools], work: buildWasmTests });
  // the hooks build takes the module the wasm test build linked: seconds
  const hooks = step(steps, {
    name: 'the end-to-end tests’ hooks build (dist-test/)',
    tag: 'hooks-build',
    after: [quiet(wasmTests)],
    work: async (log) => site(log, { features: HOOKS, out: 'dist-test', optimise: false, core: (await wasmTests).core }),
  });
  const page = step(steps, { name: 'the page (dist/, release)', tag: 'page-build', after: [quiet(hooks), tools], work: (log) => site(log) });
  // the tests of each build, beside the next compilation
  const native = layer(results, {
    name: 'native (cargo test)',
    tag: 'native',
    after: [nativeTests, tools],
    work: (log) => runLogged(log, 'cargo', ['test', '--all-targets']),
    counts: cargoCounts,
  });
  const wasmNode = layer(results, {
    name: 'wasm in node (wasm-bindgen-test)',
    tag: 'wasm-node',
    after: [wasmTests],
    work: async (log) => runWasmTests(log, (await wasmTests).modules, {}),
    counts: cargoCounts,
  });
  const wasmChromium = layer(results, {
    name: 'wasm in a headless Chromium worker (wasm-bindgen-test)',
    tag: 'wasm-chromium',
    after: [wasmTests, wasmNode],
    work: async (log) => runWasmTests(log, (await wasmTests).modules, CHROMIUM_WORKER),
    counts: cargoCounts,
  });
  await layer(results, {
    name: 'end-to-end in headless Chromium (playwright)',
    tag: 'e2e',
    after: [page, hooks, native, wasmNode, wasmChromium],
    work: (log) => runLogged(log, process.execPath, ['--test', '--test-concurrency=2', '--test-reporter=tap', 'tests/e2e/']),
    counts: nodeCounts,
  });

  for (const dir of chromiumLeftovers()) if (!before.has(dir)) fs.rmSync(path.join(os.tmpdir(), dir), { recursive: true, force: true });
  say(`builds (in turn, beside the layers' test runs; logs in ${path.relative(root, LOGS)}/):`);
  for (const s of steps) console.log(`  ${s.ok ? 'ok  ' : 'FAIL'}  ${s.name.padEnd(56)} ${String(s.seconds).padStart(4)} s`);
  say('test layers (each timed from the end of its build; they overlap but for the last):');
  const order = ['native', 'wasm in node', 'wasm in a headless', 'end-to-end'];
  results.sort((a, b) => order.findIndex((o) => a.name.startsWith(o)) - order.findIndex((o) => b.name.startsWith(o)));
  for (const r of results) {
    console.log(`  ${r.ok ? 'ok  ' : 'FAIL'}  ${r.name.padEnd(56)} ${String(r.passed).padStart(4)} passed, ${r.failed} failed, ${String(r.seconds).padStart(4)} s${r.why ? ` (${r.why})` : ''}`);
  }
  const minutes = ((Date.now() - started) / 60000).toFixed(1);
  if (results.length < 4 || results.some((r) => !r.ok) || steps.some((s) => !s.ok)) {
    say(`some test layer failed (${minutes} min)`);
    process.exit(1);
  }
  say(`all ${results.length} layers passed in ${minutes} min, installs and builds included`);
}

main().catch((error) => {
  console.error(`freshlab: tests could not run: ${error.message}`);
  process.exit(1);
});
