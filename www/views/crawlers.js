// Your crawler on your pages (issue 46): a deployed crawler configured from its own
// file, against MERGE on OPT_POLITE at the bandwidth it used.
import { number, integer, signed } from '../ui/format.js';
import { csvDropBox } from '../ui/csv-file.js';
import { downloadText } from '../ui/download.js';
import { pageListBox, PAGE_LIST_FILE, estimatedNote } from '../ui/page-list.js';
import measured from './crawlers-results.json' with { type: 'json' };

const escape = (text) => String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
/** A dotted name that may break after its dots (a Java class, a property). */
const dotted = (text) => escape(text).replaceAll('.', '.<wbr>');

/** The crawler's settings as run: value, where it came from, what it sets. */
function settingsTable(loaded) {
  const rows = loaded.settings
    .map(
      (s) => `<tr${s.aside ? ' class="aside"' : ''}><th scope="row"><code>${dotted(s.name)}</code></th><td><code>${dotted(s.value || '—')}</code></td>
        <td>${s.set ? 'set here (crawler settings)' : s.from_file ? `${s.file ? escape(s.file) : 'the file'}, line ${s.line}${replacedNote(s.replaced ?? [])}${s.aside ? ' (not in this run)' : ''}` : `shipped default${passedNote(s.passed_over ?? [])}`}</td><td>${s.meaning ? escape(s.meaning) : '<span class="missing">read, not modelled yet</span>'}</td></tr>`,
    )
    .join('');
  return `<table class="proof"><caption>The crawler's settings as run (change any in the form's “crawler settings”: <code>name=value; …</code>)</caption>
    <thead><tr><th scope="col">setting</th><th scope="col">value</th><th scope="col">from</th><th scope="col">what it sets</th></tr></thead>
    <tbody>${rows}</tbody></table>${ignoredNote(loaded.ignored)}${meantNote(loaded.meant ?? [])}`;
}

/** A setting under which the crawler runs otherwise than the file names (StormCrawler's
 * AdaptiveScheduler with no signature kept): said above the results, not only in its row. */
function overrulesNote(loaded) {
  return loaded.settings
    .filter((s) => s.overrules)
    .map((s) => `<p class="warning overrules" role="note">Run otherwise than your file names: <code>${dotted(s.name)}</code> = <code>${dotted(s.value)}</code> (line ${s.line}): ${escape(s.meaning)}</p>`)
    .join('');
}

/** A run whose servers refused requests its back-off never saw (StormCrawler's bolt, as
 * its metadata.persist and status codes leave it): said above the results, with the
 * setting's row that says why. */
function unseenRefusalsNote(result) {
  const run = result.runs.find((r) => r.refusals_unseen);
  if (!run) return '';
  const codes = result.loaded.settings.find((s) => s.name === 'urlfrontier.backoff.status.codes');
  return `<p class="warning unseen" role="note">${escape(run.label)}: the servers refused ${integer(run.answers.refused)} requests and its back-off saw none, so it blocked no host.
    <code>urlfrontier.backoff.status.codes</code> = <code>${escape(codes?.value ?? '429, 503')}</code>: ${escape(codes?.meaning ?? '')}</p>`;
}

/** A setting given more than once in the file: the last counts, as the crawler reads it. */
function replacedNote(lines) {
  if (!lines.length) return '';
  return `; it replaces line${lines.length > 1 ? 's' : ''} ${lines.join(', ')}`;
}

/** Lines the crawler passes over for a setting's default (a null, an empty value: the
 * setting's meaning says why). */
function passedNote(lines) {
  if (!lines.length) return '';
  return ` (line${lines.length > 1 ? 's' : ''} ${lines.join(', ')} passed over)`;
}

/** Ignored names a letter or two from a setting Freshlab reads: shown even when the
 * ignored list is folded, since the setting they meant keeps its default. */
function meantNote(meant) {
  if (!meant.length) return '';
  const list = meant.map(([name, setting]) => `<code>${escape(name)}</code> for <code>${escape(setting)}</code>`).join(', ');
  return `<p class="fineprint meant">Mistyped? These ignored names are a letter or two from a setting, which keeps its default: ${list}.</p>`;
}

/** The file's entries Freshlab does not read, each with its line: inline when few, behind
 * a disclosure when many (a nutch-site.xml copied whole from nutch-default.xml lists
 * hundreds). */
function ignoredNote(ignored) {
  if (!ignored.length) return '';
  const list = ignored.map(([name, line]) => `<code>${escape(name)}</code> (line ${line})`).join(', ');
  if (ignored.length <= IGNORED_INLINE) return `<p class="fineprint">Ignored (not settings Freshlab reads): ${list}.</p>`;
  const [[first, from], [last, to]] = [ignored[0], ignored.at(-1)];
  return `<details class="fineprint ignored"><summary>Ignored (not settings Freshlab reads): ${integer(ignored.length)} entries, <code>${escape(first)}</code> (line ${from}) to <code>${escape(last)}</code> (line ${to})</summary>
    <p>${list}.</p></details>`;
}

/** Ignored entries listed inline at most; more go behind a disclosure. */
const IGNORED_INLINE = 12;

/** The keys of the pages' metadata (the page list's column) and what each does here. */
function metadataTable(keys) {
  if (!keys || !keys.length) return '';
  const rows = keys
    .map((k) => `<tr><th scope="row"><code class="key">${dotted(k.key)}</code></th><td>${integer(k.pages)}</td><td>${escape(k.meaning)}</td></tr>`)
    .join('');
  return `<table class="proof"><caption>Your pages' metadata (the page list's <code>metadata</code> column, as a seed list gives it)</caption>
    <thead><tr><th scope="col">key</th><th scope="col">pages</th><th scope="col">what the crawler does with it</th></tr></thead>
    <tbody>${rows}</tbody></table>`;
}

function runsTable(result, final) {
  // one column a run, one row a measure: three runs and thirteen measures fit a slide
  const measures = [
    ['freshness, last quarter', (r) => number(r.converged, 4)],
    ['freshness, whole run', (r) => number(r.mean, 4)],
    ['requests', (r) => integer(r.requests)],
    ['requests a day', (r) => number(r.bandwidth, 4)],
    ['fetches of unchanged pages', (r) => `${number((100 * r.unchanged) / Math.max(1, r.requests), 3)} %`],
    ['requests sooner than P', (r) => integer(r.violations)],
    ['refused (429 or 503)', (r) => integer(r.answers.refused)],
    ['sent before Retry-After allowed', (r) => integer(r.answers.before_retry_after)],
    ['sooner than Crawl-delay', (r) => integer(r.answers.under_crawl_delay)],
    ['servers skipped (Crawl-delay over the cap)', (r) => integer(r.skipped_servers)],
    ['servers ever over capacity', (r) => integer(r.servers_over_capacity)],
    ['hours over capacity, all servers', (r) => number(r.over_capacity_s / 3600, 3)],
    ['mean answer time (s)', (r) => number(r.answers.response_s / Math.max(1, r.requests), 3)],
  ];
  // Nutch's fetch lists, where generate.topN or generate.max.count caps them: the pages
  // due each left for a later cycle, with the caps of each run's lists
  if (result.runs.some((r) => r.left_off_lists != null)) {
    const caps = (r) => (r.list_caps ? `<br><small>${escape(r.list_caps)}</small>` : '');
    measures.push(['pages due left off a fetch list by its caps, summed over cycles', (r) => (r.left_off_lists == null ? '—' : `${integer(r.left_off_lists)}${caps(r)}`)]);
  }
  const head = result.runs.map((r) => `<th scope="col">${escape(r.label)}</th>`).join('');
  const rows = measures.map(([name, cell]) => `<tr><th scope="row">${name}</th>${result.runs.map((r) => `<td class="num">${cell(r)}</td>`).join('')}</tr>`).join('');
  const [crawler, merge] = result.runs;
  const pushback = `<p class="fineprint">Servers push back when a capacity is set: each smooths the crawler's request rate over a minute,
    answers in its idle time / (1 − load) below capacity and refuses above it (Retry-After, when sent: the whole seconds until one more
    request fits). Nutch waits its server delay after each answer, adds its exception delay × 2<sup>k−1</sup> after the k-th refusal in a row
    and purges the host's queue at its maximum (until the next crawl cycle; a day without cycles), ignoring Retry-After; StormCrawler's QueueRegulatorBolt blocks the host where it sees
    the refusal (<code>fetch.statusCode</code> kept by <code>metadata.persist</code>, which the shipped list does not: then never): Retry-After
    honoured up to its cap where <code>protocol.retry-after</code> is kept too, else 60 s × 2 per incident (its <code>urlfrontier.backoff.*</code>
    settings; at most a day, forgiven 30 quiet minutes after the block ends), and with robots pacing paces a host whose Crawl-delay is over
    its cap at that Crawl-delay; Heritrix waits its delay factor × the answer's time;
    Scrapy's AutoThrottle follows the latency and reads neither Retry-After nor Crawl-delay; its RetryMiddleware tries a refused request again RETRY_TIMES times (2), each behind the host's waiting requests, then the page waits for its next recrawl. MERGE backs off by Freshlab's rule, which knows each server's
    limits (OPT_POLITE allocates within each server's own cap, the least of 1/P, its Crawl-delay's and its capacity's, and MERGE spaces its requests by it, so
    no server refuses it; were one to, Retry-After is waited out, the gap doubled on a refusal without it and halved after ten calm answers) or by Google's
    documented slow-down (server errors and slow answers lower a host's rate, quick answers for a while raise it; Google reads no Crawl-delay
    and documents no Retry-After; its numbers are Freshlab's: a refusal doubles the gap, an answer over twice the host's fastest lengthens it
    1.25×, ten quick answers shorten it 1.25×, never below P).</p>`;
  const gap =
    crawler && merge && final
      ? `<p>At the same bandwidth and the same gap between two requests to a server${result.gap?.limits_cost != null ? ' (or the server’s own, where its Crawl-delay or capacity asks more)' : ''}, MERGE on OPT_POLITE keeps
        ${number(100 * (merge.converged - crawler.converged), 3)} points more of the pages fresh once settled.</p>`
      : '';
  return `${gap}<table class="proof"><caption>The crawler and the best Freshlab knows at its bandwidth${final ? '' : ' (so far)'}</caption>
    <thead><tr><th scope="col">measure</th>${head}</tr></thead><tbody>${rows}</tbody></table>${final ? gapSplit(result.gap) + (result.gap_unsplit ? `<p>The gap to MERGE: ${escape(result.gap_unsplit)}.</p>` : '') : ''}${pushback}`;
}

const points = (x) => `${number(100 * x, 3)} points`;

/** The gap split by cause: the crawler run again without each (a sequential split). */
function gapSplit(gap) {
  if (!gap) return '';
  const rows = [
    gap.cycles === undefined || gap.cycles === null
      ? null
      : [
          'Nutch’s batch cycles',
          gap.cycles,
          'the crawler again, each page fetched when due' +
            (gap.requests_without_cycles > 1.1
              ? ` — it then makes ${number(gap.requests_without_cycles, 3)}× its requests: the cycles’ fetch lists (generate.topN) capped its bandwidth, and MERGE has the crawler’s, so the revisit rule’s part compares unequal bandwidths`
              : ''),
        ],
    gap.limits === undefined || gap.limits === null ? null : ['the servers’ limits and the back-off from them', gap.limits, 'again, on servers without capacity, Crawl-delay or response time'],
    ['the revisit rule (which page, how often)', gap.revisit, 'MERGE against the crawler on free servers (MERGE meets the limits: what they cost it is counted here, less)'],
  ].filter(Boolean);
  const body = rows.map(([cause, x, how]) => `<tr><th scope="row">${cause}</th><td class="num">${points(x)}</td><td>${how}</td></tr>`).join('');
  return `<table class="proof"><caption>The gap to MERGE, ${points(gap.total)} once settled, by cause</caption>
    <thead><tr><th scope="col">cause</th><th scope="col">part of the gap</th><th scope="col">measured by</th></tr></thead><tbody>${body}</tbody></table>
    <p class="fineprint">Each cause is removed in turn, keeping the removals before it, and its part is the freshness the crawler then gains
      (another order would share the parts otherwise). Politeness costs none of the gap (MERGE keeps the same gap between two requests to a
      server), but it costs the optimum itself ${points(gap.politeness_cost)} at this bandwidth: the UNPOLITE bound less the POLITE bound (Lemma 4.2)${
        gap.limits_cost != null
          ? `; the servers’ own Crawl-delays and capacities, which MERGE keeps too${
              gap.merge_load < 1 ? ` (loading each to at most ${number(100 * gap.merge_load, 3)} % of its capacity)` : ''
            }, cost it ${points(gap.limits_cost)} more: the POLITE bound at P alone less the bound within each server’s own cap`
          : ''
      }.</p>`;
}

/** The servers where the crawler loses most against MERGE over the run. */
function serversTable(result) {
  const losing = (result.servers ?? []).filter((g) => g.gap > 0);
  if (!losing.length) return '';
  const limits = (g) =>
    [g.crawl_delay_s ? `Crawl-delay ${number(g.crawl_delay_s, 3)} s${g.skipped ? ' (over the cap: skipped)' : ''}` : '', g.capacity ? `${number(g.capacity, 3)} req/s` : '', g.response_ms ? `${number(g.response_ms, 3)} ms` : '']
      .filter(Boolean)
      .join(', ') || 'none';
  const rows = losing
    .map(
      (g) => `<tr><th scope="row">${dotted(g.name)}</th>
        <td class="num">${integer(g.pages)}</td><td>${limits(g)}</td><td class="num">${number(g.crawler.freshness, 3)}</td><td class="num">${number(g.merge.freshness, 3)}</td>
        <td class="num">${points(g.gap)}</td><td class="num">${integer(g.crawler.requests)}</td><td class="num">${integer(g.merge.requests)}</td>
        <td class="num">${integer(g.crawler.refused)}</td><td class="num">${number(g.crawler.over_capacity_s / 3600, 3)}</td></tr>`,
    )
    .join('');
  return `<table class="proof"><caption>Where the crawler loses most: the servers with the largest part of the gap over the run (freshness over the
      whole run, cold start included; part = the server's share of the weight × the difference)</caption>
    <thead><tr><th scope="col">server</th><th scope="col">pages</th><th scope="col">its limits</th><th scope="col">crawler's freshness</th>
      <th scope="col">MERGE's</th><th scope="col">part of the gap</th><th scope="col">crawler's requests</th><th scope="col">MERGE's</th>
      <th scope="col">refused</th><th scope="col">hours over capacity</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** The freshness the tuning scores (its `tune_for`), as a sentence says it, and a run's. */
const OVER = { whole_run: 'over the whole run', settled: 'once settled (the last quarter)' };
const scored = (objective, run) => (objective === 'settled' ? run.converged : run.mean);

/** Where the tuned file keeps fewer pages fresh than yours by the freshness the search did not score. */
const tunedNote = ({ tuned_note: note }) => (note ? ` ${escape(note[0].toUpperCase() + note.slice(1))}.` : '');

/** The tuned configuration: what changed, what it predicts, the file to download. */
function tunedSection(result) {
  if (result.tuning) {
    const t = result.tuning;
    return `<p class="status">Tuning: ${integer(t.runs)} of at most ${integer(t.most)} runs; the best freshness so far ${OVER[t.objective]}:
      ${number(t.freshness, 4)}.</p>`;
  }
  const t = result.tuned;
  if (!t) return '';
  const kept = t.hosts?.kept;
  const seeded = t.seeds?.kept;
  const typed = Boolean(t.mimes);
  if (!t.changes.length && !kept && !seeded && !typed && !t.candidates) return `<p>Tuning: no candidate to try; the file as loaded stands.</p>${untried(t)}`;
  if (!t.changes.length && !kept && !seeded && !typed) {
    const refusals = t.refusals ? ` and ${integer(t.refusals)} refusals` : '';
    return `<p>Tuning: none of ${integer(t.candidates)} candidates (${integer(t.runs)} runs) kept the pages fresher on at most
      ${integer(t.budget)} requests${refusals}; the file as loaded is the best the search found${freshest(t)}.</p>${hostsTried(t)}${seedsTried(t)}${untried(t)}`;
  }
  const rows = t.changes
    .map((c) => `<tr><th scope="row"><code>${dotted(c.name)}</code></th><td><code>${dotted(c.from || 'unset')}</code></td><td><code>${dotted(c.to)}</code></td></tr>`)
    .join('');
  // Heritrix's sheets (Scrapy's slots) go into the tuned file itself; Nutch's host file beside it
  const inside = t.hosts?.inside;
  const files = (kept && !inside) || seeded || typed ? 'files' : 'file';
  const confirmed = t.confirmed
    ? `re-simulated from the ${files} read back by the same parser: ${number(t.confirmed[0], 4)} on ${integer(t.confirmed[1])} requests`
    : 'its re-simulation is running';
  const names = [t.file_name + (kept && inside ? ` with its ${slots(t) ? 'slots' : 'sheets'}` : ''), typed && t.mimes.file_name, kept && !inside && t.hosts.file_name, seeded && t.seeds.file_name]
    .filter(Boolean)
    .map(escape);
  const all = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0];
  // Heritrix and Scrapy have no adaptive rule: their revisit is the budget itself
  const adaptive = ['nutch', 'stormcrawler'].includes(result.loaded?.crawler);
  const refit = adaptive ? 'and its increment rate refitted so that it makes' : 'and compared only where it makes';
  return `<h3 class="tuned-heading">A tuned ${all} to take home</h3>
    <p>The search tried ${integer(t.candidates)} candidates (${integer(t.runs)} runs), each one setting changed ${refit} no more requests than your file did (${integer(t.budget)}) and is refused by the servers no more often. The tuned ${files} keep${files === 'files' ? '' : 's'} ${number(t.predicted[0], 4)} of the pages
      fresh ${OVER[t.objective]} on ${integer(t.predicted[1])} requests (${confirmed}); yours kept ${number(scored(t.objective, result.runs[0]), 4)}.${settingsAlone(t)}${tunedNote(result)}</p>
    ${redrawnText(t, files)}
    ${rows ? `<table class="proof"><caption>What the tuned file changes</caption>
      <thead><tr><th scope="col">setting</th><th scope="col">your file</th><th scope="col">tuned</th></tr></thead><tbody>${rows}</tbody></table>` : ''}
    ${rows || (kept && inside) ? `<p><button type="button" data-tuned-download>Download the tuned ${escape(t.file_name)}</button>
      (your file${rows ? ' with these lines changed, each marked by a comment' : ''}${kept && inside ? (slots(t) ? ', with the DOWNLOAD_SLOTS below added at its end, in place of its own' : `, with the sheets below added before its closing &lt;/beans&gt;${t.hosts.revisits?.turned_on ? ' and its ReschedulingProcessor turned on' : ''}`) : ''}).</p>` : `<p>Your ${escape(t.file_name)} stays as it is.</p>`}
    ${mimesMoved(t)}${hostsTried(t)}${seedsTried(t)}${untried(t)}`;
}

/** Where a host file or seed list beside the tuned file was kept: what the tuned file
 * gives without it (for a crawler that cannot take the extra file). */
function settingsAlone(t) {
  if (!t.settings_alone) return '';
  const hosts = t.hosts?.kept && !t.hosts.inside;
  const beside = [hosts && t.hosts.file_name, t.seeds?.kept && t.seeds.file_name].filter(Boolean).map(escape).join(' and ');
  const file = escape(t.file_name) + (t.mimes ? ` with the tuned ${escape(t.mimes.file_name)}` : '');
  return ` Without the ${beside} beside it, the tuned ${file} alone keeps ${number(t.settings_alone[0], 4)} of the pages fresh ${OVER[t.objective]} on ${integer(t.settings_alone[1])} requests.`;
}

/** Nutch's rates by type as the tuning moved them (MimeAdaptiveFetchSchedule). */
function mimesMoved(t) {
  const m = t.mimes;
  if (!m) return '';
  const rows = m.changes.map((c) => `<tr><th scope="row"><code>${escape(c.name.replace(/ inc_rate$/, ''))}</code></th><td class="num">${escape(c.from)}</td><td class="num">${escape(c.to)}</td></tr>`).join('');
  return `<table class="proof"><caption>What the tuned ${escape(m.file_name)} changes: each type's inc_rate, moved with the fit and by the type's own knob (its dec_rate kept)</caption>
      <thead><tr><th scope="col">type</th><th scope="col">your file</th><th scope="col">tuned</th></tr></thead><tbody>${rows}</tbody></table>
    <p><button type="button" data-tuned-mimes-download>Download the tuned ${escape(m.file_name)}</button>
      (for Nutch's configuration directory, beside the tuned ${escape(t.file_name)}; <code>freshlab crawlers … --tuned-mimes FILE</code>${t.seeds?.kept ? '; beside the tuned seed list, which fixes every page\'s interval, it changes nothing' : ''}).</p>`;
}

/** With estimated rates: the tuned files against yours on the same redraws of the rates. */
function redrawnText(t, files) {
  const r = t.redrawn;
  if (!r) return '';
  const [lo, mid, hi] = r.difference.map((d) => signed(d, 4));
  return `<p class="tuned-redrawn">The search scored its candidates on the estimated change rates; your records leave each rate anywhere in its interval.
      Run again on the same ${integer(r.redraws)} redraws of the rates within their intervals, the tuned ${files} kept the pages fresher than yours
      ${OVER[t.objective]} on ${integer(r.fresher)} of them (by ${lo} to ${hi}, median ${mid}).</p>`;
}

/** A last candidate's fitted run (`tried`: freshness, requests) in words, or without one
 * the freshest run within the requests that the servers refused more often than your file. */
function triedText(t, tried, ruder) {
  if (tried) return `${number(tried[0], 4)} of the pages fresh ${OVER[t.objective]} on ${integer(tried[1])} requests`;
  if (!ruder) return 'no fit within the budget';
  return `no fit within the budget: at best ${number(ruder[0], 4)} of the pages fresh ${OVER[t.objective]} on ${integer(ruder[1])} requests,
      but refused ${integer(ruder[2])} times against your file's ${integer(t.refusals)}`;
}

/** The seed list (Nutch's, StormCrawler's), each page's interval fixed at the optimum's,
 * tried very last by the tuning on a page list. */
function seedsTried(t) {
  const s = t.seeds;
  if (!s) return '';
  const days = (seconds) => `${number(seconds / 86400, 3)} days`;
  const tried = triedText(t, s.tried, s.ruder);
  const nutch = s.key === 'nutch.fetchInterval.fixed';
  const how = nutch
    ? `fixed in Nutch's seed list by <code>nutch.fetchInterval.fixed</code> (which the Injector reads and AdaptiveFetchSchedule keeps)`
    : `fixed in StormCrawler's seeds by <code>scheduler.delay.mins</code> (which DefaultScheduler reads first: the tuned file names it)`;
  const longest = nutch ? ' (a page the optimum never fetches waits <code>db.fetch.interval.max</code>)' : s.never ? `, ${integer(s.never)} page${s.never === 1 ? '' : 's'} the optimum never fetches never refetched (<code>-1</code>)` : '';
  const intro = `Very last, each page its own interval, ${how}: the interval the optimum gives the page, all stretched by one factor to the same budget, from
      ${days(s.shortest_s)} to ${days(s.longest_s)}${longest}, for ${integer(s.pages)} pages: ${tried}`;
  if (!s.kept) return `<p>${intro}; ${s.tried ? 'no fresher than the settings alone, so ' : ''}not part of the tuned files.</p>`;
  const beside = t.hosts?.kept && !t.hosts.inside ? ` It fixes every page's interval, so the ${escape(t.hosts.file_name)} beside it changes nothing.` : '';
  // its text comes with the final result (a line a page)
  if (!s.text) return `<p>${intro}; kept: the figures above are with it.${beside} The file is offered once the run ends.</p>`;
  const inject = nutch
    ? 'inject it with <code>bin/nutch inject crawldb seeds/ -overwrite</code>, so that pages already in your CrawlDb take their interval'
    : 'inject it into a new status index with the tuned crawler-conf.yaml: a seed of a URL the index already holds does not replace its stored metadata';
  return `<p>${intro}; kept: the figures above are with it.${beside}</p>
    <p><button type="button" data-tuned-seeds-download>Download the tuned ${escape(s.file_name)}</button>
      (${inject}; each page's other pairs are kept; in Freshlab, load it in the seed-list box beside your page list to run it again;
      <code>freshlab crawlers … --tuned-seeds FILE</code>).</p>`;
}

/** The last candidates the tuning could not make, each with why. */
/** What the search came closest with when nothing beat the file as loaded. */
function freshest(t) {
  if (!t.freshest) return '';
  return ` (the freshest candidate: ${number(t.freshest[0], 4)} ${OVER[t.objective]} on ${integer(t.freshest[1])} requests)`;
}

function untried(t) {
  return (t.untried ?? []).map((why) => `<p>Not tried: ${escape(why)}.</p>`).join('');
}

/** Whether the tuning's rules over hosts are Scrapy's slots (else Heritrix's sheets). */
const slots = (t) => t.hosts?.file_name === 'DOWNLOAD_SLOTS';

/** Nutch's host file (NUTCH-3029), or Heritrix's sheets (Scrapy's slots), tried last by
 * the tuning on a page list's hosts. */
function hostsTried(t) {
  const h = t.hosts;
  if (!h) return '';
  const tried = triedText(t, h.tried, h.ruder);
  if (h.inside) {
    const by = slots(t)
      ? `a Scrapy slot (<code>DOWNLOAD_SLOTS</code>: its <code>delay</code>, not randomised; your file's own slots kept)`
      : `a Heritrix sheet (<code>disposition.minDelayMs</code>, and <code>maxDelayMs</code> with it where that would cap it)`;
    // under AutoThrottle the slot turns it off for its host ('throttle': False)
    const held = h.throttled
      ? `held to a request per 1/capacity by ${by}, its slot's <code>'throttle': False</code> keeping your file's AutoThrottle off it (Scrapy 2.11.1 and later; AutoThrottle would move the delay toward the host's latency)`
      : h.shared_gaps
        ? `held to a request per 1/capacity rounded up to one of 100 gaps a decade (at most 2.3 % slower) by ${by}, hosts of near capacities sharing a sheet (with a gap of its own each, the sheets would have passed the 1 MB a crawler's file may have)`
        : `held to a request per 1/capacity by ${by}`;
    const over = h.hosts ? `each host whose capacity your file's gap exceeds ${held}, the other hosts at your file's gap, for ${integer(h.hosts)} host${h.hosts === 1 ? '' : 's'}` : '';
    const intro = `Last, ${[over, revisitsText(h.revisits)].filter(Boolean).join('; and ')} (${integer(h.pages)} pages): ${tried}`;
    const sheets = `<details><summary>The ${slots(t) ? 'slots' : 'sheets'}</summary><pre>${escape(h.text)}</pre></details>`;
    return h.kept ? `<p>${intro}; kept: the figures above are with them, and they are in the tuned file.</p>${sheets}` : `<p>${intro}; ${h.tried ? 'no fresher than the settings alone, so ' : ''}not part of the tuned file.</p>${sheets}`;
  }
  const intro = `Last, each host's own bounds of the adaptive interval: from the shortest to the longest interval the optimum
      (OPT_POLITE at your crawler's bandwidth) gives the host's pages, all stretched by one factor to the same budget, written as Nutch's
      <code>${escape(h.file_name)}</code> for ${integer(h.hosts)} hosts (${integer(h.pages)} pages): ${tried}`;
  if (!h.kept) return `<p>${intro}; ${h.tried ? 'no fresher than the settings alone, so ' : ''}not part of the tuned files.</p>`;
  return `<p>${intro}; kept: the figures above are with it.</p>
    <p><button type="button" data-tuned-hosts-download>Download the tuned ${escape(h.file_name)}</button>
      (for Nutch's configuration directory, beside the tuned ${escape(t.file_name)}; <code>freshlab crawlers … --tuned-hosts FILE</code>).</p>`;
}

/** Heritrix's sheets giving each host its own revisit, in words ('' without). */
function revisitsText(r) {
  if (!r) return '';
  const days = (seconds) => `${number(seconds / 86400, 3)} days`;
  const span = r.hosts === r.never ? '' : r.shortest_s === r.longest_s ? ` of ${days(r.shortest_s)}` : ` from ${days(r.shortest_s)} to ${days(r.longest_s)}`;
  const never = r.never ? `, ${integer(r.never)} never (<code>-1</code>)` : '';
  return `each host revisited after its own delay (a Heritrix sheet's <code>rescheduler.rescheduleDelaySeconds</code>${span}${never}), one for each host's pages as a whole
    where their marginal freshness meets the optimum's (OPT_POLITE at your crawler's bandwidth), all stretched by one factor to the same budget, for ${integer(r.hosts)} host${r.hosts === 1 ? '' : 's'}${
      r.turned_on ? ` — Heritrix's ReschedulingProcessor turned on for it (your file has it off: the tuned file defines the <code>rescheduler</code> bean and names it in the disposition chain)` : ''
    }`;
}

/** NUTCH-1564's cost, as `npm run crawlers-tables` measured it (README's table). */
function nutch1564() {
  const [after, before] = measured.nutch1564;
  if (!after || !before) return '';
  const row = (label, r) =>
    `<tr><th scope="row">${label}</th><td class="num">${integer(r.requests)}</td><td class="num">${number((100 * r.unchanged) / r.requests, 3)} %</td>
      <td class="num">${number(r.freshness, 3)}</td><td class="num">${number(r.merge, 3)}</td></tr>`;
  return `<table class="proof"><caption>A worked result: what NUTCH-1564 cost (its own settings, a daily cycle, the classroom pages, 365 days;
      measured by <code>npm run crawlers-tables</code>)</caption>
    <thead><tr><th scope="col">Nutch</th><th scope="col">requests</th><th scope="col">fetches of unchanged pages</th>
      <th scope="col">freshness, last quarter</th><th scope="col">MERGE at the same bandwidth</th></tr></thead>
    <tbody>${row('with the fix (January 2026)', after)}${row('before the fix', before)}</tbody></table>
    <p class="fineprint">Sync delta gave a page unchanged for longer than its longest interval ÷ sync_delta_rate a next fetch in the past:
      refetched at every cycle. Run it yourself: download <a href="samples/nutch-1564.xml" download>nutch-1564.xml</a>, drop it on the box
      above, set “Nutch's sync delta” and a 24-hour cycle. Synthetic pages, not a real crawl.</p>`;
}

export default {
  id: 'crawlers',
  group: 'learning',
  title: 'Your crawler on your pages',
  card: 'Drop your nutch-site.xml (or StormCrawler, Heritrix or Scrapy settings) and see how fresh your crawl will be and how many fetches find nothing new.',
  source: 'Apache Nutch, StormCrawler, Heritrix, Scrapy',
  lede: `<p><strong>How fresh will my crawler keep my pages, and what should I change?</strong> Load your crawler's own configuration file —
    Nutch's <code>nutch-site.xml</code>, StormCrawler's <code>crawler-conf.yaml</code>, Heritrix's <code>crawler-beans.cxml</code> or
    Scrapy's <code>settings.py</code> — and Freshlab runs its revisit rule (Nutch's DefaultFetchSchedule or AdaptiveFetchSchedule,
    StormCrawler's DefaultScheduler or AdaptiveScheduler, Heritrix's ReschedulingProcessor where its file runs one; otherwise Heritrix and Scrapy recrawl at the interval you give) with its server delay, on
    the generator's pages or your page list, against MERGE on OPT_POLITE at the bandwidth your crawler used, on servers that may push back (a capacity, a
    response time, a robots.txt Crawl-delay; 429 or 503, with or without Retry-After). Every setting is shown with its value and where it
    came from. Tick “find a tuned configuration” and Freshlab searches your file's own settings for one that keeps the pages fresher on
    no more requests, re-simulates it and gives you the file. Nutch's crawl cycle and NUTCH-1564 (before and after its fix) are settings
    here. A page list may give each server its own limits (columns <code>crawl_delay</code>, <code>capacity</code>, <code>response_ms</code>);
    the same run from the command line: <code>freshlab crawlers --repository pages.csv --crawler-config nutch-site.xml --tuned tuned.xml</code>.
    With a cycle, Nutch's fetch list holds at most <code>generate.topN</code> pages of those due, the highest-scored first (a page's
    weight stands for its score, which in Nutch comes from its links; equal scores drawn at random), and at most
    <code>generate.max.count</code> of one host; the pages left off wait for the next cycle. (Nutch's Generator takes topN from
    its <code>-topN</code> argument, over any file's value: give here the one your crawl passes.)</p>`,
  panels: [
    {
      id: 'crawlers',
      heading: 'Your crawler against MERGE',
      keyFields: ['crawler', 'horizon_days', 'recrawl_days'],
      auto: false,
      action: 'Simulate',
      fields: [
        'crawler',
        'crawler_settings',
        'recrawl_days',
        'horizon_days',
        'server_capacity',
        'response_ms',
        'crawl_delay_seconds',
        'refusal',
        'retry_after',
        'merge_backoff',
        'merge_load',
        'tune',
        'tune_for',
        'nutch_1564',
        'nutch_cycle_hours',
        'source',
        'repository.pages',
        'repository.servers',
        'repository.rate_min',
        'repository.rate_max',
        'bins',
        'seed',
      ],
      setup: (panel, controls) => {
        csvDropBox(panel, controls, {
          key: 'crawlerConfig',
          label: 'Your crawler’s configuration file',
          accept: '.xml,.cxml,.yaml,.yml,.flux,.py,text/xml,text/plain',
          sampleLabel: 'Load a sample nutch-site.xml',
          sample: 'nutch-site.xml',
          sampleName: 'nutch-site.xml (a sample: adaptive, weekly, 30 s delay)',
          sampleFor: (config) =>
            ({
              heritrix: { sample: 'crawler-beans.cxml', sampleLabel: 'Load a sample crawler-beans.cxml', sampleName: 'crawler-beans.cxml (a sample: sheets slow site1 and every host’s deep pages, speed site2 and site3)' },
              scrapy: { sample: 'settings.py', sampleLabel: 'Load a sample settings.py', sampleName: 'settings.py (a sample: 2 s delay, slots slow site1 and site2)' },
            })[config.crawler] ?? null,
          empty: 'No configuration loaded: the crawler runs on its shipped defaults. Drop its file here or choose one.',
          waiting: 'No configuration loaded: the crawler runs on its shipped defaults.',
          loaded: 'Its settings are read when the form is checked; each is listed under the chart after the run.',
          help: `nutch-site.xml (properties over nutch-default.xml), crawler-conf.yaml or a Flux file (settings under <code>config:</code>), crawler-beans.cxml
            (the <code>disposition</code> bean, its overrides and its sheets over hosts and paths) or settings.py (plain NAME = value lines; DOWNLOAD_SLOTS as a dict). The crawler is set from the file's form; a setting
            that cannot be read is reported with its line. Limit: 1 MB.`,
          // whose file it is, from its form (as the CLI does without --crawler)
          onLoad: (p, text) => {
            const crawler = p.core.crawler_of(text);
            if (crawler) p.form.set('crawler', crawler);
          },
        });
        pageListBox(panel, controls, { servers: true });
        csvDropBox(panel, controls, {
          key: 'seedList',
          shownFor: (config) => config.crawler === 'nutch' || config.crawler === 'stormcrawler',
          label: 'Your seed list (Nutch’s Injector, StormCrawler’s seeds)',
          accept: '.txt,text/plain',
          sampleLabel: 'Load a sample seed list for sample-hosts.csv',
          sample: 'seeds.txt',
          sampleName: 'seeds.txt (a sample: the five largest hosts’ front pages daily)',
          empty: 'No seed list: the page list’s metadata column, if any, gives the pages’ pairs.',
          waiting: 'No seed list: the page list’s metadata column, if any, gives the pages’ pairs.',
          loaded: 'Each line’s pairs stand for its page’s metadata (the page list’s page column holds the URLs); the run says how many pages it gave.',
          help: `A URL a line, then its <code>key=value</code> pairs, each after a tab; <code>#</code> starts a comment. Joined to the page
            list by page, in place of its <code>metadata</code> column; a seed of no page is listed, not run. The tuned <code>seeds.txt</code>
            loads here. Limit: 64 MB (some 800,000 pages).`,
          onLoad: () => {},
          shape: 'seeds',
        });
        csvDropBox(panel, controls, {
          key: 'hostIntervals',
          shownFor: (config) => config.crawler === 'nutch',
          label: 'Nutch’s per-host intervals (adaptive-host-specific-intervals.txt)',
          accept: '.txt,text/plain',
          sampleLabel: 'Load a sample for sample-hosts.csv',
          sample: 'adaptive-host-specific-intervals.txt',
          sampleName: 'adaptive-host-specific-intervals.txt (a sample: site1 daily at most, site2 weekly)',
          empty: 'No per-host intervals: every host has the global bounds.',
          waiting: 'No per-host intervals: every host has the global bounds.',
          loaded: 'Each listed host’s adaptive interval is held within its own bounds (Nutch’s AdaptiveFetchSchedule and a page list naming the hosts).',
          help: `NUTCH-3029: a line a host, <code>&lt;hostname&gt; &lt;min&gt; &lt;max&gt;</code> in seconds, <code>default</code> for the global
            bound. Hosts are matched to the page list's <code>server</code> column. The tuned file loads here. Limit: 64 MB (some 1,900,000 hosts).`,
          onLoad: () => {},
          shape: 'hosts',
        });
        csvDropBox(panel, controls, {
          key: 'mimeRates',
          shownFor: (config) => config.crawler === 'nutch',
          label: 'Nutch’s rates by type (adaptive-mimetypes.txt)',
          accept: '.txt,text/plain',
          sampleLabel: 'Load a sample adaptive-mimetypes.txt',
          sample: 'adaptive-mimetypes.txt',
          sampleName: 'adaptive-mimetypes.txt (a sample: feeds adapt quickly, PDFs seldom shorten)',
          empty: 'No rates by type: every page adapts at inc_rate and dec_rate.',
          waiting: 'No rates by type: every page adapts at inc_rate and dec_rate.',
          loaded: 'A page whose metadata gives a Content-Type the file lists adapts at its rates (Nutch’s MimeAdaptiveFetchSchedule).',
          help: `MimeAdaptiveFetchSchedule: a line a type, <code>&lt;mime-type&gt; TAB &lt;inc_rate&gt; TAB &lt;dec_rate&gt;</code>. Pages give their
            type in the page list's <code>metadata</code> column (<code>Content-Type=text/html</code>). Limit: 1 MB.`,
          onLoad: () => {},
        });
        csvDropBox(panel, controls, {
          key: 'heritrixOverrides',
          shownFor: (config) => config.crawler === 'heritrix',
          label: 'Heritrix’s overrides file (its PropertyOverrideConfigurer’s location)',
          accept: '.properties,.txt,text/plain',
          sampleLabel: 'Load a sample overrides file',
          sample: 'heritrix-overrides.properties',
          sampleName: 'heritrix-overrides.properties (a sample: politer delays)',
          empty: 'No overrides file: a location your crawler-beans.cxml names is listed, not read.',
          waiting: 'No overrides file: a location your crawler-beans.cxml names is listed, not read.',
          loaded: 'Its bean.property=value lines are set over the beans after the overrides bean’s own (as Spring does), and each setting names it.',
          help: `The properties file a <code>PropertyOverrideConfigurer</code> in crawler-beans.cxml reads from its <code>location</code>
            (<code>bean.property=value</code> lines, Java properties). Limit: 1 MB.`,
          onLoad: () => {},
        });
      },
      files: [
        {
          key: 'crawlerConfig',
          field: 'crawler_config',
          param: 'crawler_file',
          noun: 'crawler configuration',
          otherwise: 'the crawler’s shipped defaults',
          when: () => true,
        },
        PAGE_LIST_FILE,
        {
          key: 'hostIntervals',
          field: 'host_intervals',
          shape: 'host_shape',
          param: 'host_file',
          noun: 'per-host intervals',
          otherwise: 'the global bounds',
          when: () => true,
        },
        {
          key: 'seedList',
          field: 'seed_list',
          shape: 'seed_shape',
          param: 'seed_file',
          noun: 'seed list',
          otherwise: 'the page list’s metadata column',
          when: () => true,
        },
        {
          key: 'mimeRates',
          field: 'mime_rates',
          param: 'mime_file',
          noun: 'rates by type',
          otherwise: 'inc_rate and dec_rate for every page',
          when: () => true,
        },
        {
          key: 'heritrixOverrides',
          field: 'heritrix_overrides',
          param: 'overrides_file',
          noun: 'overrides file',
          otherwise: 'the overrides in crawler-beans.cxml only',
          when: () => true,
        },
      ],
      estimate: true,
      hover: (_core, x, y) => `day ${number(x, 4)}: ${number(y, 4)}`,
      details(result, element, phase) {
        const pages = `${integer(result.repository.pages)} pages on ${integer(result.repository.servers)} servers`;
        const on =
          result.config.source === 'page_list'
            ? `<p>Your page list: ${pages}${result.servers.some((g) => g.capacity || g.crawl_delay_s || g.response_ms) ? ', each server with its own limits where the list gives them' : ''}.${estimatedNote(result.repository)}</p>`
            : `<p class="warning">The pages are <strong>synthetic</strong> (the generator's): ${pages}, every server with the form's limits.</p>`;
        const hosts = [result.host_intervals, result.sheets, result.seeds].filter(Boolean).map((used) => `<p>${escape(used.said)}.</p>`).join('');
        // a disclosure the reader opened stays open as a long run's partial results redraw
        const opened = element.querySelector('details.ignored')?.open;
        element.innerHTML = overrulesNote(result.loaded) + unseenRefusalsNote(result) + on + hosts + runsTable(result, phase === 'final') + (phase === 'final' ? serversTable(result) : '') + tunedSection(result) + metadataTable(result.metadata) + settingsTable(result.loaded) + nutch1564();
        if (opened) element.querySelector('details.ignored')?.setAttribute('open', '');
        const button = element.querySelector('[data-tuned-download]');
        if (button) button.addEventListener('click', () => downloadText(result.tuned.file_name, result.tuned.text, 'text/plain'));
        const hostsButton = element.querySelector('[data-tuned-hosts-download]');
        if (hostsButton) hostsButton.addEventListener('click', () => downloadText(result.tuned.hosts.file_name, result.tuned.hosts.text, 'text/plain'));
        const mimesButton = element.querySelector('[data-tuned-mimes-download]');
        if (mimesButton) mimesButton.addEventListener('click', () => downloadText(result.tuned.mimes.file_name, result.tuned.mimes.text, 'text/plain'));
        const seedsButton = element.querySelector('[data-tuned-seeds-download]');
        if (seedsButton) seedsButton.addEventListener('click', () => downloadText(result.tuned.seeds.file_name, result.tuned.seeds.text, 'text/plain'));
      },
    },
  ],
};
