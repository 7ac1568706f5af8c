const LOOPBACK_HOSTNAMES: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function hostnameOf(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1).toLowerCase();
  const colon = host.indexOf(':');
  return (colon === -1 ? host : host.slice(0, colon)).toLowerCase();
}

/**
 * DNS-rebinding protection (spec: the server MUST validate Origin). Loopback hosts and origins are
 * always accepted; anything else must be listed (or the list must contain '*').
 */
export class OriginPolicy {
  private readonly hosts: ReadonlySet<string>;
  private readonly origins: ReadonlySet<string>;

  constructor(allowedHosts: readonly string[], allowedOrigins: readonly string[]) {
    this.hosts = new Set(allowedHosts.map((h) => h.toLowerCase()));
    this.origins = new Set(allowedOrigins.map((o) => o.toLowerCase().replace(/\/+$/, '')));
  }

  /** The last Host header judged and the verdict: a client sends the same one on every request. */
  private lastHost: string | undefined;
  private lastHostAllowed = false;

  hostAllowed(host: string | undefined): boolean {
    if (host === undefined || host === '') return false;
    if (host === this.lastHost) return this.lastHostAllowed;
    const lower = host.toLowerCase();
    const hostname = hostnameOf(lower);
    const allowed =
      LOOPBACK_HOSTNAMES.has(hostname) || this.hosts.has('*') || this.hosts.has(lower) || this.hosts.has(hostname);
    this.lastHost = host;
    this.lastHostAllowed = allowed;
    return allowed;
  }

  /** An absent Origin (non-browser clients) is fine; a present one must be loopback or listed. */
  originAllowed(origin: string | undefined): boolean {
    if (origin === undefined) return true;
    const lower = origin.toLowerCase();
    if (this.origins.has('*') || this.origins.has(lower)) return true;
    try {
      return LOOPBACK_HOSTNAMES.has(new URL(lower).hostname);
    } catch {
      return false;
    }
  }
}
