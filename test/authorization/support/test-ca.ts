import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import forge from 'node-forge';

/** A throwaway certificate authority and one leaf certificate it signed, for HTTPS servers on 127.0.0.1. */
export interface TestCa {
  /** The CA certificate (PEM): trust it, and only it. */
  readonly caPem: string;
  /** A temporary file holding `caPem`, for `NODE_EXTRA_CA_CERTS` of a child process. */
  readonly caPath: string;
  /** The leaf's private key (PEM, PKCS#8). */
  readonly key: string;
  /** The leaf certificate (PEM) for `127.0.0.1` (IP SAN), `::1` and `localhost`, followed by the CA. */
  readonly cert: string;
  /** Removes the temporary directory of `caPath`. */
  cleanup(): void;
}

/** The HTTPS material a test server needs (a subset of `TestCa`). */
export type TlsMaterial = Pick<TestCa, 'key' | 'cert' | 'caPem'>;

/**
 * Generates a CA and a leaf certificate for the loopback names (RSA 2048, keys from node:crypto,
 * certificates built with node-forge, valid from an hour ago for a day). Call it once per suite.
 *
 * ```ts
 * const ca = createTestCa();
 * const server = https.createServer({ key: ca.key, cert: ca.cert }, handler);
 * spawn(process.execPath, ['-e', script], { env: { ...process.env, NODE_EXTRA_CA_CERTS: ca.caPath } });
 * afterAll(() => ca.cleanup());
 * ```
 */
export function createTestCa(commonName = 'mocapi test CA'): TestCa {
  const caKeys = rsaKeyPair();
  const caCert = forge.pki.createCertificate();
  caCert.publicKey = caKeys.publicKey;
  caCert.serialNumber = serialNumber();
  setValidity(caCert);
  const caSubject = [{ name: 'commonName', value: `${commonName} ${randomBytes(4).toString('hex')}` }];
  caCert.setSubject(caSubject);
  caCert.setIssuer(caSubject);
  caCert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  caCert.sign(caKeys.privateKey, forge.md.sha256.create());

  const leafKeys = rsaKeyPair();
  const leaf = forge.pki.createCertificate();
  leaf.publicKey = leafKeys.publicKey;
  leaf.serialNumber = serialNumber();
  setValidity(leaf);
  leaf.setSubject([{ name: 'commonName', value: '127.0.0.1' }]);
  leaf.setIssuer(caSubject);
  leaf.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: [
        { type: 7, ip: '127.0.0.1' },
        { type: 7, ip: '::1' },
        { type: 2, value: 'localhost' },
      ],
    },
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() },
  ]);
  leaf.sign(caKeys.privateKey, forge.md.sha256.create());

  const caPem = forge.pki.certificateToPem(caCert);
  const dir = mkdtempSync(join(tmpdir(), 'mocapi-test-ca-'));
  const caPath = join(dir, 'ca.pem');
  writeFileSync(caPath, caPem);
  return {
    caPem,
    caPath,
    key: leafKeys.privateKeyPem,
    cert: forge.pki.certificateToPem(leaf) + caPem,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * A `fetch` for this process that trusts `caPem` (and nothing else) for HTTPS, over node:https;
 * plain `http:` URLs go to the global fetch. The process's own `fetch` cannot be told about a CA
 * after start, so hand this to code under test that accepts a fetch (openid-client's
 * `customFetch`, oidc-provider's `fetch` option, the MCP client's transport `fetch`).
 *
 * It follows no redirect (`redirect` other than `manual` is treated as `manual`: the 3xx
 * response is returned), streams the body, and honours `signal`.
 */
export function trustingFetch(caPem: string): typeof fetch {
  const caFetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const request = input instanceof Request ? input : undefined;
    const url = new URL(request ? request.url : String(input));
    if (url.protocol !== 'https:') return fetch(input, init);
    const headers = new Headers(init.headers ?? request?.headers);
    const method = (init.method ?? request?.method ?? 'GET').toUpperCase();
    const body = await bodyBytes(init.body ?? (request ? await request.arrayBuffer() : undefined));
    if (body && !headers.has('content-type') && typeof init.body === 'string')
      headers.set('content-type', 'text/plain;charset=UTF-8');
    if (body && init.body instanceof URLSearchParams && !headers.has('content-type'))
      headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
    const signal = init.signal ?? request?.signal ?? undefined;
    signal?.throwIfAborted();
    return new Promise<Response>((resolve, reject) => {
      const outgoing = httpsRequest(
        url,
        {
          method,
          ca: caPem,
          headers: { ...Object.fromEntries(headers), ...(body ? { 'content-length': String(body.length) } : {}) },
          signal: signal ?? undefined,
        },
        (incoming) => {
          const responseHeaders = new Headers();
          for (let i = 0; i < incoming.rawHeaders.length; i += 2)
            responseHeaders.append(incoming.rawHeaders[i]!, incoming.rawHeaders[i + 1]!);
          const status = incoming.statusCode ?? 500;
          const nullBody = status === 204 || status === 304 || method === 'HEAD';
          if (nullBody) incoming.resume();
          const response = new Response(nullBody ? null : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>), {
            status,
            statusText: incoming.statusMessage,
            headers: responseHeaders,
          });
          Object.defineProperty(response, 'url', { value: url.href });
          resolve(response);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  };
  return caFetch as typeof fetch;
}

async function bodyBytes(body: RequestInit['body'] | ArrayBuffer | undefined): Promise<Buffer | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof URLSearchParams) return Buffer.from(String(body));
  if (body instanceof ArrayBuffer) return body.byteLength ? Buffer.from(body) : undefined;
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return Buffer.from(await new Response(body).arrayBuffer());
}

function rsaKeyPair(): {
  publicKey: forge.pki.rsa.PublicKey;
  privateKey: forge.pki.rsa.PrivateKey;
  privateKeyPem: string;
} {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pkcs1 = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const forgeKey = forge.pki.privateKeyFromPem(pkcs1) as forge.pki.rsa.PrivateKey;
  return {
    privateKey: forgeKey,
    publicKey: forge.pki.setRsaPublicKey(forgeKey.n, forgeKey.e),
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

function setValidity(cert: forge.pki.Certificate): void {
  const now = Date.now();
  cert.validity.notBefore = new Date(now - 60 * 60 * 1000);
  cert.validity.notAfter = new Date(now + 24 * 60 * 60 * 1000);
}

/** A positive 16-byte serial, hex (the high bit cleared so DER does not read it as negative). */
function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  return bytes.toString('hex');
}
