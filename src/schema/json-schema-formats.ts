// The JSON Schema `format` values a tool's output schema commonly carries (those this module
// generates from class-validator rules among them), each checked as JSON Schema defines it.

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d):([0-5]\d|60)(\.\d+)?(z|[+-]([01]\d|2[0-3]):[0-5]\d)$/i;
const EMAIL =
  /^[^\s@"(),:;<>[\\\]]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const UUID = /^(?:urn:uuid:)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const URI_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** `date` (RFC 3339 full-date): a real day of a real month. */
function isDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > DAYS[month - 1]!) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month !== 2 || day <= 28 || leap;
}

const FORMATS: Readonly<Record<string, (text: string) => boolean>> = {
  date: isDate,
  time: (text) => TIME.test(text),
  'date-time': (text) => {
    const at = text.search(/t/i);
    return at > 0 && isDate(text.slice(0, at)) && TIME.test(text.slice(at + 1));
  },
  email: (text) => EMAIL.test(text),
  uuid: (text) => UUID.test(text),
  ipv4: (text) => IPV4.test(text),
  uri: (text) => URI_SCHEME.test(text) && URL.canParse(text),
};

/** The test of a string `format`, or undefined for a format not checked (then any string passes). */
export function formatCheck(format: string): ((text: string) => boolean) | undefined {
  return Object.hasOwn(FORMATS, format) ? FORMATS[format] : undefined;
}
