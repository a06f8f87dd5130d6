// Whether the ESLint that loads the plugin has the languages API (9.7 and later): 8.57 refuses any
// config object with a `language` key, and 9.0 to 9.6 know no languages.

let supported: boolean | undefined;

export function eslintSupportsLanguages(): boolean {
  supported ??= readSupport();
  return supported;
}

function readSupport(): boolean {
  try {
    // The project's own ESLint (a peer dependency), which is the one running the plugin.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { ESLint } = require('eslint') as { ESLint?: { version?: string } };
    const [major = 0, minor = 0] = (ESLint?.version ?? '').split('.').map(Number);
    return major > 9 || (major === 9 && minor >= 7);
  } catch {
    return false;
  }
}
