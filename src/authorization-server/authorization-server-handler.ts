import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Logger } from '@nestjs/common';
import type { Interaction, InteractionResults, Provider } from 'oidc-provider';
import { logText } from '../protocol/log-text.js';
import { AuthorizationServerPath } from './authorization-server-routes.js';
import { renderConsentPage, renderMessagePage } from './consent-page.js';
import type { ResolvedMcpAuthorizationServerOptions } from './mcp-authorization-server.options.js';
import type { UpstreamAccounts } from './upstream-accounts.js';
import type { UpstreamSignIn } from './upstream-sign-in.js';

/** A request as the HTTP adapters hand it over: Express may have parsed the body already. */
export type AuthorizationRequest = IncomingMessage & { body?: unknown };

const DECISION = '/decision';
const MAX_FORM_BYTES = 8 * 1024;

/**
 * Answers every request of the authorization server: oidc-provider's endpoints (metadata, authorize,
 * token, registration, keys, revocation), and our own steps of a sign-in: sending the user to the
 * upstream IdP, taking them back (`/oauth/callback`), and asking their consent for the client.
 */
export class AuthorizationServerHandler {
  private readonly logger = new Logger('McpAuthorizationServer');
  private readonly providerCallback: (req: IncomingMessage, res: ServerResponse) => unknown;

  constructor(
    private readonly provider: Provider,
    private readonly upstream: UpstreamSignIn,
    private readonly accounts: UpstreamAccounts,
    private readonly options: ResolvedMcpAuthorizationServerOptions,
  ) {
    this.providerCallback = provider.callback();
  }

  /** Never rejects: every failure is answered. */
  async handle(req: AuthorizationRequest, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.options.issuer);
    const path = url.pathname;
    try {
      if (path === AuthorizationServerPath.UpstreamCallback) return await this.upstreamCallback(res, url);
      if (path.startsWith(`${AuthorizationServerPath.Interaction}/`)) return await this.interaction(req, res, path);
      // RFC 8414 metadata is the OpenID discovery document (the same fields, the same issuer).
      if (path === AuthorizationServerPath.Metadata) req.url = `${AuthorizationServerPath.Discovery}${url.search}`;
      await this.providerCallback(req, res);
    } catch (error) {
      this.logger.warn(`Sign-in step ${logText(path)} failed: ${logText((error as Error)?.message ?? error)}`);
      if (!res.headersSent) {
        this.page(
          res,
          400,
          renderMessagePage('Sign-in failed', 'Start again from the application.', this.options.consentStylesheet),
        );
      } else res.end();
    }
  }

  /** GET: the next step of interaction `uid` (sign in upstream, or consent); POST …/decision: the consent answer. */
  private async interaction(req: AuthorizationRequest, res: ServerResponse, path: string): Promise<void> {
    const rest = path.slice(AuthorizationServerPath.Interaction.length + 1);
    const decision = rest.endsWith(DECISION);
    const uid = decision ? rest.slice(0, -DECISION.length) : rest;
    // Reads and checks the interaction cookie: the browser that started this sign-in, and only it.
    const details = await this.provider.interactionDetails(req, res);
    if (details.uid !== uid) throw new Error('the interaction cookie names another sign-in');
    if (decision) {
      if (req.method !== 'POST')
        return this.page(res, 405, renderMessagePage('Not allowed', 'Use the form.', this.options.consentStylesheet));
      return await this.decide(req, res, details);
    }
    if (details.prompt.name === 'login') {
      res.statusCode = 303;
      res.setHeader('Location', await this.upstream.start(uid));
      res.setHeader('Cache-Control', 'no-store');
      res.end();
      return;
    }
    if (details.prompt.name === 'consent') return await this.showConsent(res, details);
    throw new Error(`unexpected prompt ${details.prompt.name}`);
  }

  /** The upstream sent the user back: who they are becomes the interaction's login, then authorize resumes. */
  private async upstreamCallback(res: ServerResponse, url: URL): Promise<void> {
    const upstreamError = url.searchParams.get('error');
    if (upstreamError !== null) {
      throw new Error(`the identity provider answered ${upstreamError}`);
    }
    const { uid, user } = await this.upstream.finish(url);
    await this.accounts.remember(user);
    const interaction = await this.provider.Interaction.find(uid);
    if (!interaction) throw new Error('the sign-in expired');
    interaction.result = { login: { accountId: user.sub } };
    await interaction.save(Math.max(1, interaction.exp - Math.floor(Date.now() / 1000)));
    res.statusCode = 303;
    res.setHeader('Location', interaction.returnTo);
    res.setHeader('Cache-Control', 'no-store');
    res.end();
  }

  private async showConsent(res: ServerResponse, details: Interaction): Promise<void> {
    const params = details.params as Record<string, unknown>;
    const clientId = String(params['client_id']);
    const client = await this.provider.Client.find(clientId);
    const redirectUri = typeof params['redirect_uri'] === 'string' ? params['redirect_uri'] : '';
    const account = details.session?.accountId ? await this.accounts.find(details.session.accountId) : undefined;
    const claims = account ? await account.claims('userinfo', 'openid profile email', {}, []) : undefined;
    const missing = details.prompt.details as { missingResourceScopes?: Record<string, string[]> };
    const resources = Object.keys(missing.missingResourceScopes ?? {});
    const scopes = [...new Set(Object.values(missing.missingResourceScopes ?? {}).flat())];
    this.page(
      res,
      200,
      renderConsentPage({
        clientName: client?.clientName ?? clientId,
        clientId,
        redirectHost: hostOf(redirectUri),
        resources: resources.length > 0 ? resources : [String(params['resource'] ?? this.options.resources[0])],
        scopes,
        user: String(claims?.['name'] ?? claims?.['email'] ?? details.session?.accountId ?? ''),
        action: `${AuthorizationServerPath.Interaction}/${details.uid}${DECISION}`,
        csrf: this.csrfToken(details.uid),
        stylesheet: this.options.consentStylesheet,
      }),
    );
  }

  private async decide(req: AuthorizationRequest, res: ServerResponse, details: Interaction): Promise<void> {
    const form = await readForm(req);
    if (!this.csrfValid(details.uid, form.get('csrf'))) {
      return this.page(
        res,
        403,
        renderMessagePage(
          'Not allowed',
          'This form is stale or was not sent by this page.',
          this.options.consentStylesheet,
        ),
      );
    }
    if (details.prompt.name !== 'consent') throw new Error('no consent is asked in this sign-in');
    let result: InteractionResults;
    if (form.get('decision') === 'allow') {
      result = { consent: { grantId: await this.grant(details) } };
    } else {
      result = { error: 'access_denied', error_description: 'The user did not allow access' };
    }
    await this.provider.interactionFinished(req, res, result, { mergeWithLastSubmission: true });
  }

  /** The grant of what the client asked and the user allowed (added to an existing grant of the same client). */
  private async grant(details: Interaction): Promise<string> {
    const accountId = details.session!.accountId;
    const clientId = String((details.params as Record<string, unknown>)['client_id']);
    const grant =
      (details.grantId ? await this.provider.Grant.find(details.grantId) : undefined) ??
      new this.provider.Grant({ accountId, clientId });
    const missing = details.prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
      grant.addResourceScope(resource, scopes.join(' '));
    }
    return grant.save();
  }

  /** A token only the page of this interaction has: HMAC of its uid under the first cookie key. */
  private csrfToken(uid: string): string {
    return createHmac('sha256', this.options.cookieKeys[0]!).update(`consent:${uid}`).digest('base64url');
  }

  private csrfValid(uid: string, token: string | null): boolean {
    if (token === null) return false;
    const expected = Buffer.from(this.csrfToken(uid));
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private page(res: ServerResponse, status: number, html: string): void {
    res.statusCode = status;
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
    res.end(html);
  }
}

function hostOf(uri: string): string {
  try {
    return new URL(uri).host || uri;
  } catch {
    return uri;
  }
}

/** The urlencoded form of a POST, whichever way the adapter left the body. */
async function readForm(req: AuthorizationRequest): Promise<URLSearchParams> {
  const { body } = req;
  if (Buffer.isBuffer(body)) return new URLSearchParams(body.toString('utf8'));
  if (typeof body === 'string') return new URLSearchParams(body);
  if (body !== null && typeof body === 'object') {
    const form = new URLSearchParams();
    for (const [key, value] of Object.entries(body)) if (typeof value === 'string') form.set(key, value);
    return form;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) throw new Error('the form is too large');
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}
