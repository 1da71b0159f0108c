// The files a user loads, read and held in the worker: the page's main thread keeps the
// file (a Blob: a handle, not its bytes) and what the form's checks need of it (its size,
// its shape, its first characters), never its text. Decoding 100 MB took 0.44 s of the
// main thread, and a run's checks on a 60 MB page list 2 s. A run's configuration names a
// held file by a marker, {held, serial, part, blob, records}, which any worker resolves:
// from what it holds, else by reading the Blob (a worker of the pool, or one replaced).
import * as core from '../build/pkg/freshlab.js';

/** Text a file may hold in the page, at most: V8's longest string (2^29 - 24 characters,
 * 512 MB). */
const MOST_TEXT = 2 ** 29 - 24;
/** A WARC or gzip file's own size, at most (a WARC file's index is far smaller). */
const MOST_RAW = 1024 * 2 ** 20;

/** By slot (a panel's file box): {serial, parts: [{text, bytes, warc}]}. */
const held = new Map();

/** The lines of `text` (its line ends, plus one). */
function lines(text) {
  let n = 1;
  for (let k = text.indexOf('\n'); k >= 0; k = text.indexOf('\n', k + 1)) n++;
  return n;
}

/** `blob`'s text: plain UTF-8 decoded here; a history's `records` gzipped or WARC (read
 * as its capture index) by the core (as the command line reads them). Throws what cannot
 * be read, without the file's name. */
async function read(blob, records) {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  const gzip = bytes[0] === 0x1f && bytes[1] === 0x8b;
  const warc = String.fromCharCode(...bytes.subarray(0, 7)) === 'WARC/1.';
  if (records && (gzip || warc)) {
    if (bytes.length > MOST_RAW) throw new Error(`is ${Math.round(bytes.length / 2 ** 20)} MB, over the page's ${MOST_RAW / 2 ** 20} MB; the command line reads any size`);
    return unpacked(bytes, true);
  }
  if (bytes.length > MOST_TEXT) throw new Error(`is ${Math.round(bytes.length / 2 ** 20)} MB of text, over the page's ${Math.round(MOST_TEXT / 2 ** 20)} MB; the command line reads any size`);
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), bytes: bytes.length, warc: false };
  } catch {
    // the core says why (UTF-16, or the line of the first bad byte)
    return unpacked(bytes, false);
  }
}

/** `bytes` read by the core (core::unpack), its refusal as an Error. */
function unpacked(bytes, warc) {
  try {
    return core.unpack(bytes, MOST_TEXT, warc);
  } catch (error) {
    throw new Error(error.message ?? String(error));
  }
}

/** Reads and holds the files `blobs` in `slot` (replacing what it held); a file that
 * cannot be read throws {field: its index, message}. */
async function holdAll(slot, serial, blobs, records) {
  const parts = await Promise.all(
    blobs.map((blob, k) =>
      read(blob, records).catch((error) => {
        throw { field: String(k), message: error.message };
      }),
    ),
  );
  held.set(slot, { serial, parts });
  return parts;
}

/** The first `chars` characters of `text`, never half of a surrogate pair. */
function head(text, chars) {
  if (text.length <= chars) return text;
  const code = text.charCodeAt(chars - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? chars - 1 : chars);
}

/** A file's first characters its pages' count is decided on (the core samples 1 MiB). */
const COUNT_HEAD = 2 ** 20;
/** Characters a piece sent to the core's page count (its text is not copied there whole). */
const COUNT_PIECE = 2 ** 23;

/** The pages of a history's files `parts` ({text, bytes, warc}: a WARC file's text is
 * its capture index), counted together by the core a piece at a time where their heads
 * cannot tell them (a log of many visits in time order looks like an index of one
 * capture a page there; several files may name the same pages): for each, the pages it
 * adds to those before it, or undefined. */
function pagesOf(parts) {
  const counter = new core.PageCounter();
  let before = 0;
  const added = parts.map(({ text, bytes }) => {
    if (!counter.file(head(text, COUNT_HEAD), bytes, parts.length > 1)) return undefined;
    for (let at = 0; at < text.length; ) {
      // never half of a surrogate pair at a piece's end
      let end = Math.min(text.length, at + COUNT_PIECE);
      const code = text.charCodeAt(end - 1);
      if (end < text.length && code >= 0xd800 && code <= 0xdbff) end--;
      counter.feed(text.slice(at, end));
      at = end;
    }
    const total = counter.pages();
    const adds = total - before;
    before = total;
    return adds;
  });
  counter.free();
  return added;
}

const SHAPES = { seeds: core.seed_shape, hosts: core.host_shape, trace: core.trace_shape, list: core.list_shape };

/** A 'hold' request: the files read and kept, and for each what the page's checks need:
 * {bytes, warc, records (a WARC file's), pages (a history's file's, where its head cannot
 * tell them), head (its first `headChars` characters, of every `headEvery`-th file),
 * shape (read by `kind`) or shapeError}. */
export async function hold({ slot, serial, blobs, records = false, kind = null, headChars = 0, headEvery = 1 }) {
  const parts = await holdAll(slot, serial, blobs, records);
  const pages = records ? pagesOf(parts) : [];
  return parts.map((part, k) => {
    const said = { bytes: part.bytes, warc: part.warc };
    // the index's lines less its legend and its last line end: a record each
    if (part.warc) said.records = lines(part.text) - 2;
    if (pages[k] !== undefined) said.pages = pages[k];
    if (headChars && k % headEvery === 0) said.head = head(part.text, headChars);
    if (kind) {
      try {
        said.shape = SHAPES[kind](part.text);
      } catch (error) {
        said.shapeError = error.message ?? String(error);
      }
    }
    return said;
  });
}

/** Whether `value` is a held file's marker. */
function isMarker(value) {
  return value !== null && typeof value === 'object' && typeof value.held === 'string' && value.blob instanceof Blob;
}

/** A marker's text: as held, else read from its Blob (and then held). */
async function textOf({ held: slot, serial, part = 0, blob, records = false }) {
  const kept = held.get(slot);
  if (kept?.serial === serial) return kept.parts[part].text;
  // a worker that did not load it (one of the pool's, or one replaced) holds it a part a slot
  const alone = held.get(`${slot}#${part}`);
  if (alone?.serial === serial) return alone.parts[0].text;
  try {
    const [read] = await holdAll(`${slot}#${part}`, serial, [blob], records);
    return read.text;
  } catch (error) {
    // (changed or removed on the disk since it was loaded)
    throw new Error(`${blob.name ?? 'a file loaded'} could not be read again: ${error.message}; load it again`);
  }
}

/** `value` (a run's configuration) with every held file's marker replaced by its text. */
export async function withTexts(value) {
  if (isMarker(value)) return textOf(value);
  if (Array.isArray(value)) return Promise.all(value.map(withTexts));
  if (value !== null && typeof value === 'object') {
    const out = {};
    for (const [key, v] of Object.entries(value)) out[key] = await withTexts(v);
    return out;
  }
  return value;
}

/** An export ({config, result}: a run's configuration, its held files by marker, and
 * its result) as JSON in a Blob, each marker replaced by its file's text: written here,
 * the page's thread neither holds a file's text nor stringifies a large result (37–51 ms
 * there for a history of 20,000 pages). */
export async function exported(value) {
  const files = [];
  const text = JSON.stringify(value, (_key, v) => (isMarker(v) ? `\u0000${files.push(v) - 1}` : v), 1);
  // each marker was written as the string "\u0000k": the k-th file's JSON string in its place
  const pieces = text.split(/"\\u0000(\d+)"/);
  const parts = await Promise.all(pieces.map((piece, k) => (k % 2 ? textOf(files[Number(piece)]).then((t) => JSON.stringify(t)) : piece)));
  return new Blob(parts, { type: 'application/json' });
}
