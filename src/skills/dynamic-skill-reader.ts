import { ownValue } from '../protocol/own-property.js';
import { McpError } from '../protocol/mcp.error.js';
import type { McpSkillContent } from './mcp-skill.decorator.js';
import type { SkillOwner } from './skill-catalog-snapshot.js';
import { bytesOf, mimeTypeOf, textOf } from './skill-files.js';

/** What an `@McpSkill` method returns now. */
export async function contentFrom(owner: SkillOwner): Promise<McpSkillContent> {
  return (await (owner.instance as Record<string, () => unknown>)[owner.methodName]!()) as McpSkillContent;
}

/**
 * The reader behind a dynamic skill's resource template (`<root>{+path}`): each read calls the
 * skill's method again and answers the file it returns now. A stand-in of the provider, so the
 * access policy sees the method (its `@McpScopes`) and the class's enhancers apply.
 */
export function dynamicSkillReader(owner: SkillOwner, root: string): object {
  const reader: Record<string, unknown> = Object.create(owner.instance);
  Object.defineProperty(reader, owner.methodName, {
    value: async ({ path }: { path: string }) => {
      const content = await contentFrom(owner);
      // The path is the client's: only a file the skill returned is one (`constructor` is not).
      const file = typeof content === 'object' && content !== null ? ownValue(content, path) : undefined;
      if (file === undefined) throw McpError.resourceNotFound(`${root}${path}`);
      const bytes = bytesOf(file);
      const text = textOf(bytes);
      const uri = `${root}${path.split('/').map(encodeURIComponent).join('/')}`;
      const mimeType = mimeTypeOf(path);
      return text === undefined
        ? { uri, mimeType, blob: Buffer.from(bytes).toString('base64') }
        : { uri, mimeType, text };
    },
  });
  return reader;
}
