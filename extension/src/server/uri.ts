// The few URI questions the server asks, without pulling in a URI library.

import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const URI = {
  /** The file system path of a `file:` URI; for other schemes a path-like name that keeps the extension. */
  toFilePath(uri: string): string {
    if (uri.startsWith('file:')) {
      try {
        return fileURLToPath(uri);
      } catch {
        // Fall through: treat it as a name.
      }
    }
    const withoutQuery = uri.replace(/[?#].*$/, '');
    return decodeURIComponent(withoutQuery.slice(withoutQuery.lastIndexOf('/') + 1));
  },
  displayName(uri: string): string {
    const filePath = URI.toFilePath(uri);
    return path.isAbsolute(filePath) ? filePath : uri;
  },
};
