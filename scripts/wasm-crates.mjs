// `npm run wasm:crates`: what each crate adds to the page's WebAssembly module. Takes the
// module cargo builds for the page (target/wasm32-unknown-unknown/release/freshlab.wasm)
// through wasm-bindgen, as the build does (which drops its descriptor functions), but not
// through wasm-opt, whose output has no function names; adds each function body's bytes
// to the crate its symbol belongs to (a generic function counts for the crate that
// defines it, whoever instantiates it); prints the table, or writes it between
// <!-- crates --> and <!-- /crates --> in BENCHMARKS.md with `--write`. Link-time
// inlining moves some code into its callers' crates: the shares are close, not exact.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { root, run, say, writeSection } from './shell.mjs';

const raw = path.join(root, 'target', 'wasm32-unknown-unknown', 'release', 'freshlab.wasm');
if (!fs.existsSync(raw)) {
  console.error(`${path.relative(root, raw)} is missing: run \`node scripts/build.mjs\` (or npm start) first`);
  process.exit(2);
}
run('wasm-bindgen', ['--target', 'web', '--out-dir', 'build/crates', raw]);
const file = path.join(root, 'build', 'crates', 'freshlab_bg.wasm');
const bytes = fs.readFileSync(file);

/** Reads an unsigned LEB128 at `at`: [value, next offset]. */
function leb(at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const b = bytes[at++];
    value += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (b < 0x80) return [value, at];
  }
}
function str(at) {
  const [n, p] = leb(at);
  return [bytes.toString('utf8', p, p + n), p + n];
}

let imported = 0;
const bodies = []; // [index, bytes]
const names = new Map();
let at = 8;
while (at < bytes.length) {
  const id = bytes[at];
  const [size, start] = leb(at + 1);
  const end = start + size;
  if (id === 2) {
    let [count, p] = leb(start);
    for (let k = 0; k < count; k++) {
      [, p] = str(p);
      [, p] = str(p);
      const kind = bytes[p++];
      if (kind === 0) {
        [, p] = leb(p);
        imported++;
      } else if (kind === 1) {
        p++;
        const flag = bytes[p++];
        [, p] = leb(p);
        if (flag & 1) [, p] = leb(p);
      } else if (kind === 2) {
        const flag = bytes[p++];
        [, p] = leb(p);
        if (flag & 1) [, p] = leb(p);
      } else if (kind === 3) p += 2;
      else if (kind === 4) [, p] = leb(p + 1);
    }
  } else if (id === 10) {
    let [count, p] = leb(start);
    for (let k = 0; k < count; k++) {
      const [n, q] = leb(p);
      bodies.push([imported + k, q + n - p]);
      p = q + n;
    }
  } else if (id === 0) {
    const [name, p0] = str(start);
    if (name === 'name') {
      let p = p0;
      while (p < end) {
        const sub = bytes[p];
        const [subSize, q] = leb(p + 1);
        if (sub === 1) {
          let [count, r] = leb(q);
          for (let k = 0; k < count; k++) {
            let index;
            let fname;
            [index, r] = leb(r);
            [fname, r] = str(r);
            names.set(index, fname);
          }
        }
        p = q + subSize;
      }
    }
  }
  at = end;
}
if (!names.size) {
  console.error(`${path.relative(root, file)} has no function names (a "name" section): was it stripped?`);
  process.exit(2);
}

/** The crate of a function's name: a Rust path as wasm-bindgen writes it (demangled,
 * `<csv::Reader<R> as core::ops::Drop>::drop::h…`), or a group for the others. */
function crateOf(name) {
  const RUNTIME = 'std, core, alloc (runtime)';
  if (!name.includes('::')) return /^__wbg|__wbindgen/.test(name) ? 'wasm-bindgen, js-sys, web-sys' : /^[a-z][a-z_0-9]*$/.test(name) && !/^(mem|str|malloc|free|calloc|realloc|abort)/.test(name) ? 'freshlab' : RUNTIME;
  const lead = /^[<&*\[( ]*(?:(?:mut|const|dyn) )*/;
  let path = name.replace(lead, '');
  let m = /^([A-Za-z_][A-Za-z0-9_]*)::/.exec(path);
  // `<f64 as Trait>` or `<[T] as Trait>`: the trait's crate
  if (!m && path.includes(' as ')) m = /^([A-Za-z_][A-Za-z0-9_]*)::/.exec(path.slice(path.indexOf(' as ') + 4).replace(lead, ''));
  if (!m) return RUNTIME;
  const crate = m[1];
  if (['core', 'alloc', 'std', 'dlmalloc', 'compiler_builtins', 'hashbrown', 'rustc_demangle', 'panic_abort'].includes(crate)) return RUNTIME;
  if (['wasm_bindgen', 'js_sys', 'web_sys'].includes(crate)) return 'wasm-bindgen, js-sys, web-sys';
  return crate.replace(/_/g, '-');
}

const totals = new Map();
let all = 0;
for (const [index, size] of bodies) {
  const crate = crateOf(names.get(index) ?? '');
  totals.set(crate, (totals.get(crate) ?? 0) + size);
  all += size;
}
const rows = [...totals].sort((a, b) => b[1] - a[1]);
const kb = (n) => (n / 1024).toFixed(1);
const table = `| crate | code bytes | KB | share |
|---|---:|---:|---:|
${rows.map(([c, n]) => `| ${c} | ${n.toLocaleString('en')} | ${kb(n)} | ${((100 * n) / all).toFixed(1)} % |`).join('\n')}
| all function bodies | ${all.toLocaleString('en')} | ${kb(all)} | 100 % |`;
const section = `<!-- crates -->
## What each crate adds to the page's module (\`npm run wasm:crates\`)

The bytes of every function body in the page's module after wasm-bindgen, before
wasm-opt (${bytes.length.toLocaleString('en')} bytes, ${zlib.gzipSync(bytes, { level: 9 }).length.toLocaleString('en')} gzip -9; wasm-opt's shipped module is smaller, and
has no function names to count by), added up by the crate that defines each function
(its name section; a generic function counts for its crate whoever instantiates it,
and link-time inlining moves some code into its callers, so the shares are close,
not exact). Data (string constants, tables) and the module's other sections are not in
the table.

${table}
<!-- /crates -->`;
if (process.argv.includes('--write')) {
  writeSection(path.join(root, 'BENCHMARKS.md'), 'crates', section);
  say('BENCHMARKS.md: the table of crates rewritten');
} else console.log(table);
