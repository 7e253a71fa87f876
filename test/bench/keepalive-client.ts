/**
 * A load generator's HTTP/1.1 client: one kept-alive socket, one request at a time, the
 * response read as bytes (status, headers, a `Content-Length` or chunked body) and handed
 * back whole. A bench client on the same 2 cores as the server takes CPU from it: fetch
 * (undici's full client, streams and all) cost about 3.3 ms of CPU per stored execution,
 * more than the database driver's 0.75 ms under the floor's same transaction; this costs a
 * fraction of that, as a wrk-style load tool would. Written here because a bench needs
 * nothing but this (no redirects, no pooling, no decoding) and must cost next to nothing.
 */
import net from 'node:net';

export interface RawResponse {
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  body: string;
}

const CRLF2 = Buffer.from('\r\n\r\n');

/** A response parsed from `buf`, or undefined when more bytes are needed. */
function parse(buf: Buffer): { response: RawResponse; used: number } | undefined {
  const headEnd = buf.indexOf(CRLF2);
  if (headEnd < 0) return undefined;
  const lines = buf.toString('latin1', 0, headEnd).split('\r\n');
  const status = Number(lines[0].split(' ')[1]);
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let at = headEnd + 4;
  if (headers['transfer-encoding']?.toLowerCase() === 'chunked') {
    const parts: Buffer[] = [];
    for (;;) {
      const lineEnd = buf.indexOf('\r\n', at);
      if (lineEnd < 0) return undefined;
      const size = parseInt(buf.toString('latin1', at, lineEnd), 16);
      if (buf.length < lineEnd + 2 + size + 2) return undefined;
      if (size === 0) {
        at = lineEnd + 4; // no trailers are sent
        break;
      }
      parts.push(buf.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
    return { response: { status, headers, body: Buffer.concat(parts).toString('utf8') }, used: at };
  }
  const length = Number(headers['content-length'] ?? 0);
  if (buf.length < at + length) return undefined;
  return { response: { status, headers, body: buf.toString('utf8', at, at + length) }, used: at + length };
}

/** One kept-alive connection to `host:port`; requests on it run one after the other. */
export class KeepAliveClient {
  private socket: net.Socket | undefined;
  private pending: Buffer = Buffer.alloc(0);
  private waiting: { resolve: (r: RawResponse) => void; reject: (e: Error) => void } | undefined;

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  static of(baseUrl: string): KeepAliveClient {
    const url = new URL(baseUrl);
    return new KeepAliveClient(url.hostname, Number(url.port));
  }

  private connect(): net.Socket {
    const socket = net.connect(this.port, this.host);
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
      const parsed = parse(this.pending);
      if (!parsed || !this.waiting) return;
      this.pending = this.pending.subarray(parsed.used);
      const w = this.waiting;
      this.waiting = undefined;
      if (parsed.response.headers.connection?.toLowerCase() === 'close') this.drop();
      w.resolve(parsed.response);
    });
    const fail = (err: Error) => {
      this.drop();
      const w = this.waiting;
      this.waiting = undefined;
      w?.reject(err);
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('connection closed')));
    return socket;
  }

  private drop(): void {
    this.socket?.removeAllListeners();
    this.socket?.on('error', () => undefined);
    this.socket?.destroy();
    this.socket = undefined;
    this.pending = Buffer.alloc(0);
  }

  /** Sends one request (`headers` without host, connection or length) and reads its whole response. */
  request(method: string, path: string, headers: Record<string, string>, body?: string): Promise<RawResponse> {
    if (this.waiting) return Promise.reject(new Error('one request at a time'));
    this.socket ??= this.connect();
    const payload = body === undefined ? undefined : Buffer.from(body);
    let head = `${method} ${path} HTTP/1.1\r\nhost: ${this.host}:${this.port}\r\nconnection: keep-alive\r\n`;
    for (const [k, v] of Object.entries(headers)) head += `${k}: ${v}\r\n`;
    if (payload) head += `content-length: ${payload.length}\r\n`;
    head += '\r\n';
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket!.write(payload ? Buffer.concat([Buffer.from(head, 'latin1'), payload]) : head);
    });
  }

  close(): void {
    this.drop();
  }
}
