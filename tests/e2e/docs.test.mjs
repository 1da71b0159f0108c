// Every link in README and the docs resolves (issue 44): a relative link to a file that
// exists, an anchor to a heading of its file (GitHub's slugs). Links to the web are not
// fetched (this machine has no network), only counted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { root } from '../../scripts/shell.mjs';

const FILES = ['README.md', 'CHANGELOG.md', 'BENCHMARKS.md', ...fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file) {
  const text = fs.readFileSync(path.join(root, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  const seen = new Map();
  const anchors = new Set();
  for (const [, heading] of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(heading);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n ? `${base}-${n}` : base);
  }
  return anchors;
}

/** The Markdown links of a file, outside code blocks and inline code. */
function linksOf(file) {
  const text = fs
    .readFileSync(path.join(root, file), 'utf8')
    .replace(/```[\s\S]*?```/g, '')
    .replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]);
}

test('every link in README and the docs resolves to a file and a heading', () => {
  const broken = [];
  let checked = 0;
  let web = 0;
  for (const file of FILES) {
    for (const link of linksOf(file)) {
      if (/^(https?:|mailto:)/.test(link)) {
        web += 1;
        continue;
      }
      checked += 1;
      const [target, anchor] = link.split('#');
      const resolved = target ? path.normalize(path.join(path.dirname(file), decodeURIComponent(target))) : file;
      if (!fs.existsSync(path.join(root, resolved))) {
        broken.push(`${file}: ${link} (no file ${resolved})`);
        continue;
      }
      if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) broken.push(`${file}: ${link} (no heading #${anchor} in ${resolved})`);
    }
  }
  assert.deepEqual(broken, []);
  assert.ok(checked >= 25, `only ${checked} links checked`);
  console.log(`${checked} links resolve; ${web} to the web, not fetched`);
});

test('README stays a newcomer’s page: at most about 250 lines, the two commands, where to go next', () => {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const lines = readme.split('\n').length;
  assert.ok(lines <= 250, `README has ${lines} lines`);
  for (const must of ['npm start', 'npm test', 'docs/lecturers.md', 'docs/researchers.md', 'docs/crawler-engineers.md', 'docs/model.md', 'CHANGELOG.md']) assert.ok(readme.includes(must), `README names ${must}`);
  assert.ok(!/SPEC\.md/.test(readme), 'README points to no file outside the repository');
});
