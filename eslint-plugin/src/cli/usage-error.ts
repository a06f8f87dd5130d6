// A mistake in how locksmith was called or what it was pointed at: one line on stderr, exit code 2.

export class UsageError extends Error {
  override name = 'UsageError';
}
