// The page's one number formatter: every figure the page writes (tables, read-outs,
// notes) goes through these, so that 0.9272304, 14,500,000, 3.2 × 10^7 and "—" for a
// missing value read the same everywhere.

const missing = (v) => v === null || v === undefined || Number.isNaN(v);

/** `digits` significant digits, thousands separated; very large or small values in
 * scientific notation. */
export function number(v, digits = 3) {
  if (missing(v)) return '—';
  if (!Number.isFinite(v)) return v > 0 ? '∞' : '−∞';
  const a = Math.abs(v);
  if (a !== 0 && (a >= 1e9 || a < 1e-3)) {
    const [mantissa, exponent] = v.toExponential(Math.max(0, digits - 1)).split('e');
    return `${Number(mantissa)} × 10^${Number(exponent)}`;
  }
  return v.toLocaleString('en', { maximumSignificantDigits: digits });
}

/** A proved bound to `digits` decimals, rounded the safe way: a lower bound down, an
 * upper bound up, so the digits shown stay proved (0.92723043627 ≥ "0.9272304362"). */
export function bound(v, side, digits = 10) {
  if (missing(v)) return '—';
  const scale = 10 ** digits;
  return ((side === 'lower' ? Math.floor(v * scale) : Math.ceil(v * scale)) / scale).toFixed(digits);
}

/** A whole number with thousands separated. */
export function integer(v) {
  return missing(v) ? '—' : Math.round(v).toLocaleString('en');
}

/** A share as a percentage: 0.407 → "40.7 %". */
export function percent(v, digits = 3) {
  return missing(v) ? '—' : `${number(100 * v, digits)} %`;
}

/** A difference with its sign: +0.025, −0.011. */
export function signed(v, decimals = 3) {
  if (missing(v)) return '—';
  return `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(decimals)}`;
}

/** A relative difference of `ours` against `theirs`: "+12.3 %". */
export function relative(ours, theirs) {
  if (missing(ours) || !theirs) return '—';
  const d = (ours - theirs) / theirs;
  return `${d >= 0 ? '+' : '−'}${Math.abs(100 * d).toFixed(1)} %`;
}

/** Bytes: 512 KB, 40.2 MB, 3.1 GB. */
export function bytes(b) {
  if (b >= 1e9) return `${(b / 1e9).toFixed(1)} GB`;
  if (b >= 1e6) return `${(b / 1e6).toFixed(b >= 1e8 ? 0 : 1)} MB`;
  return `${Math.max(1, Math.round(b / 1e3))} KB`;
}

/** Seconds as the unit that reads best: 0.4 s, 12 s, 3.5 minutes, 2.1 hours, 4 days. */
export function duration(seconds) {
  for (const [size, name] of [
    [86400, 'days'],
    [3600, 'hours'],
    [60, 'minutes'],
  ])
    if (seconds >= 2 * size) return `${number(seconds / size, 2)} ${name}`;
  return `${number(Math.max(seconds, 0.1), 2)} s`;
}

/** Milliseconds of computing: "85 ms", "2.4 s", "3 min 5 s". */
export function elapsed(ms) {
  if (!Number.isFinite(ms)) return '';
  if (ms < 1000) return `${Math.max(1, Math.round(ms))} ms`;
  const s = ms / 1000;
  return s < 60 ? `${s.toFixed(1)} s` : `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}
