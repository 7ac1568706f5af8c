/**
 * The processes of one server instance of a target: its server and, for a target with an upstream
 * (a gateway), the upstream server it relays to, started first on a port of its own and passed to
 * the target as env UPSTREAM_URL. Both CPU times are read around a measured run.
 */
import { ChildServer } from './child-server.js';
import type { Target } from './targets.js';

/** CPU seconds used so far by the target's server and by its upstream (undefined without one, or off Linux). */
export interface CpuReading {
  readonly server: number | undefined;
  readonly upstream: number | undefined;
}

export class InstanceServers {
  private constructor(
    readonly server: ChildServer,
    readonly upstream: ChildServer | undefined,
  ) {}

  /** Starts the upstream (if the target has one), then the target's server. */
  static async start(target: Target, env: Readonly<Record<string, string>>, tools: number): Promise<InstanceServers> {
    let upstream: ChildServer | undefined;
    if (target.upstream) {
      try {
        upstream = await ChildServer.start(target.upstream.script, target.upstream.env, tools);
      } catch (error) {
        throw new Error(`its upstream (${target.upstream.label}): ${(error as Error).message}`, { cause: error });
      }
    }
    try {
      const server = await ChildServer.start(
        target.script,
        { ...env, ...(upstream && { UPSTREAM_URL: upstream.url }) },
        tools,
      );
      return new InstanceServers(server, upstream);
    } catch (error) {
      await upstream?.stop();
      throw error;
    }
  }

  get url(): string {
    return this.server.url;
  }

  cpuSeconds(): CpuReading {
    return { server: this.server.cpuSeconds(), upstream: this.upstream?.cpuSeconds() };
  }

  /** What exited while it should be serving, with its last output; undefined while both run. */
  exitProblem(): string | undefined {
    if (this.server.hasExited) return `server exited during the run:\n${this.server.tail()}`;
    if (this.upstream?.hasExited) return `its upstream exited during the run:\n${this.upstream.tail()}`;
    return undefined;
  }

  /** Stops the target's server, then its upstream. */
  async stop(): Promise<void> {
    await this.server.stop();
    await this.upstream?.stop();
  }
}
