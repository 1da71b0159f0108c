// Running commands with a visible account of what is being done.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function say(message) {
  console.log(`\x1b[1mfreshlab:\x1b[0m ${message}`);
}

/** Runs a command in the project root (or `options.cwd`), streaming its output; throws if it fails. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: options.cwd ?? root, stdio: options.capture ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: { ...process.env, ...options.env }, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (result.error) throw new Error(`${command} could not start: ${result.error.message}`);
  if (result.status !== 0 && !options.allowFailure) {
    const tail = options.capture ? `\n${result.stdout}\n${result.stderr}` : '';
    throw new Error(`${command} ${args.join(' ')} failed with exit code ${result.status}${tail}`);
  }
  return result;
}

/** True when `command` runs (exit code 0) with `args`. */
export function works(command, args = ['--version']) {
  const result = spawnSync(command, args, { stdio: 'ignore' });
  return !result.error && result.status === 0;
}

/** The output of a command, or null if it cannot run. */
export function output(command, args) {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  return result.error || result.status !== 0 ? null : result.stdout.trim();
}

/** Writes `section` (which starts with `<!-- name -->` and ends with `<!-- /name -->`)
 * into the Markdown file `file`: in place of the block of that name, or before its
 * "## Raw data" heading (else at its end) the first time. */
export function writeSection(file, name, section) {
  const [open, close] = [`<!-- ${name} -->`, `<!-- /${name} -->`];
  let text = fs.readFileSync(file, 'utf8');
  const [a, b] = [text.indexOf(open), text.indexOf(close)];
  if (a >= 0 && b > a) text = text.slice(0, a) + section + text.slice(b + close.length);
  else {
    const raw = text.indexOf('## Raw data');
    text = raw >= 0 ? `${text.slice(0, raw)}${section}\n\n${text.slice(raw)}` : `${text.trimEnd()}\n\n${section}\n`;
  }
  fs.writeFileSync(file, text);
}

/** The named blocks (`<!-- name -->` … `<!-- /name -->`) of a Markdown text, in order. */
export function sectionsOf(text) {
  return [...text.matchAll(/<!-- ([a-z]+) -->[\s\S]*?<!-- \/\1 -->/g)].map((m) => m[0]);
}

/** A benchmark's start: the load average now (said when the machine is busy: every
 * figure then runs slower), and the release CLI built. */
export function benchStart() {
  const loadAtStart = os.loadavg()[0];
  if (loadAtStart > 0.5) say(`the machine is busy (load average ${loadAtStart.toFixed(2)}): other work running now slows every figure`);
  say('building the CLI (cargo build --release)…');
  run('cargo', ['build', '--release', '--quiet', '--bin', 'freshlab']);
  return { loadAtStart, bin: path.join(root, 'target', 'release', 'freshlab') };
}
