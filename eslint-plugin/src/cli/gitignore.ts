// Answers "does a .gitignore hide this path?", reading each directory's .gitignore once, as git scopes them.

import * as fs from 'node:fs';
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';

interface IgnoreLayer {
  /** The directory holding the .gitignore: its patterns are relative to it. */
  directory: string;
  rules: Ignore;
}

export class GitignoreStack {
  private readonly layersByDirectory = new Map<string, IgnoreLayer | null>();

  /**
   * @param root The outermost directory whose .gitignore applies: the repository's top, or the
   *   working directory when not in a repository. Nothing above it is read.
   */
  constructor(private readonly root: string) {}

  /** Whether `absolutePath` is ignored by a .gitignore between the root and the path's parent. */
  ignores(absolutePath: string, isDirectory: boolean): boolean {
    for (const layer of this.layersAbove(absolutePath)) {
      const relative = path.relative(layer.directory, absolutePath).split(path.sep).join('/');
      if (relative !== '' && layer.rules.ignores(isDirectory ? `${relative}/` : relative)) {
        return true;
      }
    }
    return false;
  }

  private layersAbove(absolutePath: string): IgnoreLayer[] {
    const relativeToRoot = path.relative(this.root, absolutePath);
    if (relativeToRoot.startsWith('..') || path.isAbsolute(relativeToRoot)) {
      return [];
    }
    const layers: IgnoreLayer[] = [];
    let directory = path.dirname(absolutePath);
    for (;;) {
      const layer = this.layerOf(directory);
      if (layer) layers.push(layer);
      if (directory === this.root) break;
      const parent = path.dirname(directory);
      if (parent === directory) break;
      directory = parent;
    }
    return layers;
  }

  private layerOf(directory: string): IgnoreLayer | null {
    let layer = this.layersByDirectory.get(directory);
    if (layer === undefined) {
      layer = readLayer(directory);
      this.layersByDirectory.set(directory, layer);
    }
    return layer;
  }
}

function readLayer(directory: string): IgnoreLayer | null {
  let text: string;
  try {
    text = fs.readFileSync(path.join(directory, '.gitignore'), 'utf8');
  } catch {
    return null;
  }
  return { directory, rules: ignore().add(text) };
}

/** The repository's top directory above `start`, or null outside a git work tree. */
export function findRepositoryRoot(start: string): string | null {
  let directory = start;
  for (;;) {
    if (fs.existsSync(path.join(directory, '.git'))) return directory;
    const parent = path.dirname(directory);
    if (parent === directory) return null;
    directory = parent;
  }
}
