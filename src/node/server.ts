import { createServer, type Server } from 'node:http';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
  '.json': 'application/json',
  '.png': 'image/png',
};

/** The built viewer (dist/web), next to this module once compiled. */
export function viewerDir(): string {
  return fileURLToPath(new URL('../web/', import.meta.url));
}

export interface ViewerServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

function inside(root: string, target: string): boolean {
  return target === root || target.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/**
 * Serves the viewer and the given files on 127.0.0.1 only. Each file's
 * resources (sheets, textures) are served from its folder and the folder
 * above it (Solarus looks one level up); nothing outside those, also not
 * through symbolic links.
 */
export async function startViewer(files: string[], opts: { port?: number; webDir?: string } = {}): Promise<ViewerServer> {
  const webDir = opts.webDir ?? viewerDir();
  const list = files.map((f, id) => ({ id, name: path.basename(f), path: path.resolve(f) }));
  const server = createServer(async (req, res) => {
    const send = (code: number, body: string | Uint8Array, type = 'text/plain; charset=utf-8') => {
      res.writeHead(code, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed');
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      let p: string;
      try {
        p = decodeURIComponent(url.pathname);
      } catch {
        return send(400, 'bad request');
      }
      if (p.includes('\0')) return send(400, 'bad request');
      if (p === '/api/files') return send(200, JSON.stringify(list.map(({ id, name }) => ({ id, name }))), TYPES['.json']);
      const m = /^\/files\/(\d+)(?:\/res\/(.+))?$/.exec(p);
      if (m) {
        const item = list[Number(m[1])];
        if (!item) return send(404, 'no such file');
        if (!m[2]) return send(200, await fsp.readFile(item.path), 'application/octet-stream');
        const dir = path.dirname(item.path);
        const target = path.resolve(dir, m[2]);
        const root = path.dirname(dir);
        if (!inside(root, target)) return send(403, 'outside the document folder');
        // Symbolic links must not lead outside either.
        const [realRoot, realTarget] = await Promise.all([fsp.realpath(root), fsp.realpath(target)]);
        if (!inside(realRoot, realTarget)) return send(403, 'outside the document folder');
        return send(200, await fsp.readFile(realTarget), TYPES[path.extname(target)] ?? 'application/octet-stream');
      }
      const name = p === '/' ? 'index.html' : p.slice(1);
      if (!/^[\w.-]+$/.test(name)) return send(404, 'not found');
      return send(200, await fsp.readFile(path.join(webDir, name)), TYPES[path.extname(name)] ?? 'application/octet-stream');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      send(code === 'ENOENT' || code === 'EISDIR' ? 404 : 500, code === 'ENOENT' ? 'not found' : 'error');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : opts.port;
  return {
    url: `http://127.0.0.1:${port}/`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // a page left open must not keep the process alive
      }),
  };
}
