//! Issue 13: every experiment's cost model against measurement. Each experiment runs at
//! a few sizes under a counting allocator; its estimated peak memory must be at least
//! 90 % of the measured peak (runs are refused by it: it must not fall short) and at
//! most 130 % (a simple model of what each page holds, which the allocation decides,
//! errs on the safe side), and its estimated work within 20 % of the work its job
//! counted (experiments whose work is an upper bound — a deployed crawler's requests,
//! which it decides as it learns — must not be exceeded). Native only: the allocator is
//! this binary's.
#![cfg(not(target_arch = "wasm32"))]

#[path = "common/counting.rs"]
mod counting;

use freshlab::core::model::history::Format;
use freshlab::core::model::history::count::PageCount;
use freshlab::experiments::history::cost::counted_format;
use freshlab::experiments::{Config, parse_config, start};

/// The allocator counts the whole binary: the tests that measure run one at a time.
static MEASURING: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Runs `json` to the end: (estimated bytes, measured peak bytes, estimated work, work done).
fn measure(json: &str) -> (f64, f64, f64, f64) {
    let config: Config = parse_config(json).expect("a valid config");
    let cost = config.cost();
    let base = counting::mark();
    let mut job = start(config).expect("within the limits");
    while !job.done() {
        job.advance(1 << 20);
    }
    let work = job.work();
    let output = job.finish();
    let peak = counting::peak_since(base);
    drop(output);
    (cost.bytes, peak as f64, cost.work, work)
}

/// The cases: (config, whether the estimates are meant to be close or are upper bounds:
/// a deployed crawler's requests, which it decides as it learns; the certificate's are
/// its pilot's search, the run's own, where that ends within the pilot).
const CASES: &[(&str, bool)] = &[
    (r#"{"experiment":"level_sets","grid":301}"#, true),
    (r#"{"experiment":"level_sets","grid":801}"#, true),
    (r#"{"experiment":"factor_curves","points":20000}"#, true),
    (r#"{"experiment":"bursts","points":20000}"#, true),
    (r#"{"experiment":"certify","enclosure":"natural","max_boxes":200000}"#, true),
    (r#"{"experiment":"certify","max_boxes":200000}"#, true),
    (r#"{"experiment":"per_page","points":4,"revisits":2000,"replications":4,"other_pages":2000,"c":3}"#, true),
    (r#"{"experiment":"channel","repository":{"pages":200000,"servers":500},"windows":20000,"window_requests":50}"#, true),
    (r#"{"experiment":"channel","repository":{"pages":50000,"servers":500},"windows":20000,"window_requests":50}"#, true),
    (r#"{"experiment":"allocate","repository":{"pages":100000,"servers":200}}"#, true),
    (r#"{"experiment":"allocate","repository":{"pages":400000,"servers":800}}"#, true),
    (r#"{"experiment":"allocate","repository":{"pages":400000,"servers":3000}}"#, true),
    (r#"{"experiment":"policies","repository":{"pages":100000,"servers":200},"horizon_days":60,"crawlers":[]}"#, true),
    (r#"{"experiment":"policies","repository":{"pages":400000,"servers":800},"horizon_days":20,"crawlers":[],"capacities":[0.1]}"#, true),
    (r#"{"experiment":"policies","repository":{"pages":400000,"servers":2000},"horizon_days":20,"crawlers":[],"capacities":[0.9]}"#, true),
    (r#"{"experiment":"policies","repository":{"pages":200000,"servers":400},"horizon_days":20,"policies":[],"crawlers":["nutch"],"capacities":[0.1]}"#, false),
    (r#"{"experiment":"policies","repository":{"pages":1000000,"servers":1000},"horizon_days":0.5,"policies":["merge"],"capacities":[0.9]}"#, true),
    (r#"{"experiment":"policies","repository":{"pages":2000000,"servers":2000},"sample_servers":16,"horizon_days":1,"crawlers":[]}"#, true),
    (r#"{"experiment":"policies","repository":{"pages":2000000,"servers":2000},"sample_servers":64,"horizon_days":1,"crawlers":[],"capacities":[0.9]}"#, true),
    (r#"{"experiment":"sensors","pages":40000,"horizon":600000,"week":600000,"sample_every":1000,"stationary_from":300000}"#, true),
    (r#"{"experiment":"sensors","pages":120000,"horizon":300000,"week":600000,"sample_every":1000,"stationary_from":100000}"#, true),
    (r#"{"experiment":"sensors","pages":60000,"horizon":600000,"week":600000,"sample_every":1000,"stationary_from":300000,"sensor_share":0.5,"robots":3,"robot_sweep":[2]}"#, true),
    // robots over pages nearly all in error states (the fuzzer's 1,000,000-case campaign
    // found one run at 2.3x the old estimate): walks between downloads far longer than
    // the mean share out of error says, and a cycle end kept at every pass; while the
    // pages keep state 6 until their first change, and when they have all changed
    (
        r#"{"experiment":"sensors","concepts":["robot"],"pages":2000,"horizon":200000,"week":600000,"sample_every":1000,"stationary_from":100000,"robots":4,"states":[0.33,0.33,0.335,0,0,0.005]}"#,
        true,
    ),
    (
        r#"{"experiment":"sensors","concepts":["robot"],"pages":2000,"horizon":200000,"week":2000,"sample_every":1000,"stationary_from":100000,"robots":4,"states":[0.33,0.33,0.335,0,0,0.005]}"#,
        true,
    ),
    (
        r#"{"experiment":"sensors","concepts":["robot"],"pages":50000,"horizon":100000,"week":100000,"sample_every":1000,"stationary_from":50000,"robot_order":"merge","robot_sweep":[3]}"#,
        true,
    ),
    // 200 pages changing 6 times over the horizon, all into errors: one run's time with
    // every page in error strays far from its mean (the fuzzer, seed 1, case 40,257:
    // 2.5x the mean's work), so the estimate takes the share out of error low: an upper bound
    (
        r#"{"experiment":"sensors","seed":1,"concepts":["robot","sensors"],"horizon":20000,"week":20000,"pages":200,"rate_spread":1.1552839105090897,"requests_per_week":0.007,"sample_every":1000,"stationary_from":10000,"states":[0.083,0.125,9223372036854775808,0.25,0.25,0.166]}"#,
        false,
    ),
    // pages never requested are never notified, so hold no pending events (the fuzz
    // campaign's case 6,605: 1.56 times the peak when each was counted with them)
    (r#"{"experiment":"sensors","requests_per_week":1e-308}"#, true),
    (r#"{"experiment":"bursty","generator":{"articles":400,"days":60},"politeness_seconds":2000,"policies":["merge","merge2","random","unpolite"]}"#, true),
    (r#"{"experiment":"bursty","generator":{"articles":100,"days":40},"politeness_seconds":20000,"fractions":[0.5,1]}"#, true),
    (r#"{"experiment":"partition","web":{"hosts":2000,"ips":500,"mean_pages":60,"max_pages":5000},"robots":[2,10]}"#, true),
    (r#"{"experiment":"partition","web":{"hosts":4000,"ips":900,"mean_pages":90,"max_pages":9000},"robots":[5]}"#, true),
    // learning: requests and history items bounded above (fetches finding a change, at
    // most one a change), so upper bounds
    (
        r#"{"experiment":"learning","repository":{"pages":50000,"servers":500},"capacity":5000,"horizon_days":60,"policies":["oracle","learn_and_crawl","uniform","merge_learned"]}"#,
        false,
    ),
    (
        r#"{"experiment":"learning","repository":{"pages":50000,"servers":500},"capacity":5000,"horizon_days":60,"observed_share":1,"policies":["oracle","learn_and_crawl","uniform","merge_learned"]}"#,
        false,
    ),
    (
        r#"{"experiment":"learning","repository":{"pages":50000,"servers":500},"capacity":5000,"horizon_days":60,"observed_share":1,"objective":"freshness","policies":["oracle","learn_and_crawl","uniform","merge_learned"]}"#,
        false,
    ),
    (
        r#"{"experiment":"learning","repository":{"pages":50000,"servers":500},"capacity":5000,"horizon_days":60,"observed_share":0.5,"objective":"binary","spacing":"equal","policies":["oracle","learn_and_crawl","uniform","merge_learned"]}"#,
        false,
    ),
];

#[test]
fn estimates_cover_the_measured_memory_and_are_within_20_percent_of_the_work() {
    let _alone = MEASURING.lock().unwrap_or_else(|e| e.into_inner());
    let mut failures = Vec::new();
    println!("{:<70} {:>12} {:>12} {:>7} {:>14} {:>14} {:>7}", "config", "est. bytes", "peak bytes", "ratio", "est. work", "work", "ratio");
    // FRESHLAB_COST_CASES (or the file FRESHLAB_COST_CASES_FILE, for configs with a page
    // list's text): more configs, one JSON per line (for calibrating a model)
    let listed = std::env::var("FRESHLAB_COST_CASES").ok().or_else(|| std::env::var("FRESHLAB_COST_CASES_FILE").ok().and_then(|f| std::fs::read_to_string(f).ok()));
    let extra: Vec<String> = listed.map(|t| t.lines().map(String::from).collect()).unwrap_or_default();
    let cases = CASES.iter().map(|&(j, e)| (j.to_string(), e)).chain(extra.into_iter().map(|j| (j, true)));
    for (json, exact_work) in cases {
        let json = json.as_str();
        let (estimated, peak, planned, done) = measure(json);
        let (memory, work) = (estimated / peak, planned / done);
        let name: String = json.chars().take(70).collect();
        println!("{name:<70} {estimated:>12.0} {peak:>12.0} {memory:>7.3} {planned:>14.0} {done:>14.0} {work:>7.3}");
        // issue 45: never below the peak; at most 1.5× above it where the run holds 20 MB
        // or more (below, the model's fixed allowances dominate)
        let memory_ok = memory >= 1.0 && (memory <= 1.5 || peak < 20e6 || !exact_work);
        if !memory_ok {
            failures.push(format!("{json}: memory estimated {estimated:.0}, measured {peak:.0} (ratio {memory:.3})"));
        }
        let work_ok = if exact_work { (0.8..=1.2).contains(&work) } else { work >= 1.0 };
        if !work_ok {
            failures.push(format!("{json}: work estimated {planned:.0}, done {done:.0} (ratio {work:.3})"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A trace is read row by row: held as rows of strings all at once, a trace of 121,146
/// changes (2.8 MB) peaked 11.6 MB higher, above its estimate. Here the generator's 400
/// articles over 91 days as a trace's text (allocated before the count starts, as a
/// file's text is read before a run), replayed by the policies that hold nothing per
/// article beyond its changes (the renewal tables would hide the rows).
#[test]
fn a_trace_is_read_within_its_estimate() {
    let _alone = MEASURING.lock().unwrap_or_else(|e| e.into_inner());
    let generator = freshlab::core::model::bursty::BurstyGenerator { articles: 400, days: 91.0, ..Default::default() };
    let text = generator.generate(3).expect("a trace").to_csv();
    let json = serde_json::json!({ "experiment": "bursty", "source": "trace", "trace": text, "policies": ["merge", "random", "unpolite"] }).to_string();
    let (estimated, peak, planned, done) = measure(&json);
    println!("a trace of {} bytes: memory estimated {estimated:.0}, peak {peak:.0}; work {planned:.0}, done {done:.0}", text.len());
    assert!(estimated >= peak && estimated <= 1.5 * peak.max(20e6), "memory estimated {estimated:.0}, measured {peak:.0}");
    assert!((0.8..=1.2).contains(&(planned / done)), "work estimated {planned:.0}, done {done:.0}");
}

/// The page asks the cost of every edit before it is valid: found by the fuzzer (seed 1,
/// case 498,548), a page list beside the generator's 2^64 − 1 pages overflowed.
#[test]
fn the_cost_of_an_invalid_configuration_is_computed_without_overflow() {
    let json = r#"{"experiment":"allocate","capacity":400,"source":"generator","page_list":"page,server,change_rate\np0,s0,2\n","repository":{"pages":18446744073709551615}}"#;
    let config: Config = parse_config(json).expect("parses");
    let cost = config.cost();
    assert!(cost.bytes > 1e20, "an estimate as large as the request: {}", cost.bytes);
    assert!(config.validate(&freshlab::core::limits::NATIVE).is_err());
}

/// A MediaWiki dump: `articles` articles of `revisions` revisions, each with a text of
/// about `text` bytes.
fn dump(articles: usize, revisions: usize, text: usize) -> String {
    let mut s = String::from(
        "<mediawiki xmlns=\"http://www.mediawiki.org/xml/export-0.11/\" version=\"0.11\" xml:lang=\"en\">\n  <siteinfo>\n    <sitename>Wikipedia</sitename>\n    <base>https://en.wikipedia.org/wiki/Main_Page</base>\n  </siteinfo>\n",
    );
    let body = "lorem ipsum ".repeat(text / 12);
    for a in 0..articles {
        s.push_str(&format!("  <page>\n    <title>Article {a}</title>\n    <ns>0</ns>\n    <id>{a}</id>\n"));
        for r in 0..revisions {
            let (month, day, hour) = (1 + r / 280, 1 + (r / 10) % 28, (r % 10) * 2);
            s.push_str(&format!(
                "    <revision>\n      <id>{}</id>\n      <timestamp>2025-{month:02}-{day:02}T{hour:02}:{:02}:00Z</timestamp>\n      <text bytes=\"{}\" xml:space=\"preserve\">{body}</text>\n    </revision>\n",
                a * revisions + r,
                a % 60,
                body.len()
            ));
        }
        s.push_str("  </page>\n");
    }
    s.push_str("</mediawiki>\n");
    s
}

/// A CDX index: `urls` URLs on 100 hosts, `captures` captures each, about 130 bytes a line.
fn cdx(urls: usize, captures: usize) -> String {
    let mut s = String::from(" CDX N b a m s k r M S V g\n");
    for u in 0..urls {
        for c in 0..captures {
            s.push_str(&capture(u, c));
        }
    }
    s
}

/// The same captures in time order: a crawler's log of `captures` rounds.
fn cdx_in_time_order(urls: usize, captures: usize) -> String {
    let mut s = String::from(" CDX N b a m s k r M S V g\n");
    for c in 0..captures {
        for u in 0..urls {
            s.push_str(&capture(u, c));
        }
    }
    s
}

/// The `c`-th capture of page `u` (its content changing every third).
fn capture(u: usize, c: usize) -> String {
    let digest = if c.is_multiple_of(3) { format!("D{u}X{c}") } else { format!("D{u}X{}", c - c % 3) };
    format!("example,site{})/p{u} 2025{:02}{:02}120000 http://site{}.example/p{u} text/html 200 {digest} - - 9000 0 crawl.warc.gz\n", u % 100, 1 + c / 28, 1 + c % 28, u % 100)
}

/// A sitemap of `urls` URLs as its `snapshot`th snapshot shows it, taken on February
/// 2 + `snapshot`, 2026: URL `u` changes at noon every 1 + u % 3 days.
fn sitemap(urls: usize, snapshot: usize) -> String {
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
    for u in 0..urls {
        s.push_str(&format!(
            "<url><loc>https://site{}.example/articles/p{u}</loc><lastmod>2026-02-{:02}T12:00:00+00:00</lastmod><changefreq>weekly</changefreq></url>\n",
            u % 100,
            1 + snapshot - snapshot % (1 + u % 3)
        ));
    }
    s + "</urlset>\n"
}

/// Issue 47: the history's memory from its records a byte, counted in each file's head
/// (the first MiB): a dump's revisions carry texts of a kilobyte, a CDX line is some 130
/// bytes — the bound of a mark every 40 bytes was 11 times the peak on a 332 MB dump.
/// The estimate, less the text the run holds (allocated here before the count starts),
/// covers the measured peak and is at most 1.6 times it (1.9 a sitemap's), beside the
/// megabyte every run is allowed (which dominates the dump's peak at this size); a
/// file given by its head alone (the page's checks) is estimated about the same. A file
/// of one capture a page (an index of one crawl, a sitemap) costs most by its pages:
/// the estimate had taken a page for every four records and fell short. A log in time
/// order names each page once in its head, as an index of one crawl does: its pages are
/// counted over the whole file (the page's worker counts them as it loads the file, and
/// its checks send the count with the head); taken for a page a record, a log of 12
/// rounds had been priced at some 10 times its peak.
#[test]
fn history_memory_follows_the_records_a_byte_of_each_file() {
    let _alone = MEASURING.lock().unwrap_or_else(|e| e.into_inner());
    // a sitemap's pages hold less than an index's (no mime type, one mark each): the
    // one constant a page overestimates them most
    for (name, text, most) in [
        ("dump.xml", dump(400, 60, 1000), 1.6),
        ("index.cdx", cdx(20_000, 12), 1.6),
        ("log.cdx", cdx_in_time_order(20_000, 12), 1.6),
        ("once.cdx", cdx(60_000, 1), 1.6),
        ("sitemap.xml", sitemap(60_000, 0), 1.9),
    ] {
        let config = serde_json::json!({ "experiment": "history", "source": "files", "files": [{ "name": name, "text": text }] });
        let (estimated, peak, _, _) = measure(&config.to_string());
        // the text with the 7 % allowance every estimate carries (experiments::registry)
        let records = estimated - 1.07 * text.len() as f64;
        println!("{name}: {} bytes of records, estimated {estimated:.0}: less the text {records:.0} against a peak of {peak:.0} ({:.2}×)", text.len(), records / peak);
        // never short; at most `most` times, beside the megabyte every run is allowed: the
        // margin of a file read past its first megabyte (1.25) times the resident size's
        // share over what is allocated (the pages' constants are fitted to the CLI's
        // peak resident size, `npm run estimates`' measure: about 1.2 times this count)
        assert!(records >= peak && records <= most * peak + 2e6, "{name}: estimated {estimated:.0} less {} of text against a peak of {peak:.0}", text.len());
        let cut = text.char_indices().nth(256 * 1024).map_or(text.len(), |(i, _)| i);
        // the count the page's worker sends with the head, where the head cannot tell them
        let pages = counted_format(&text, text.len() as f64, Format::Auto, false).map(|format| {
            let mut count = PageCount::new(format);
            count.feed(&text);
            count.pages()
        });
        let head = serde_json::json!({ "experiment": "history", "source": "files", "files": [{ "name": name, "text": &text[..cut], "bytes": text.len(), "pages": pages }] });
        let by_head = parse_config(&head.to_string()).expect("a valid config").cost().bytes;
        assert!((by_head / estimated - 1.0).abs() < 1.0, "{name}: by its head {by_head:.0}, whole {estimated:.0}");
    }
}

/// Issue 47: a crawler's log rotated daily, each file a round over the same pages, and a
/// sitemap's snapshots, each naming every URL: their pages are counted together (each
/// file the pages it adds), not once a file, whatever the files' size (these snapshots
/// are under a megabyte each). Never short, at most 1.6 times the peak beside the text;
/// priced file by file, 12 rounds had been some 10 times, 12 snapshots 8 times. The
/// snapshots are read from their paths, as the command line streams them: a sitemap's
/// text given inline is let go once read, which the estimate (the page holds every
/// file's text) does not count on.
#[test]
fn history_files_naming_the_same_pages_are_priced_by_their_pages_together() {
    let _alone = MEASURING.lock().unwrap_or_else(|e| e.into_inner());
    let rounds: Vec<String> = (0..12).map(|c| (0..12_000).map(|u| capture(u, c)).collect()).collect();
    assert!(rounds[0].len() > 1 << 20, "each file past its first megabyte");
    let files: Vec<_> = rounds.iter().enumerate().map(|(c, text)| serde_json::json!({ "name": format!("day{c}.cdx"), "text": text })).collect();
    let config = serde_json::json!({ "experiment": "history", "source": "files", "files": files });
    let (estimated, peak, _, _) = measure(&config.to_string());
    let text: usize = rounds.iter().map(String::len).sum();
    let records = estimated - 1.07 * text as f64;
    println!("12 rotated logs: {text} bytes, estimated {estimated:.0}: less the text {records:.0} against a peak of {peak:.0} ({:.2}×)", records / peak);
    assert!(records >= peak && records <= 1.6 * peak + 2e6, "estimated {estimated:.0} less {text} of text against a peak of {peak:.0}");

    let dir = std::env::temp_dir().join(format!("freshlab-snapshots-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let paths: Vec<String> = (0..12)
        .map(|c| {
            let text = sitemap(7_000, c);
            assert!(text.len() < 1 << 20, "each file within its first megabyte");
            let path = dir.join(format!("sitemap-2026-02-{:02}.xml", 2 + c));
            std::fs::write(&path, text).expect("a snapshot written");
            path.to_string_lossy().into_owned()
        })
        .collect();
    let config = serde_json::json!({ "experiment": "history", "source": "files", "paths": paths });
    let (estimated, peak, _, _) = measure(&config.to_string());
    std::fs::remove_dir_all(&dir).ok();
    println!("12 sitemap snapshots of 7,000 URLs: estimated {estimated:.0} against a peak of {peak:.0} ({:.2}×)", estimated / peak);
    assert!(estimated >= peak && estimated <= 1.6 * peak + 2e6, "estimated {estimated:.0} against a peak of {peak:.0}");

    // a WARC file of 12 rounds: its head names each page once, as one crawl's would; its
    // pages are counted in the capture index it implies (its head's had priced it at
    // 11 to 21 times its peak)
    let path = dir.with_extension("warc");
    std::fs::write(&path, warc(6_000, 12)).expect("a WARC file written");
    let config = serde_json::json!({ "experiment": "history", "source": "files", "paths": [path.to_string_lossy()] });
    let (estimated, peak, _, _) = measure(&config.to_string());
    std::fs::remove_file(&path).ok();
    println!("a WARC file of 12 rounds over 6,000 pages: estimated {estimated:.0} against a peak of {peak:.0} ({:.2}×)", estimated / peak);
    // its records at twice its head's density (a WARC file's records vary in size as
    // its pages do), beside its stream's buffers
    assert!(estimated >= peak && estimated <= 2.0 * peak + 2e6, "estimated {estimated:.0} against a peak of {peak:.0}");
}

/// A WARC file of `rounds` crawls of `pages` pages in time order, a response each (its
/// payload changing every other round), every other page's with its payload digest
/// and the rest's hashed by the reader.
fn warc(pages: usize, rounds: usize) -> String {
    let mut s = String::new();
    for r in 0..rounds {
        for p in 0..pages {
            let body = format!("<html>page {p} version {}</html>{}", r / 2, "words ".repeat(20));
            let http = format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\r\n{body}", body.len());
            let digest = if p % 2 == 0 { format!("WARC-Payload-Digest: sha1:D{p}V{}\r\n", r / 2) } else { String::new() };
            s.push_str(&format!(
                "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://site{}.example/p{p}\r\nWARC-Date: 2026-{:02}-{:02}T12:00:00Z\r\nContent-Type: application/http; msgtype=response\r\n{digest}Content-Length: {}\r\n\r\n{http}\r\n\r\n",
                p % 100,
                1 + r / 28,
                1 + r % 28,
                http.len()
            ));
        }
    }
    s
}
