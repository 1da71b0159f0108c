// Your history (issue 47): change rates from the records people have — a web archive's
// capture index, sitemaps, a crawl log, Wikipedia's revisions — each page's rate with its
// interval, and one click to run the other experiments on those pages.
import { number as fmt } from '../ui/format.js';
import { loadSample, handOff, marker, takesDrops, whileLoading } from '../ui/csv-file.js';

/** A file's first characters in the checks, at most (the core samples up to 1 MiB). */
const HEAD_CHARS = 256 * 1024;
/** Every file's together, at most: each check parses them (64 logs' heads of 16 KB each,
 * 1 MB, held the main thread 63 ms an edit; several files' pages are counted by the
 * worker, their heads only tell their records a byte). */
const HEADS_CHARS = 256 * 1024;
/** Files whose heads the checks hold, at most, spread evenly over those loaded; the
 * others stand unsampled, priced as those are together (history/config.rs): each check
 * of 2,000 small logs' heads had held the main thread 133 ms. */
const SAMPLED_FILES = 64;
/** File names said in a status, at most. */
const NAMES_SAID = 5;
/** The worker's slot for the records held. */
const SLOT = 'history:records';
let loads = 0;

function recordsBox(panel, controls) {
  const box = document.createElement('div');
  box.className = 'trace-drop';
  box.innerHTML = `
    <label class="trace-pick">Your records (one format; several sitemap snapshots at once) <input type="file" multiple></label>
    <button type="button" class="secondary trace-sample" data-sample="sample-captures.cdx">Load the sample capture index</button>
    <button type="button" class="secondary trace-sample" data-sample="sample-revisions.xml">Load the sample Wikipedia revisions</button>
    <p class="trace-status" role="status">No records loaded: generated captures of pages with known rates are read. Drop files here or choose them.</p>
    <p class="help">A CDX or CDXJ capture index (the Wayback Machine's, Common Crawl's; their index servers' <code>output=json</code> answers too), sitemap.xml files, a Heritrix crawl.log, a CSV
      <code>url,fetch_time,changed</code> or <code>url,fetch_time,digest</code> (optional <code>weight</code>, <code>content_type</code>), MediaWiki revisions (an API answer's JSON, a dump's XML),
      or WARC files themselves (read as the capture index they imply: each response's payload digest, or its payload's SHA-1 where the record gives none);
      gzip files are decompressed as they load (one member or several, as Common Crawl's index shards). Several snapshots of a sitemap are dated by a date in each file's name
      (<code>sitemap-2026-03-15.xml</code>, <code>20260315</code>, a Wayback timestamp), else each at its latest <code>lastmod</code>.
      The page holds up to 512 MB of text a file (1 GB a gzip or WARC file); the command line streams any size.</p>`;
  const status = box.querySelector('.trace-status');
  // why the files last chosen were refused (null once others load)
  let refusal = null;
  panel.fileBoxes.push({
    refresh() {
      if (panel.records) return;
      // files just refused: why stays said until others are loaded
      if (refusal) {
        status.textContent = refusal;
        return;
      }
      const awaited = panel.awaited.get('records');
      status.textContent = awaited ? `This link's run is on your records ${awaited.name}: choose or drop them here and it runs.` : 'No records loaded: generated captures of pages with known rates are read. Drop files here or choose them.';
    },
  });
  // the last files asked for: earlier ones read later are not used
  let latest = 0;
  /** Has the worker read and hold `blobs` (each {blob, name}), then uses them; resolves
   * to whether they loaded. */
  const load = async (blobs, run = false) => {
    const serial = ++loads;
    latest = serial;
    const names = blobs.map((b) => b.name);
    const more = names.length > NAMES_SAID ? `, … and ${fmt(names.length - NAMES_SAID, 9)} more` : '';
    const name = names.length === 1 ? names[0] : `${fmt(names.length, 9)} files (${names.slice(0, NAMES_SAID).join(', ')}${more})`;
    status.textContent = `Reading ${name}…`;
    // in the checks each file stands as its first characters and its size: the core
    // counts the records a byte there, for the memory a run needs
    const every = Math.ceil(blobs.length / SAMPLED_FILES);
    const room = Math.max(4096, Math.min(HEAD_CHARS, Math.floor(HEADS_CHARS / Math.ceil(blobs.length / every))));
    let read;
    try {
      ({ result: read } = await panel.client.hold({ slot: SLOT, serial, blobs: blobs.map((b) => b.blob), records: true, headChars: room, headEvery: every }));
    } catch (error) {
      if (latest !== serial) return true;
      panel.records = null;
      // named as chosen (a .gz name with its .gz)
      const message = `${blobs[Number(error.field)]?.blob.name || name}: ${error.message}`;
      refusal = `Not loaded: ${message}.`;
      status.textContent = refusal;
      panel.setStatus(`Check the file: ${message}.`, true);
      panel.changed();
      return false;
    }
    if (latest !== serial) return true;
    refusal = null;
    const bytes = read.reduce((n, r) => n + r.bytes, 0);
    const awaited = panel.awaited.get('records');
    panel.awaited.delete('records');
    // a file's pages counted as it loaded, where its head cannot tell them
    const counted = (r) => ({ ...(r.warc && { warc: true }), ...(r.pages !== undefined && { pages: r.pages }) });
    const value = read.map((r, k) => ({ name: names[k], text: marker(SLOT, serial, blobs[k].blob, k, true), ...counted(r) }));
    // the checks' stand-ins: the sampled files' heads, and the others together by kind
    // (their pages counted or not, WARC files or not), a few entries however many files
    const heads = [];
    const rest = new Map();
    read.forEach((r, k) => {
      if (r.head !== undefined) return heads.push({ name: names[k], text: r.head, bytes: r.bytes, ...counted(r) });
      const kind = `${r.pages !== undefined} ${Boolean(r.warc)}`;
      const group = rest.get(kind) ?? { files: 0, bytes: 0, ...(r.pages !== undefined && { pages: 0 }), ...(r.warc && { warc: true }) };
      group.files += 1;
      group.bytes += r.bytes;
      if (r.pages !== undefined) group.pages += r.pages;
      rest.set(kind, group);
    });
    for (const { files, ...group } of rest.values()) heads.push({ name: `${fmt(files, 9)} more files`, unsampled: true, ...group });
    panel.records = { value, name, bytes, serial, shape: null, heads };
    panel.form.set('source', 'files');
    const warcs = read.filter((r) => r.warc);
    const records = warcs.reduce((n, r) => n + r.records, 0);
    const indexed = warcs.length ? `, the capture index of ${warcs.length === 1 ? 'a WARC file' : `${warcs.length} WARC files`}: ${fmt(records, 9)} records` : '';
    status.textContent = `Loaded ${name} (${fmt(bytes / 1024, 3)} KB${indexed}). Read when the run starts.`;
    panel.changed();
    if (awaited || run) panel.start();
    return true;
  };
  /** Chosen or dropped files (a .gz name read as the name of what it holds). */
  const loadFiles = (list) => whileLoading(panel, load([...list].map((file) => ({ blob: file, name: file.name.replace(/\.gz$/, '') }))), list.length === 1 ? list[0].name : `${list.length} files`);
  box.querySelector('input[type=file]').addEventListener('change', (e) => e.target.files.length && loadFiles(e.target.files));
  for (const button of box.querySelectorAll('[data-sample]')) {
    button.addEventListener('click', async () => {
      try {
        await load([{ blob: new Blob([await loadSample(button.dataset.sample)]), name: button.dataset.sample }], true);
      } catch (error) {
        status.textContent = `Not loaded: ${error.message}.`;
      }
    });
  }
  takesDrops(box, loadFiles);
  controls.append(box);
}

const TARGETS = [
  ['policies', 'policies'],
  ['allocate', 'allocations'],
  ['learning', 'learning'],
  ['crawlers', 'your crawler'],
];

function details(result, element, phase, _label, panel) {
  if (result.refused) {
    element.innerHTML = `<p class="error" role="alert">${result.said}</p>`;
    return;
  }
  const label = (s) => s.replaceAll('_', ' ');
  const statuses = result.statuses.map(([s, n]) => `<tr><th scope="row">${label(s)}</th><td class="num">${fmt(n, 9)}</td></tr>`).join('');
  const skipped = result.skipped.length ? result.skipped.map(([s, n]) => `<tr><th scope="row">${label(s)}</th><td class="num">${fmt(n, 9)}</td></tr>`).join('') : '<tr><td colspan="2">none</td></tr>';
  // the core sends the page the ten fastest-changing pages (HistoryOutput::fastest_only);
  // the others stay in the worker
  const top = result.pages
    .map((p) => `<tr><th scope="row">${p.url}</th><td class="num">${fmt(p.estimate.rate, 3)}</td><td class="num">${fmt(p.estimate.low, 3)}–${fmt(p.estimate.high, 3)}</td><td class="num">${p.estimate.observations}</td><td>${label(p.estimate.status)}</td></tr>`)
    .join('');
  const listed = result.statuses.reduce((sum, [, n]) => sum + n, 0) - result.left_out;
  const typed = (id) => (id === 'crawlers' && result.typed > 0 ? ' with their mime types' : '');
  const sends = TARGETS.map(([id, what]) => `<a class="button secondary" href="?view=${id}" data-view="${id}" data-send="${id}">Run ${what} on these ${fmt(listed, 9)} pages${typed(id)}</a>`).join(' ');
  const trace = result.trace ? ' <a class="button secondary" href="?view=bursty" data-view="bursty" data-send="bursty">Replay the revisions in bursty changes</a>' : '';
  element.innerHTML = `
    <p>${result.said}</p>
    <p class="sends">${phase === 'final' && listed > 0 ? sends + trace : ''}</p>
    <table class="proof"><caption>Pages by what their records say</caption><tbody>${statuses}</tbody></table>
    <table class="proof"><caption>Records left out, by reason</caption><tbody>${skipped}</tbody></table>
    <table class="proof"><caption>The ten fastest-changing pages (per day, ${fmt(100 * result.config.confidence, 3)} % interval)</caption>
      <thead><tr><th scope="col">page</th><th scope="col">rate</th><th scope="col">interval</th><th scope="col">intervals seen</th><th scope="col">status</th></tr></thead>
      <tbody>${top || '<tr><td colspan="5">none: no page was seen to change between two of its records</td></tr>'}</tbody></table>
    <p class="fineprint">Rates come from the likelihood of what the records show: a page seen changed or not between visits (Cho &amp; Garcia-Molina's
      estimator for irregular visits), or exact change times (revisions). A page never seen changed gets rate 0 with an upper bound; one changed at every
      visit gets a lower bound and no rate, and is left out of the page list. Where visits are sparser than changes the records can only bound the rate
      from below: the second chart shows where.</p>`;
  const held = panel.held;
  for (const a of element.querySelectorAll('[data-send]')) {
    a.addEventListener('click', () => {
      const name = `${(result.config.files?.[0]?.name ?? 'history').replace(/\.[a-z]+$/, '')}-pages.csv`;
      if (a.dataset.send === 'bursty') handOff('bursty', 'trace', { text: result.trace, name: name.replace('-pages', '-trace') });
      // the page list as `freshlab history --out` writes it (with the pages' mime types
      // for the crawlers, which read them), written by the worker that keeps the pages
      else handOff(a.dataset.send, 'pageList', { text: held.table(a.dataset.send, result), name });
    });
  }
}

const panel = {
  id: 'history',
  heading: 'How often your pages change',
  intro: '<p>Load the records you have; each page gets the change rate they support and how sure that is.</p>',
  keyFields: ['captures', 'confidence'],
  auto: false,
  action: 'Read',
  fields: ['source', 'format', 'server_by', 'confidence', 'types', 'pages', 'servers', 'days', 'rate_min', 'rate_max', 'spacing_min', 'spacing_max', 'captures', 'seed'],
  setup: recordsBox,
  files: [
    {
      key: 'records',
      field: 'files',
      standIn: (file) => file.heads,
      param: 'file',
      noun: 'records',
      otherwise: 'the generated captures',
      when: (config) => config.source === 'files',
    },
  ],
  estimate: true,
  details,
};

export default {
  id: 'history',
  group: 'learning',
  title: 'Your history: change rates from your records',
  card: 'Web-archive capture indexes, sitemaps, crawl logs and Wikipedia revisions read into change rates with intervals, then every experiment on those pages.',
  source: 'Cho & Garcia-Molina 2003; CDX, sitemaps.org, Heritrix, MediaWiki',
  lede: `<p>How often do my pages change, and how sure can I be? Nobody knows their pages' change rates; what people have are records of
    visits: a web archive's captures (each with a content digest), a sitemap's <code>lastmod</code> dates, a crawler's log, a wiki's revisions.
    Two captures with different digests mean the page changed between them. From these, each page's rate is the likelihood's maximum, with a
    confidence interval. The page list it gives runs in every other view.</p>
    <p>With no records loaded, the view reads generated captures of pages whose rates it knows (log-uniform rates, captures at Poisson,
    periodic or bursty times): the last chart puts each estimate beside the truth, and the text says how often the intervals hold it.</p>`,
  panels: [panel],
};
