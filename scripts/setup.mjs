// Installs what Freshlab needs and is missing, saying what it does. Node built-ins only:
// this runs before `npm ci` on a fresh machine.
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { root, run, say, works, output } from './shell.mjs';

const cargoBin = path.join(os.homedir(), '.cargo', 'bin');
if (!process.env.PATH.split(path.delimiter).includes(cargoBin)) process.env.PATH = `${cargoBin}${path.delimiter}${process.env.PATH}`;
const nodeBin = path.join(root, 'node_modules', '.bin');
if (!process.env.PATH.split(path.delimiter).includes(nodeBin)) process.env.PATH = `${nodeBin}${path.delimiter}${process.env.PATH}`;

/** npm packages (esbuild, binaryen's wasm-opt, playwright-core), from package-lock.json. */
export function ensureNodeModules() {
  const lock = path.join(root, 'package-lock.json');
  const stamp = path.join(root, 'node_modules', '.package-lock.json');
  const fresh = fs.existsSync(stamp) && fs.statSync(stamp).mtimeMs >= fs.statSync(lock).mtimeMs;
  if (fresh) return;
  say('installing the npm packages of package-lock.json (npm ci)…');
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

/** The Rust target for WebAssembly. */
export function ensureWasmTarget() {
  if (!works('cargo')) throw new Error('cargo is not installed: install Rust with rustup (https://rustup.rs) and run again');
  const installed = output('rustup', ['target', 'list', '--installed']) ?? '';
  if (installed.split('\n').includes('wasm32-unknown-unknown')) return;
  say('adding the Rust target wasm32-unknown-unknown (rustup target add)…');
  run('rustup', ['target', 'add', 'wasm32-unknown-unknown']);
}

/** The wasm-bindgen version pinned in Cargo.lock. */
export function wasmBindgenVersion() {
  const lock = fs.readFileSync(path.join(root, 'Cargo.lock'), 'utf8');
  const match = lock.match(/name = "wasm-bindgen"\nversion = "([^"]+)"/);
  if (!match) throw new Error('Cargo.lock does not list wasm-bindgen');
  return match[1];
}

/** wasm-bindgen-cli (and its test runner) at exactly the crate's version. */
export function ensureWasmBindgen() {
  const want = wasmBindgenVersion();
  const have = output('wasm-bindgen', ['--version']);
  if (have === `wasm-bindgen ${want}` && works('wasm-bindgen-test-runner', ['--version'])) return;
  say(`installing wasm-bindgen-cli ${want} to match Cargo.lock (cargo install; about 5 minutes on 2 cores)…`);
  // Without --locked: the CLI's own lock file does not resolve against this registry.
  run('cargo', ['install', 'wasm-bindgen-cli', '--version', want]);
}

/** Debian's chromium and chromedriver, for the browser test layers. */
export function ensureChromium() {
  if (fs.existsSync('/usr/bin/chromium') && fs.existsSync('/usr/bin/chromedriver')) return;
  const isRoot = process.getuid?.() === 0;
  if (!isRoot) throw new Error('the browser tests need Chromium and ChromeDriver: run as root once, or install the Debian packages chromium and chromium-driver');
  say('installing Debian\'s chromium and chromium-driver for the browser tests (apt-get)…');
  run('apt-get', ['update', '-q']);
  run('apt-get', ['install', '-y', '-q', 'chromium', 'chromium-driver'], { env: { DEBIAN_FRONTEND: 'noninteractive' } });
}

/** Debian's slurm-wlm and munge, for the test that runs the researcher's guide's Slurm
 * recipes on a one-node cluster (tests/slurm.rs starts and stops its daemons). */
export function ensureSlurm() {
  if (['/usr/bin/sbatch', '/usr/sbin/slurmctld', '/usr/sbin/slurmd', '/usr/sbin/munged'].every((f) => fs.existsSync(f))) return;
  const isRoot = process.getuid?.() === 0;
  if (!isRoot) throw new Error('the Slurm test needs Slurm and munge: run as root once, or install the Debian packages slurm-wlm and munge');
  say("installing Debian's slurm-wlm and munge for the one-node Slurm test (apt-get)…");
  run('apt-get', ['update', '-q']);
  run('apt-get', ['install', '-y', '-q', 'slurm-wlm', 'munge'], { env: { DEBIAN_FRONTEND: 'noninteractive' } });
}

/**
 * Python in build/peer-venv with numpy for the reference optima
 * (../shared/reference/crawl_rates.py), and scipy too where the LambdaCrawl peer's code
 * is kept (../shared/peers/optimal-freshness); nothing to do where ../shared holds
 * neither (the tests then say they skip).
 */
export function ensurePeerPython() {
  const shared = path.join(root, '..', 'shared');
  const peer = fs.existsSync(path.join(shared, 'peers', 'optimal-freshness'));
  if (!peer && !fs.existsSync(path.join(shared, 'reference', 'crawl_rates.py'))) return;
  const venv = path.join(root, 'build', 'peer-venv');
  const python = path.join(venv, 'bin', 'python');
  const modules = peer ? ['numpy', 'scipy'] : ['numpy'];
  if (fs.existsSync(python) && works(python, ['-c', `import ${modules.join(', ')}`])) return;
  say(`installing ${modules.join(' and ')} into build/peer-venv for the ${peer ? 'LambdaCrawl peer and the ' : ''}reference optima (python3 -m venv, pip)…`);
  if (!fs.existsSync(python)) run('python3', ['-m', 'venv', venv]);
  run(path.join(venv, 'bin', 'pip'), ['install', '-q', 'numpy==2.4.6', ...(peer ? ['scipy==1.17.1'] : [])]);
}

export function ensureBuildTools() {
  ensureNodeModules();
  ensureWasmTarget();
  ensureWasmBindgen();
}

/** Everything the test layers need. */
export function ensureTestTools() {
  ensureBuildTools();
  ensureChromium();
  ensureSlurm();
  ensurePeerPython();
}

// `node scripts/setup.mjs`: the test layers' tools, in a process of its own (npm test runs
// it beside its first compilation, which needs none of them)
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    ensureTestTools();
  } catch (error) {
    console.error(`freshlab: ${error.message}`);
    process.exit(1);
  }
}
