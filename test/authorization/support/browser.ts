import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { launchChromium } from '../../support/chromium.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export type ConsentDecision = 'allow' | 'deny';

export interface SignInOptions {
  /** The login name typed into the upstream's form. Default `ada`. */
  readonly login?: string;
  /** The button clicked on our consent page. Default `allow`. */
  readonly decision?: ConsentDecision;
  /**
   * Where the flow ends: the sign-in resolves when the browser is sent to a URL starting with it.
   * Default: the `redirect_uri` parameter of the authorization URL.
   */
  readonly redirectUri?: string;
  /** The upstream's issuer: pages under it are the upstream's. Default: recognised by their forms. */
  readonly upstreamIssuer?: string;
  /** The whole flow's time limit. Default 20 s. */
  readonly timeoutMs?: number;
}

/** Our consent page as the browser showed it. */
export interface ConsentSnapshot {
  readonly url: string;
  /** The page's visible text (`document.body.innerText`). */
  readonly text: string;
  readonly html: string;
}

export interface SignInResult {
  /** The URL the browser was sent to (the redirect URI with its query). */
  readonly url: string;
  readonly query: URLSearchParams;
  readonly code?: string;
  readonly state?: string;
  readonly iss?: string;
  readonly error?: string;
  readonly errorDescription?: string;
  /** Our consent page, if it was shown (undefined: the flow went through without asking). */
  readonly consent?: ConsentSnapshot;
  /** Whether the upstream asked for a login (false when its session was reused). */
  readonly upstreamLogin: boolean;
  /** Whether the upstream showed its own consent form. */
  readonly upstreamConsent: boolean;
  /** Every page URL the main frame committed to, in order. */
  readonly visited: readonly string[];
}

/** The flow stopped on a page that is neither a form it knows nor the redirect URI (an error page, say). */
export class SignInStoppedError extends Error {
  constructor(
    readonly url: string,
    readonly text: string,
    readonly visited: readonly string[],
    reason: string,
  ) {
    super(`sign-in stopped at ${url} (${reason}): ${text.slice(0, 400)}`);
    this.name = 'SignInStoppedError';
  }
}

/** Our consent page, left open: assert on it, tamper with it, then decide. */
export interface OpenConsentPage {
  readonly page: Page;
  readonly snapshot: ConsentSnapshot;
  /** Clicks a decision button and follows the flow to the redirect URI. */
  decide(decision: ConsentDecision): Promise<SignInResult>;
}

/** The visible text of a page (`document.body.innerText`). */
export async function pageText(page: Page): Promise<string> {
  return page.evaluate(
    () => (globalThis as unknown as { document: { body: { innerText: string } } }).document.body.innerText,
  );
}

/**
 * Headless Chromium, launched once per suite. Each `signIn` runs in a fresh context (no cookies
 * shared); a `BrowserSession` keeps one context across sign-ins (the same user's browser, with
 * the upstream's and the authorization server's cookies), for the confused-deputy cases.
 *
 * ```ts
 * const browser = await TestBrowser.launch();
 * const result = await browser.signIn(authorizationUrl, { login: 'ada', decision: 'allow' });
 * expect(result.consent?.text).toContain('Claude');
 * await browser.close();
 * ```
 */
export class TestBrowser {
  private constructor(readonly browser: Browser) {}

  static async launch(): Promise<TestBrowser> {
    return new TestBrowser(await launchChromium());
  }

  /** A browser context (cookies kept across its sign-ins). */
  async newSession(): Promise<BrowserSession> {
    const context = await this.browser.newContext({ ignoreHTTPSErrors: true });
    // All traffic stays on the loopback host: anything else (the development forms @import a web
    // font) is refused at once rather than left to time out.
    await context.route(
      (url) => url.protocol.startsWith('http') && !LOOPBACK.has(url.hostname),
      (route) => route.abort(),
    );
    context.setDefaultTimeout(15_000);
    context.setDefaultNavigationTimeout(15_000);
    return new BrowserSession(context);
  }

  /** Signs in within a fresh context, closed afterwards. */
  async signIn(authorizationUrl: string | URL, options: SignInOptions = {}): Promise<SignInResult> {
    const session = await this.newSession();
    try {
      return await session.signIn(authorizationUrl, options);
    } finally {
      await session.close();
    }
  }

  async close(): Promise<void> {
    await this.browser.close();
  }
}

export class BrowserSession {
  constructor(readonly context: BrowserContext) {}

  /**
   * Opens `authorizationUrl` and goes through the upstream's login (typing `login`) and consent
   * forms, then clicks `decision` on our consent page, until the browser is sent to the redirect
   * URI. Rejects with `SignInStoppedError` when it stops elsewhere.
   */
  async signIn(authorizationUrl: string | URL, options: SignInOptions = {}): Promise<SignInResult> {
    const flow = await Flow.open(this.context, String(authorizationUrl), options);
    try {
      const consent = await flow.run();
      if (consent) await flow.decide(options.decision ?? 'allow');
      return await flow.result();
    } finally {
      await flow.page.close();
    }
  }

  /** Like `signIn`, but stops on our consent page and leaves it open (close it with `page.close()`). */
  async openConsent(
    authorizationUrl: string | URL,
    options: Omit<SignInOptions, 'decision'> = {},
  ): Promise<OpenConsentPage> {
    const flow = await Flow.open(this.context, String(authorizationUrl), options);
    const snapshot = await flow.run().catch(async (error: unknown) => {
      await flow.page.close();
      throw error;
    });
    if (!snapshot) {
      const result = await flow.result();
      await flow.page.close();
      throw new SignInStoppedError(result.url, '', result.visited, 'reached the redirect URI without a consent page');
    }
    return {
      page: flow.page,
      snapshot,
      decide: async (decision) => {
        await flow.decide(decision);
        return flow.result();
      },
    };
  }

  async close(): Promise<void> {
    await this.context.close();
  }
}

/** One authorization flow in one page. */
class Flow {
  private readonly visited: string[] = [];
  private redirect?: Request;
  private readonly redirected: Promise<Request>;
  private consent?: ConsentSnapshot;
  private upstreamLogin = false;
  private upstreamConsent = false;
  private readonly deadline: number;

  private constructor(
    readonly page: Page,
    private readonly options: SignInOptions,
    private readonly redirectUri: string,
  ) {
    this.deadline = Date.now() + (options.timeoutMs ?? 20_000);
    let captured!: (request: Request) => void;
    this.redirected = new Promise<Request>((resolve) => (captured = resolve));
    page.on('request', (request) => {
      if (!this.redirect && request.isNavigationRequest() && request.url().startsWith(this.redirectUri)) {
        this.redirect = request;
        captured(request);
      }
    });
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) this.visited.push(frame.url());
    });
  }

  static async open(context: BrowserContext, authorizationUrl: string, options: SignInOptions): Promise<Flow> {
    const redirectUri = options.redirectUri ?? new URL(authorizationUrl).searchParams.get('redirect_uri');
    if (!redirectUri) throw new Error('signIn: no redirect_uri in the authorization URL; pass options.redirectUri');
    const flow = new Flow(await context.newPage(), options, redirectUri);
    try {
      await flow.navigate(() => flow.page.goto(authorizationUrl, { waitUntil: 'domcontentloaded' }));
    } catch (error) {
      await flow.page.close();
      throw error;
    }
    return flow;
  }

  /** Fills the forms it knows until our consent page (returned) or the redirect URI (undefined). */
  async run(): Promise<ConsentSnapshot | undefined> {
    for (let step = 0; step < 12; step++) {
      if (this.redirect) return undefined;
      const page = this.page;
      const url = page.url();
      const upstream = this.options.upstreamIssuer;
      const isUpstream = upstream ? url.startsWith(upstream) : false;
      if (
        !isUpstream &&
        (new URL(url).pathname.includes('/oauth/interaction/') || (await this.has('button[name="decision"]')))
      ) {
        if (!(await this.has('button[name="decision"]')))
          throw await this.stopped('an /oauth/interaction/ page without decision buttons');
        this.consent = { url, text: await pageText(page), html: await page.content() };
        return this.consent;
      }
      if (await this.has('input[name="login"]')) {
        this.upstreamLogin = true;
        await page.fill('input[name="login"]', this.options.login ?? 'ada');
        if (await this.has('input[name="password"]')) await page.fill('input[name="password"]', 'any-password');
        await this.navigate(() => page.click('button[type="submit"]'));
        continue;
      }
      if (await this.has('input[name="prompt"][value="consent"]')) {
        this.upstreamConsent = true;
        await this.navigate(() => page.click('button[type="submit"]'));
        continue;
      }
      throw await this.stopped('no form it knows');
    }
    throw await this.stopped('too many steps');
  }

  async decide(decision: ConsentDecision): Promise<void> {
    await this.navigate(() => this.page.click(`button[name="decision"][value="${decision}"]`));
    const consent = await this.run();
    if (consent && !this.redirect) throw await this.stopped('the consent page came back after the decision');
  }

  async result(): Promise<SignInResult> {
    if (!this.redirect) throw await this.stopped('never reached the redirect URI');
    // Let the redirect reach its server (the loopback receiver) before the page may close.
    await Promise.race([this.redirect.response().catch(() => null), sleep(5_000)]);
    // Chromium may never confirm a page's close asked for while it is still loading: let it load.
    await this.page.waitForLoadState('load', { timeout: 5_000 }).catch(() => undefined);
    const url = this.redirect.url();
    const query = new URL(url).searchParams;
    const get = (name: string): string | undefined => query.get(name) ?? undefined;
    return {
      url,
      query,
      code: get('code'),
      state: get('state'),
      iss: get('iss'),
      error: get('error'),
      errorDescription: get('error_description'),
      consent: this.consent,
      upstreamLogin: this.upstreamLogin,
      upstreamConsent: this.upstreamConsent,
      visited: [...this.visited],
    };
  }

  /** Runs an action that navigates the main frame; settles on the new page or on the redirect. */
  private async navigate(action: () => Promise<unknown>): Promise<void> {
    const remaining = Math.max(1, this.deadline - Date.now());
    const navigated = this.page
      .waitForEvent('framenavigated', { predicate: (frame) => frame === this.page.mainFrame(), timeout: remaining })
      .then(() => this.page.waitForLoadState('domcontentloaded', { timeout: remaining }));
    const outcome = Promise.race([navigated, this.redirected]);
    // Awaited below, or abandoned when the action fails: never an unhandled rejection.
    outcome.catch(() => undefined);
    try {
      await action();
    } catch (error) {
      // A navigation to a redirect URI nobody serves fails; that is still the end of the flow.
      if (!this.redirect) throw error;
    }
    try {
      await outcome;
    } catch (error) {
      if (!this.redirect) throw error;
    }
  }

  private async has(selector: string): Promise<boolean> {
    return (await this.page.$(selector)) !== null;
  }

  private async stopped(reason: string): Promise<SignInStoppedError> {
    const text = await pageText(this.page).catch(() => '');
    return new SignInStoppedError(this.page.url(), text, [...this.visited], reason);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
