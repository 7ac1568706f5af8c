import { lstat, readdir, readFile } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import { McpSkillDefinitionError } from './skill-builder.js';

/** The files of one skill folder, read from disk. */
export interface SkillFolder {
  /** The folder as given (errors name files under it). */
  readonly where: string;
  readonly folderName: string;
  readonly files: ReadonlyArray<{ readonly path: string; readonly bytes: Uint8Array }>;
}

/**
 * The skill folders of a folder of skills: every subfolder is a skill (it must hold a `SKILL.md`);
 * files beside them (a README) are not part of any skill. Names starting with a dot are left out.
 */
export async function readSkillsDirectory(directory: string): Promise<SkillFolder[]> {
  let entries;
  try {
    entries = await readdir(directory, { withFileTypes: true });
  } catch (error) {
    throw new McpSkillDefinitionError(directory, `cannot be read (${reasonOf(error)})`);
  }
  const folders: SkillFolder[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (entry.name.startsWith('.')) continue;
    const path = join(directory, entry.name);
    if (entry.isSymbolicLink()) throw notFollowed(path);
    if (entry.isDirectory()) folders.push(await readSkillFolder(path));
  }
  return folders;
}

/** One skill folder: every regular file under it, by `/`-separated path. */
export async function readSkillFolder(folder: string): Promise<SkillFolder> {
  const files: Array<{ path: string; bytes: Uint8Array }> = [];
  const visit = async (directory: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(directory, { withFileTypes: true });
    } catch (error) {
      throw new McpSkillDefinitionError(directory, `cannot be read (${reasonOf(error)})`);
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = join(directory, entry.name);
      if (entry.isDirectory()) await visit(path);
      else if (entry.isFile())
        files.push({ path: relative(folder, path).split(sep).join('/'), bytes: await read(path) });
      else throw notFollowed(path);
    }
  };
  const stats = await lstat(folder).catch((error: unknown) => {
    throw new McpSkillDefinitionError(folder, `cannot be read (${reasonOf(error)})`);
  });
  if (!stats.isDirectory()) throw new McpSkillDefinitionError(folder, 'is not a folder');
  await visit(folder);
  return { where: folder, folderName: basename(folder), files };
}

async function read(path: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(path));
  } catch (error) {
    throw new McpSkillDefinitionError(path, `cannot be read (${reasonOf(error)})`);
  }
}

function notFollowed(path: string): McpSkillDefinitionError {
  return new McpSkillDefinitionError(
    path,
    'is a symbolic link or a special file, which skills do not follow; copy the file instead',
  );
}

function reasonOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
}
