// A short, secret-free reason for a failed file operation: the errno code and what it means.

const MEANING: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory',
  ENOTDIR: 'a parent is not a directory',
  EROFS: 'read-only file system',
};

export function fsReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === undefined) return error instanceof Error ? error.message : String(error);
  return MEANING[code] === undefined ? code : `${code} (${MEANING[code]})`;
}
