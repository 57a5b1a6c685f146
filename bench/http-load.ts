import { connect, type Socket } from 'node:net';

/**
 * bench:http's load generator: closed-loop HTTP/1.1 GETs over keep-alive sockets, each connection sending
 * its next request when the previous answer has been read whole.
 *
 * Why not `node:http`'s client: the generator shares the machine's two cores with the app and PostgreSQL,
 * and reading a 274 KiB match view through `node:http` cost the generator 0.4 to 2.9 ms an answer, more
 * than the app spent answering, so the rate measured the generator (the bare floor: 13,000 to 19,000
 * req/s against 20,000 to 38,000 here). Here every socket reads into one buffer it keeps (`onread`, no
 * buffer made per read) and only the head of an answer is parsed: its status, Content-Length and whether it
 * says `Connection: close` (the socket is then opened again for the next request). The app's
 * answers on these routes all carry a Content-Length; an answer without one is counted as an error (the
 * connection is then closed and opened again), so a change to a streamed body shows instead of hanging.
 */

export interface LoadOptions {
  connections: number;
  seconds: number;
  /** Not counted: JIT, connection set-up, caches. */
  warmUpMs: number;
}

export interface LoadResult {
  requests: number;
  errors: number;
  perSecond: number;
  p99Ms: number;
  bodyBytes: number;
  /** CPU the generator itself used per answer (user + system), to show when it, not the app, set the pace. */
  generatorCpuMs: number;
  /** CPU seconds the server used during the counted part (when a reader was given). */
  cpuSeconds?: number;
}

const READ_BUFFER_BYTES = 256 * 1024;
const HEAD_END = Buffer.from('\r\n\r\n');
const NOTHING = Buffer.alloc(0);

/** One keep-alive connection: `get()` resolves with the answer's status and body size once read whole. */
class Connection {
  private socket: Socket | undefined;
  /** The start of a head whose end has not arrived yet (a copy: the read buffer is reused). */
  private head = NOTHING;
  private bodyLeft = -1;
  private status = 0;
  private bodyBytes = 0;
  /** The answer said `Connection: close`: the socket is dropped once its body is read. */
  private closing = false;
  private pending: { resolve: (answer: { status: number; bytes: number }) => void } | undefined;
  private readonly buffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);

  constructor(
    private readonly target: URL,
    private readonly request: Buffer,
  ) {}

  get(): Promise<{ status: number; bytes: number }> {
    return new Promise((resolve) => {
      this.pending = { resolve };
      this.head = NOTHING;
      this.bodyLeft = -1;
      (this.socket ?? this.open()).write(this.request);
    });
  }

  close() {
    this.socket?.destroy();
    this.socket = undefined;
  }

  private open(): Socket {
    const socket = connect({
      host: this.target.hostname,
      port: Number(this.target.port),
      onread: { buffer: this.buffer, callback: (length) => this.read(length) },
    });
    socket.setNoDelay(true);
    // A socket dropped earlier reports its end later, maybe while the next socket's request is pending.
    const lost = () => {
      if (this.socket !== socket) return;
      this.close();
      this.finish(0);
    };
    socket.on('error', lost);
    socket.on('close', lost);
    this.socket = socket;
    return socket;
  }

  private read(length: number): boolean {
    let chunk = this.buffer.subarray(0, length);
    if (this.bodyLeft < 0) {
      // Read in place; only a head split across reads is copied (the body after it never is).
      const data = this.head.length > 0 ? Buffer.concat([this.head, chunk]) : chunk;
      const end = data.indexOf(HEAD_END);
      if (end < 0) {
        this.head = Buffer.from(data);
        return true;
      }
      this.head = NOTHING;
      const text = data.subarray(0, end).toString('latin1');
      this.status = Number(text.slice(9, 12));
      const contentLength = /\r\ncontent-length:\s*(\d+)/i.exec(text)?.[1];
      if (contentLength === undefined) {
        this.close();
        this.finish(0);
        return true;
      }
      this.closing = /\r\nconnection:\s*close/i.test(text);
      this.bodyLeft = Number(contentLength);
      this.bodyBytes = this.bodyLeft;
      chunk = data.subarray(end + HEAD_END.length);
    }
    this.bodyLeft -= chunk.length;
    if (this.bodyLeft > 0) return true;
    if (this.closing) this.close();
    this.finish(this.status);
    return true;
  }

  private finish(status: number) {
    const pending = this.pending;
    this.pending = undefined;
    pending?.resolve({ status, bytes: status === 0 ? 0 : this.bodyBytes });
  }
}

/** Loads `url` from `options.connections` connections; `serverCpu` reads the server's CPU seconds so far. */
export async function loadHttp(
  url: string,
  headers: Record<string, string>,
  options: LoadOptions,
  serverCpu?: () => number,
): Promise<LoadResult> {
  const target = new URL(url);
  const lines = [`GET ${target.pathname}${target.search} HTTP/1.1`, `Host: ${target.host}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  const request = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  const connections = Array.from({ length: options.connections }, () => new Connection(target, request));
  const latencies: number[] = [];
  let errors = 0;
  let bodyBytes = 0;
  const run = (until: number) =>
    Promise.all(
      connections.map(async (connection) => {
        while (performance.now() < until) {
          const started = performance.now();
          const answer = await connection.get();
          latencies.push(performance.now() - started);
          if (answer.status !== 200) errors++;
          else bodyBytes = answer.bytes;
        }
      }),
    );
  try {
    await run(performance.now() + options.warmUpMs);
    latencies.length = 0;
    errors = 0;
    const cpuBefore = serverCpu?.();
    const ownBefore = process.cpuUsage();
    const started = performance.now();
    await run(started + options.seconds * 1000);
    const elapsed = (performance.now() - started) / 1000;
    const own = process.cpuUsage(ownBefore);
    const cpuAfter = serverCpu?.();
    latencies.sort((a, b) => a - b);
    return {
      requests: latencies.length,
      errors,
      perSecond: latencies.length / elapsed,
      p99Ms: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
      bodyBytes,
      generatorCpuMs: (own.user + own.system) / 1000 / Math.max(1, latencies.length),
      ...(cpuBefore !== undefined && cpuAfter !== undefined ? { cpuSeconds: cpuAfter - cpuBefore } : {}),
    };
  } finally {
    for (const connection of connections) connection.close();
  }
}
