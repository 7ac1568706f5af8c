/** What the consent page shows, and where its form goes. */
export interface ConsentPage {
  readonly clientName: string;
  readonly clientId: string;
  /** The host the client will be sent back to (its redirect URI's). */
  readonly redirectHost: string;
  /** The MCP server(s) the client asks for. */
  readonly resources: readonly string[];
  readonly scopes: readonly string[];
  /** Who signed in (name or email, else subject). */
  readonly user: string;
  readonly action: string;
  readonly csrf: string;
  readonly stylesheet: string;
}

const BASE_STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f4f5;color:#18181b}
main{max-width:32rem;margin:3rem auto;background:#fff;border-radius:.75rem;padding:2rem;box-shadow:0 1px 3px #0002}
h1{font-size:1.25rem;margin-top:0}code{font-size:.9em;word-break:break-all}
ul{padding-left:1.25rem}.actions{display:flex;gap:.75rem;margin-top:1.5rem}
button{font:inherit;padding:.5rem 1.25rem;border-radius:.5rem;border:1px solid #a1a1aa;background:#fff;cursor:pointer}
button[value=allow]{background:#18181b;color:#fff;border-color:#18181b}
`;

/**
 * The consent page: plain server-rendered HTML, every value escaped, no script and no external
 * asset. The client is named with its redirect host, which a client cannot choose freely.
 */
export function renderConsentPage(page: ConsentPage): string {
  const list = (items: readonly string[]) => items.map((item) => `<li><code>${escapeHtml(item)}</code></li>`).join('');
  return document(
    `Allow ${page.clientName}?`,
    `<h1>Allow <strong>${escapeHtml(page.clientName)}</strong> to use the MCP server as you?</h1>
<p>Signed in as <strong>${escapeHtml(page.user)}</strong>.</p>
<p>The application will be sent back to <strong>${escapeHtml(page.redirectHost)}</strong>
(client <code>${escapeHtml(page.clientId)}</code>).</p>
<p>It asks for:</p><ul>${list(page.resources)}</ul>
${page.scopes.length > 0 ? `<p>With the scopes:</p><ul>${list(page.scopes)}</ul>` : ''}
<form method="post" action="${escapeHtml(page.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(page.csrf)}">
<div class="actions"><button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button></div>
</form>`,
    page.stylesheet,
  );
}

/** A page that says what went wrong, in words fit for the user (no detail of the failure). */
export function renderMessagePage(title: string, message: string, stylesheet: string): string {
  return document(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`, stylesheet);
}

function document(title: string, body: string, stylesheet: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${BASE_STYLE}${stylesheet.replaceAll('</', '<\\/')}</style></head>
<body><main>${body}</main></body></html>`;
}

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}
