import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The pages a reader follows: README, CONTRIBUTING, ARCHITECTURE and everything under docs/. */
function pages(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? walk(`${dir}/${entry.name}`) : entry.name.endsWith('.md') ? [`${dir}/${entry.name}`] : [],
    );
  return ['README.md', 'CONTRIBUTING.md', 'ARCHITECTURE.md', ...walk('docs')];
}

/** Text outside fenced code blocks, where links are links. */
function prose(markdown: string): string {
  return markdown.replace(/^\s*```[\s\S]*?^\s*```/gm, '');
}

/** The anchors GitHub makes of a page's headings: lower case, punctuation dropped, spaces as dashes. */
function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    let unique = slug;
    for (let n = 1; found.has(unique); n++) unique = `${slug}-${n}`;
    found.add(unique);
  }
  return found;
}

describe('the links of README, CONTRIBUTING, ARCHITECTURE and docs/', () => {
  it('each relative link reaches a file of the repository, and its #anchor a heading there', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const page of pages()) {
      const text = prose(readFileSync(join(ROOT, page), 'utf8'));
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue; // https:, mailto:
        checked++;
        const [path, anchor] = target!.split('#') as [string, string | undefined];
        const file = path === '' ? join(ROOT, page) : normalize(join(ROOT, dirname(page), path));
        if (!existsSync(file)) {
          broken.push(`${page}: ${target} (no ${relative(ROOT, file)})`);
          continue;
        }
        if (anchor && file.endsWith('.md') && !anchors(readFileSync(file, 'utf8')).has(anchor)) {
          broken.push(`${page}: ${target} (no heading #${anchor})`);
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(broken).toEqual([]);
  });
});
