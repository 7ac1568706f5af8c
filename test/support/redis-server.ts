import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { freePort } from './free-port.js';

const REDIS_SERVER = ['/usr/bin/redis-server', '/usr/local/bin/redis-server', '/usr/sbin/redis-server'].find((p) =>
  existsSync(p),
);

/** A real redis-server on 127.0.0.1, without persistence, owned by the test. */
export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** Stops it (SIGKILL: as abrupt as an outage gets). */
  stop(): Promise<void>;
  /** Starts it again on the same port (empty: nothing was persisted). */
  restart(): Promise<void>;
  /** Freezes it (SIGSTOP): connections stay open, nothing is answered, commands queue up. */
  pause(): void;
  /** Lets a frozen server run again (SIGCONT): it works off what queued up. */
  resume(): void;
}

/**
 * The process id of the redis-server answering on `port` (`INFO server` over a raw socket), so that
 * a start can tell its own server from another process that took the port first.
 */
function answeringPid(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let reply = '';
    socket.setTimeout(500, () => socket.destroy());
    socket.once('connect', () => socket.write('INFO server\r\n'));
    socket.on('data', (data) => {
      reply += data.toString();
      const pid = /process_id:(\d+)\r\n/.exec(reply)?.[1];
      if (pid === undefined) return;
      resolve(Number(pid));
      socket.end();
    });
    socket.once('error', () => resolve(undefined));
    socket.once('close', () => resolve(undefined));
  });
}

/**
 * Spawns `redis-server --port <free> --bind 127.0.0.1 --save '' --appendonly no` and waits until it
 * answers (its own process, not another that took the port first: then a fresh port is tried, three
 * times at most). Debian's `redis-server` package; `npm test` installs it
 * (scripts/ensure-test-servers.sh).
 */
export async function startRedis(): Promise<RedisServer> {
  if (!REDIS_SERVER) throw new Error('redis-server is not installed: run scripts/ensure-test-servers.sh');
  let port = await freePort();
  let child: ChildProcess | undefined;
  let stderr = '';
  const launch = async () => {
    const started = spawn(
      REDIS_SERVER,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    child = started;
    started.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    for (let attempt = 0; (await answeringPid(port)) !== started.pid; attempt++) {
      if (attempt > 100 || started.exitCode !== null) throw new Error(`redis-server did not start: ${stderr}`);
      await delay(50);
    }
  };
  const stop = async () => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  for (let attempt = 1; ; attempt++) {
    try {
      await launch();
      break;
    } catch (error) {
      await stop();
      if (attempt === 3) throw error;
      port = await freePort();
      stderr = '';
    }
  }
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop,
    restart: launch,
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
  };
}
