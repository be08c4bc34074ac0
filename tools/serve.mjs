// A minimal static file server for `./dev serve`: one directory, loopback only, no caching,
// and the MIME types browsers insist on (application/wasm for streaming compilation).
// Usage: node tools/serve.mjs DIR [HOST] [PORT]
import { createServer } from 'node:http';
import { createReadStream, statSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';

const [dir = '.', host = '127.0.0.1', port = '8000'] = process.argv.slice(2);
const root = resolve(dir);
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
};

function find(urlPath) {
  let path;
  try {
    path = normalize(join(root, decodeURIComponent(urlPath)));
  } catch {
    return undefined;
  }
  if (path !== root && !path.startsWith(root + sep)) return undefined;
  try {
    const stat = statSync(path);
    if (stat.isDirectory()) return find(join(urlPath, 'index.html'));
    return { path, size: stat.size };
  } catch {
    return undefined;
  }
}

const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const file = request.method === 'GET' || request.method === 'HEAD' ? find(url.pathname) : undefined;
  if (!file) {
    response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
    return;
  }
  response.writeHead(200, {
    'content-type': TYPES[extname(file.path)] ?? 'application/octet-stream',
    'content-length': file.size,
    'cache-control': 'no-store',
  });
  if (request.method === 'HEAD') response.end();
  else createReadStream(file.path).pipe(response);
});

server.listen(Number(port), host, () => {
  const { port: actual } = server.address();
  console.log(`kubefit: serving ${root} at http://${host}:${actual}/ (Ctrl-C to stop)`);
});
