// The seating picker's view: runs inside the host's sandboxed iframe and talks to the host over
// postMessage with the official App class of @modelcontextprotocol/ext-apps.
import {
  App,
  PostMessageTransport,
  applyDocumentTheme,
  applyHostStyleVariables,
  type McpUiHostContext,
} from '@modelcontextprotocol/ext-apps';

interface Seatings {
  date: string;
  partySize: number;
  times: string[];
}

const element = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const request = element<HTMLParagraphElement>('request');
const times = element<HTMLDivElement>('times');
const form = element<HTMLFormElement>('booking');
const book = element<HTMLButtonElement>('book');
const outcome = element<HTMLParagraphElement>('outcome');

let seatings: Seatings | undefined;
let chosen: string | undefined;

function isSeatings(value: unknown): value is Seatings {
  const v = value as Seatings | undefined;
  return typeof v?.date === 'string' && typeof v.partySize === 'number' && Array.isArray(v.times);
}

function showSeatings(found: Seatings): void {
  seatings = found;
  chosen = undefined;
  book.disabled = true;
  request.textContent =
    found.times.length > 0
      ? `Free seatings for ${found.partySize} on ${found.date}:`
      : `No table left for ${found.partySize} on ${found.date}.`;
  times.replaceChildren(
    ...found.times.map((time) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = time;
      button.dataset['time'] = time;
      button.setAttribute('aria-pressed', 'false');
      button.addEventListener('click', () => choose(time));
      return button;
    }),
  );
  form.hidden = found.times.length === 0;
}

function choose(time: string): void {
  chosen = time;
  for (const button of times.querySelectorAll('button')) {
    button.setAttribute('aria-pressed', String(button.dataset['time'] === time));
  }
  book.disabled = false;
}

function applyContext(context: McpUiHostContext | undefined): void {
  if (context?.theme) applyDocumentTheme(context.theme);
  if (context?.styles?.variables) applyHostStyleVariables(context.styles.variables);
}

const app = new App({ name: 'bistro-seating-picker', version: '1.0.0' }, {});

// Handlers before connect(): the host sends the tool's input and result right after the handshake.
app.ontoolinput = ({ arguments: args }) => {
  // Kept on the document for whoever inspects the view (the repository's e2e test reads it).
  document.body.dataset['toolInput'] = JSON.stringify(args ?? {});
  const { date, partySize } = (args ?? {}) as Partial<Seatings>;
  if (date && partySize) request.textContent = `Looking for a table for ${partySize} on ${date}…`;
};
app.ontoolresult = (result) => {
  if (result.isError || !isSeatings(result.structuredContent)) {
    request.textContent = 'The search failed.';
    return;
  }
  showSeatings(result.structuredContent);
};
app.onhostcontextchanged = applyContext;

// A click, not a form submission: hosts' sandboxes may leave out allow-forms, which blocks submitting.
book.addEventListener('click', () => {
  if (!seatings || !chosen || !form.reportValidity()) return;
  book.disabled = true;
  outcome.textContent = `Booking ${chosen}…`;
  const args = {
    date: seatings.date,
    partySize: seatings.partySize,
    time: chosen,
    name: element<HTMLInputElement>('name').value,
    email: element<HTMLInputElement>('email').value,
  };
  // Through the host to the server: the host proxies tools/call of tools whose visibility has 'app'.
  app.callServerTool({ name: 'book_seating', arguments: args }).then(
    (result) => {
      const text = result.content.find((block) => block.type === 'text');
      outcome.textContent = text && 'text' in text ? text.text : 'Booked.';
      outcome.dataset['outcome'] = result.isError ? 'error' : 'booked';
      book.disabled = false;
    },
    (error: unknown) => {
      outcome.textContent = `The booking failed: ${error instanceof Error ? error.message : String(error)}`;
      outcome.dataset['outcome'] = 'error';
      book.disabled = false;
    },
  );
});

await app.connect(new PostMessageTransport(window.parent, window.parent));
applyContext(app.getHostContext());
document.body.dataset['connected'] = 'true';
