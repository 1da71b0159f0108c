// Gzip files as the records come (issue 47): a capture index shard (Common Crawl's
// cdx-NNNNN.gz is ZipNum, one gzip member per block of lines), a log gzipped in pieces,
// or one member. The browser's DecompressionStream reads one member and refuses what
// follows it, so a file of several is read member by member.

const MAGIC = [0x1f, 0x8b, 0x08];
/** The smallest gzip member: a 10-byte header, an empty deflate block, an 8-byte trailer. */
const SMALLEST_MEMBER = 20;

/** Whether `bytes` start as gzip does. */
export function isGzip(bytes) {
  return bytes[0] === MAGIC[0] && bytes[1] === MAGIC[1];
}

/** One gzip member's (or a whole one-member file's) bytes decompressed; rejects on
 * anything else (cut short, damaged, or more after it). */
async function inflate(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The first `n` bytes (at most) that gzip `bytes` decompress to, the rest left
 * compressed: what kind of file it holds. Empty where the data are damaged (reading the
 * whole says why). */
export async function gunzipHead(bytes, n) {
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip')).getReader();
  const chunks = [];
  let length = 0;
  try {
    while (length < n) {
      const { value, done } = await reader.read();
      if (done) break;
      chunks.push(value);
      length += value.length;
    }
  } catch {
    // damaged, or a second member: the head read so far stands
  }
  reader.cancel().catch(() => {});
  const head = new Uint8Array(length);
  chunks.reduce((at, chunk) => (head.set(chunk, at), at + chunk.length), 0);
  return head.subarray(0, n);
}

/** Where the next member may start after `from` (the magic bytes), else the end. */
function nextStart(bytes, from) {
  for (let k = bytes.indexOf(MAGIC[0], from); k >= 0 && k + 2 < bytes.length; k = bytes.indexOf(MAGIC[0], k + 1)) {
    if (bytes[k + 1] === MAGIC[1] && bytes[k + 2] === MAGIC[2]) return k;
  }
  return bytes.length;
}

/** `bytes` (gzip: one member or several, RFC 1952 §2.2) decompressed, at most `most`
 * bytes of output. A member ends where the bytes after it decompress alone as a whole
 * member: each place the magic bytes recur is tried in turn (inside compressed data
 * they rarely do, and a slice cut there is refused); past `most` bytes of output it
 * stops (the caller refuses the file). Rejects, naming the byte, where the data are
 * damaged or cut short. */
export async function gunzip(bytes, most = Infinity) {
  try {
    return await inflate(bytes);
  } catch {
    // several members, or damaged: read member by member
  }
  const parts = [];
  let total = 0;
  for (let start = 0; start < bytes.length; ) {
    let end = nextStart(bytes, start + SMALLEST_MEMBER);
    for (;;) {
      try {
        parts.push(await inflate(bytes.subarray(start, end)));
        break;
      } catch {
        if (end >= bytes.length) throw new Error(`its gzip data are damaged or cut short in the member at byte ${start.toLocaleString('en-US')} of ${bytes.length.toLocaleString('en-US')}`);
        end = nextStart(bytes, end + 1);
      }
    }
    total += parts[parts.length - 1].length;
    if (total > most) break;
    start = end;
  }
  // joined by the browser (a copy off this thread)
  return new Uint8Array(await new Blob(parts).arrayBuffer());
}
