//! Scrapy's `settings.py`: plain `NAME = value` assignments, read without running
//! Python; a value may run over several lines inside brackets (a dict of pipelines).
//! Any other statement (an import, an `if`) is refused by name. Scrapy has no revisit
//! rule of its own: the experiment's recrawl interval is given beside it.

use super::{Entry, Known, Model, number, whole};
use crate::core::policy::adaptive::Intervals;
use crate::core::policy::pushback::Reaction;

/// Scrapy's default settings: no download delay (randomised 0.5–1.5× when set), eight
/// requests per domain at a time, AutoThrottle off.
pub const SHIPPED: Model = Model {
    intervals: Intervals::FIXED_30_DAYS,
    server_delay_s: 0.0,
    min_delay_s: 0.0,
    threads_per_queue: 1.0,
    crawl_delay_cap_s: 0.0,
    crawl_delay_forced: false,
    crawl_delay_floor: super::DelayFloor::None,
    reaction: Reaction::Scrapy { randomize: true, concurrency: 8.0, autothrottle: false, start_delay_s: 5.0, max_delay_s: 60.0, target_concurrency: 1.0 },
    // the recrawl interval, set beside the file
    retry_days: 30.0,
    // RetryMiddleware: RETRY_ENABLED, RETRY_TIMES 2, RETRY_HTTP_CODES with 429 and 503
    retry_times: 2,
    retries_429: true,
    retries_503: true,
    by_type: false,
    type_share: 1.0,
    type_lead: [1.0; super::TUNED_TYPES],
};

/// The settings read, with Scrapy's defaults.
pub const KNOWN: &[Known] = &[
    Known {
        name: "DOWNLOAD_DELAY",
        default: "0",
        meaning: "the gap between two requests to a domain (seconds; its mean when randomised)",
        apply: |m, v| {
            m.server_delay_s = number(v, "seconds")?;
            m.min_delay_s = m.server_delay_s;
            Ok(())
        },
    },
    Known {
        name: "RANDOMIZE_DOWNLOAD_DELAY",
        default: "True",
        meaning: "each delay × a uniform 0.5–1.5",
        apply: |m, v| {
            if let Reaction::Scrapy { randomize, .. } = &mut m.reaction {
                *randomize = getbool(v)?;
            }
            Ok(())
        },
    },
    Known {
        name: "RETRY_TIMES",
        default: "2",
        meaning: "retries of a refused request, each queued behind the domain's waiting requests; then the page waits for its next recrawl",
        apply: |m, v| {
            m.retry_times = whole(v, "retries", 0, 100)? as u32;
            Ok(())
        },
    },
    Known {
        name: "RETRY_ENABLED",
        default: "True",
        meaning: "RetryMiddleware on or off (off: no retry, whatever RETRY_TIMES says)",
        apply: |m, v| {
            if !getbool(v)? {
                m.retry_times = 0;
            }
            Ok(())
        },
    },
    Known {
        name: "RETRY_HTTP_CODES",
        default: "[500, 502, 503, 504, 522, 524, 408, 429]",
        meaning: "the statuses retried: whether 429 and 503 are among them",
        apply: |m, v| {
            let codes = v.trim().strip_prefix('[').and_then(|v| v.strip_suffix(']')).ok_or_else(|| String::from("must be a list of status codes, e.g. [503, 429]"))?;
            let mut read = Vec::new();
            for code in codes.split(',').map(str::trim).filter(|c| !c.is_empty()) {
                read.push(code.parse::<u16>().map_err(|_| format!("holds “{code}”, not a status code; give numbers, e.g. [503, 429]"))?);
            }
            m.retries_429 = read.contains(&429);
            m.retries_503 = read.contains(&503);
            Ok(())
        },
    },
    Known {
        name: "CONCURRENT_REQUESTS_PER_DOMAIN",
        default: "8",
        meaning: "requests to a domain at once, when there is no delay",
        apply: |m, v| {
            let n = whole(v, "requests", 1, u64::MAX)?;
            if let Reaction::Scrapy { concurrency, .. } = &mut m.reaction {
                *concurrency = n as f64;
            }
            Ok(())
        },
    },
    Known {
        name: "AUTOTHROTTLE_ENABLED",
        default: "False",
        meaning: "the delay follows the measured latency",
        apply: |m, v| {
            if let Reaction::Scrapy { autothrottle, .. } = &mut m.reaction {
                *autothrottle = getbool(v)?;
            }
            Ok(())
        },
    },
    Known {
        name: "AUTOTHROTTLE_START_DELAY",
        default: "5.0",
        meaning: "AutoThrottle's first delay (seconds)",
        apply: |m, v| {
            if let Reaction::Scrapy { start_delay_s, .. } = &mut m.reaction {
                *start_delay_s = number(v, "seconds")?;
            }
            Ok(())
        },
    },
    Known {
        name: "AUTOTHROTTLE_MAX_DELAY",
        default: "60.0",
        meaning: "AutoThrottle's longest delay (seconds)",
        apply: |m, v| {
            if let Reaction::Scrapy { max_delay_s, .. } = &mut m.reaction {
                *max_delay_s = number(v, "seconds")?;
            }
            Ok(())
        },
    },
    Known {
        name: "AUTOTHROTTLE_TARGET_CONCURRENCY",
        default: "1.0",
        meaning: "AutoThrottle aims at latency / this between requests",
        apply: |m, v| {
            let n = number(v, "requests")?;
            if n <= 0.0 {
                return Err("must be a number of requests above 0".into());
            }
            if let Reaction::Scrapy { target_concurrency, .. } = &mut m.reaction {
                *target_concurrency = n;
            }
            Ok(())
        },
    },
    Known {
        name: "ROBOTSTXT_OBEY",
        default: "False",
        meaning: "robots.txt's Allow and Disallow (every page here is allowed); on or off, Scrapy's RobotsTxtMiddleware keeps no Crawl-delay (scrapy#892, open), so a server's crawl_delay is not kept",
        // read for its value only: Reaction::Scrapy keeps no Crawl-delay either way
        apply: |_, v| getbool(v).map(|_| ()),
    },
];

/// The file's assignments, in order, with their lines.
pub fn entries(text: &str) -> Result<Vec<Entry>, String> {
    let mut entries = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((k, raw)) = lines.next() {
        let line = uncommented(raw).trim_end();
        if line.trim().is_empty() {
            continue;
        }
        let at = k as u64 + 1;
        let Some((name, value)) = line.split_once('=').filter(|(n, v)| is_name(n.trim()) && !v.starts_with('=')) else {
            let statement = line.split_whitespace().next().unwrap_or("");
            return Err(format!(
                "line {at}: `{}` is not a plain NAME = value assignment ({statement}); Freshlab reads only those: remove the line or set what it computes as a value",
                line.trim()
            ));
        };
        let mut value = value.trim().to_string();
        // a bracketed value runs until its brackets close
        while depth(&value) > 0 {
            let Some((_, more)) = lines.next() else { return Err(format!("line {at}: {} opens a bracket that never closes", name.trim())) };
            value.push(' ');
            value.push_str(uncommented(more).trim());
        }
        // a number as Python reads it (1_000, 0x10, (5), 5 * 60), else the text
        let value = python_number(&value).or_else(|| python_arithmetic(&value)).unwrap_or_else(|| unquoted(&value));
        entries.push(Entry { name: name.trim().to_string(), value, line: at, file: None, fixed: false, null: false });
    }
    Ok(entries)
}

fn is_name(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_') && !text.starts_with(|c: char| c.is_ascii_digit())
}

/// The line without a `#` comment (outside quotes).
fn uncommented(line: &str) -> &str {
    let mut quote = None;
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '#') => return &line[..i],
            _ => {}
        }
    }
    line
}

/// Open brackets less closed ones.
fn depth(text: &str) -> i64 {
    text.chars()
        .map(|c| match c {
            '[' | '{' | '(' => 1,
            ']' | '}' | ')' => -1,
            _ => 0,
        })
        .sum()
}

/// A quoted string's text; any other value as written.
fn unquoted(value: &str) -> String {
    let v = value.trim();
    for q in ['"', '\''] {
        if v.len() >= 2 && v.starts_with(q) && v.ends_with(q) {
            return v[1..v.len() - 1].to_string();
        }
    }
    v.to_string()
}

/// Scrapy's `Settings.getbool`: a whole number (a number's whole part) is true unless 0,
/// else `True`/`true` and `False`/`false`.
fn getbool(v: &str) -> Result<bool, String> {
    if let Ok(n) = v.parse::<f64>().map(f64::trunc) {
        return Ok(n != 0.0);
    }
    match v {
        "True" | "true" => Ok(true),
        "False" | "false" => Ok(false),
        _ => Err("must be True or False (or a number: 0 is False, any other True)".into()),
    }
}

/// A Python numeric literal (Python's lexical analysis: `_` between digits; `0x`, `0o`,
/// `0b`; a float's point and exponent), inside parentheses and with a sign as an
/// expression may have them, as the number's text Rust reads (None: not one).
fn python_number(text: &str) -> Option<String> {
    let mut t = text.trim();
    while let Some(inner) = t.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        t = inner.trim();
    }
    let (sign, body) = match t.strip_prefix('-') {
        Some(rest) => ("-", rest.trim_start()),
        None => ("", t.strip_prefix('+').map_or(t, str::trim_start)),
    };
    // each `_` between two digits (after a prefix, before the first digit too)
    let grouped = |digits: &str, radix: u32, after_prefix: bool| {
        let mut previous = if after_prefix { Some('x') } else { None };
        let ok = !digits.is_empty()
            && digits.chars().all(|c| {
                let fine = if c == '_' { previous.is_some_and(|p| p != '_') } else { c.is_digit(radix) };
                previous = Some(c);
                fine
            })
            && !digits.ends_with('_');
        ok.then(|| digits.replace('_', ""))
    };
    let prefixed = |radix: u32| {
        let digits = grouped(&body[2..], radix, true)?;
        i128::from_str_radix(&digits, radix).ok().map(|n| format!("{sign}{n}"))
    };
    match body.get(..2).map(str::to_ascii_lowercase).as_deref() {
        Some("0x") => return prefixed(16),
        Some("0o") => return prefixed(8),
        Some("0b") => return prefixed(2),
        _ => {}
    }
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(k) => (&body[..k], Some(&body[k + 1..])),
        None => (body, None),
    };
    let exponent = match exponent {
        None => String::new(),
        Some(e) => {
            let (esign, digits) = e.strip_prefix(['-', '+']).map_or(("", e), |d| (&e[..1], d));
            format!("e{esign}{}", grouped(digits, 10, false)?)
        }
    };
    let mantissa = match mantissa.split_once('.') {
        Some((whole, fraction)) if !(whole.is_empty() && fraction.is_empty()) => {
            let part = |p: &str| if p.is_empty() { Some(String::new()) } else { grouped(p, 10, false) };
            format!("{}.{}", part(whole)?, part(fraction)?)
        }
        Some(_) => return None,
        None => {
            let digits = grouped(mantissa, 10, false)?;
            // a decimal integer has no leading zero (017 is Python's syntax error)
            if exponent.is_empty() && digits.len() > 1 && digits.starts_with('0') && digits.bytes().any(|b| b != b'0') {
                return None;
            }
            digits
        }
    };
    Some(format!("{sign}{mantissa}{exponent}"))
}

/// Arithmetic on Python's numeric literals, as Python evaluates it (`5 * 60`,
/// `60 * 60 * 24`, `1 / 2`): `+ - * / // % **` with Python's precedence (`**` binds
/// tighter than a unary sign on its left, and to the right), parentheses; the result
/// as the number's text (a whole one without a point). None: anything else (a name, a
/// call), or a division by zero (Python stops on it).
fn python_arithmetic(text: &str) -> Option<String> {
    let tokens = arithmetic_tokens(text)?;
    let mut at = 0;
    let value = sum(&tokens, &mut at)?;
    if at != tokens.len() || !value.is_finite() {
        return None;
    }
    Some(if value.fract() == 0.0 && value.abs() < 1e15 { format!("{value:.0}") } else { format!("{value}") })
}

/// A token of arithmetic: a number, or an operator or parenthesis.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Token {
    Number(f64),
    Op(&'static str),
}

/// `text` as numbers (Python's literals) and operators; None: anything else.
fn arithmetic_tokens(text: &str) -> Option<Vec<Token>> {
    const OPS: [&str; 9] = ["**", "//", "+", "-", "*", "/", "%", "(", ")"];
    let mut tokens = Vec::new();
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        if let Some(op) = OPS.iter().find(|op| rest.starts_with(**op)) {
            tokens.push(Token::Op(op));
            rest = rest[op.len()..].trim_start();
            continue;
        }
        // a literal: digits, letters (0x, e), `_` and `.`, an exponent's sign
        let bytes = rest.as_bytes();
        if !(bytes[0].is_ascii_digit() || bytes[0] == b'.') {
            return None;
        }
        let mut end = 0;
        while end < bytes.len() {
            let b = bytes[end];
            let sign_of_exponent = (b == b'+' || b == b'-') && end > 0 && matches!(bytes[end - 1], b'e' | b'E') && !rest[..end].to_ascii_lowercase().starts_with("0x");
            if b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || sign_of_exponent {
                end += 1;
            } else {
                break;
            }
        }
        tokens.push(Token::Number(python_number(&rest[..end])?.parse().ok()?));
        rest = rest[end..].trim_start();
    }
    tokens.iter().any(|t| matches!(t, Token::Op(op) if *op != "(" && *op != ")")).then_some(tokens)
}

/// sum := term (('+' | '-') term)*
fn sum(tokens: &[Token], at: &mut usize) -> Option<f64> {
    let mut value = term(tokens, at)?;
    while let Some(&Token::Op(op @ ("+" | "-"))) = tokens.get(*at) {
        *at += 1;
        let right = term(tokens, at)?;
        value = if op == "+" { value + right } else { value - right };
    }
    Some(value)
}

/// term := factor (('*' | '/' | '//' | '%') factor)*
fn term(tokens: &[Token], at: &mut usize) -> Option<f64> {
    let mut value = factor(tokens, at)?;
    while let Some(&Token::Op(op @ ("*" | "/" | "//" | "%"))) = tokens.get(*at) {
        *at += 1;
        let right = factor(tokens, at)?;
        if op != "*" && right == 0.0 {
            return None;
        }
        value = match op {
            "*" => value * right,
            "/" => value / right,
            "//" => (value / right).floor(),
            // Python's modulo takes the divisor's sign
            _ => value - right * (value / right).floor(),
        };
    }
    Some(value)
}

/// factor := ('+' | '-') factor | atom ('**' factor)?
fn factor(tokens: &[Token], at: &mut usize) -> Option<f64> {
    match tokens.get(*at)? {
        Token::Op(op @ ("+" | "-")) => {
            *at += 1;
            let value = factor(tokens, at)?;
            Some(if *op == "-" { -value } else { value })
        }
        _ => {
            let base = atom(tokens, at)?;
            if tokens.get(*at) == Some(&Token::Op("**")) {
                *at += 1;
                return Some(base.powf(factor(tokens, at)?));
            }
            Some(base)
        }
    }
}

/// atom := number | '(' sum ')'
fn atom(tokens: &[Token], at: &mut usize) -> Option<f64> {
    match *tokens.get(*at)? {
        Token::Number(n) => {
            *at += 1;
            Some(n)
        }
        Token::Op("(") => {
            *at += 1;
            let value = sum(tokens, at)?;
            (tokens.get(*at) == Some(&Token::Op(")"))).then(|| *at += 1)?;
            Some(value)
        }
        Token::Op(_) => None,
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::{getbool, python_arithmetic, python_number};

    /// Arithmetic as Python evaluates it, each result worked out by hand.
    #[test]
    fn arithmetic_reads_as_python_evaluates_it() {
        for (expression, want) in [
            ("5 * 60", Some("300")),
            ("60 * 60 * 24", Some("86400")),
            ("1 / 2", Some("0.5")),
            ("4 / 2", Some("2")),
            ("7 // 2", Some("3")),
            ("-7 // 2", Some("-4")),
            ("-7 % 3", Some("2")),
            ("2 ** 3 ** 2", Some("512")),
            ("-2 ** 2", Some("-4")),
            ("(1 + 2) * 3", Some("9")),
            ("1 + 2 * 3", Some("7")),
            ("0x10 * 2", Some("32")),
            ("1e-1 + 1_0", Some("10.1")),
            ("2.5e+1 - 5", Some("20")),
            ("1 / 0", None),
            ("5 % 0", None),
            ("int(5) * 2", None),
            ("DELAY * 2", None),
            ("(1 + 2", None),
            ("1 +", None),
            ("3", None),
            ("'a' * 2", None),
        ] {
            assert_eq!(python_arithmetic(expression).as_deref(), want, "{expression}");
        }
    }

    /// Python's numeric literals, each worked out by hand from the language reference.
    #[test]
    fn numbers_read_as_python_reads_them() {
        for (literal, want) in [
            ("10", Some("10")),
            ("1_000", Some("1000")),
            ("0x10", Some("16")),
            ("0X_1f", Some("31")),
            ("0o17", Some("15")),
            ("0b101", Some("5")),
            ("(5)", Some("5")),
            ("((2.5))", Some("2.5")),
            ("-1", Some("-1")),
            ("+ 3", Some("3")),
            ("1e3", Some("1e3")),
            ("1_0.2_5e-1_0", Some("10.25e-10")),
            (".5", Some(".5")),
            ("10.", Some("10.")),
            ("0", Some("0")),
            ("00", Some("00")),
            ("017", None),
            ("1__0", None),
            ("1_", None),
            ("_1", None),
            (".", None),
            ("2 * 5", None),
            ("int(5)", None),
            ("'5'", None),
            ("True", None),
        ] {
            assert_eq!(python_number(literal).as_deref(), want, "{literal}");
        }
        for (v, want) in [("True", Ok(true)), ("false", Ok(false)), ("1", Ok(true)), ("0", Ok(false)), ("0.5", Ok(false)), ("2", Ok(true))] {
            assert_eq!(getbool(v), want, "{v}");
        }
        assert!(getbool("yes").unwrap_err().contains("must be True or False"));
    }
}
