/** The token inside a download page path (`/download/{token}`), or null when it is not one. */
export function tokenOfDownloadPath(path: string): string | null {
  const match = /^\/download\/([^/?#]+)$/.exec(path);
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}
