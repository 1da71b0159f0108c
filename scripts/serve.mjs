// A small static file server for dist/ (used by `npm start` and the browser tests),
// which answers as a real static host would: compressed (brotli or gzip, as the browser
// accepts), with validators, and files named by their content cached for a year.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import crypto from 'node:crypto';

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.wasm': 'application/wasm', '.svg': 'image/svg+xml', '.png': 'image/png', '.json': 'application/json', '.csv': 'text/csv' };
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.wasm', '.svg', '.json', '.csv']);
// freshlab.<12 hex digits>.wasm: its name changes with its content
const IMMUTABLE = /\.[0-9a-f]{12}\.wasm$/;

/** Compressed copies, made once per file version. */
const cache = new Map();

function encoded(file, data, mtime, encoding) {
  const key = `${file}:${mtime}:${encoding}`;
  if (!cache.has(key)) {
    cache.set(key, encoding === 'br' ? zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } }) : zlib.gzipSync(data, { level: 9 }));
  }
  return cache.get(key);
}

/** Serves `dir` on 127.0.0.1:`port`; resolves with the server once listening. With
 * `{compress: false}` it sends files as they are (to measure the difference). */
export function serve(dir, port, { compress = true } = {}) {
  const base = path.resolve(dir);
  const server = http.createServer((request, response) => {
    const url = new URL(request.url, 'http://localhost');
    let file = path.join(base, decodeURIComponent(url.pathname));
    if (!file.startsWith(base)) {
      response.writeHead(403).end('forbidden');
      return;
    }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    fs.stat(file, (error, stat) => {
      if (error) {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      const data = fs.readFileSync(file);
      const ext = path.extname(file);
      const etag = `"${crypto.createHash('sha1').update(data).digest('base64url').slice(0, 16)}"`;
      const headers = {
        'content-type': TYPES[ext] ?? 'application/octet-stream',
        'cache-control': IMMUTABLE.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache',
        etag,
        vary: 'accept-encoding',
      };
      if (request.headers['if-none-match'] === etag) {
        response.writeHead(304, headers).end();
        return;
      }
      const accepts = String(request.headers['accept-encoding'] ?? '');
      const encoding = !compress || !COMPRESSIBLE.has(ext) ? null : /\bbr\b/.test(accepts) ? 'br' : /\bgzip\b/.test(accepts) ? 'gzip' : null;
      const body = encoding ? encoded(file, data, stat.mtimeMs, encoding) : data;
      if (encoding) headers['content-encoding'] = encoding;
      headers['content-length'] = body.length;
      response.writeHead(200, headers).end(request.method === 'HEAD' ? undefined : body);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
