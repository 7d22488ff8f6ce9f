import { useSearchParams } from "react-router";

/**
 * Where to go after signing in: the `redirect` query parameter when it is a path of this site
 * (so `/auth?redirect=/library` brings a buyer back to their library), else the dashboard.
 * Anything else (another origin, `//host`, `/\\host`) is ignored, so the link cannot send people away.
 */
export function afterSignInPath(redirect: string | null): string {
  if (redirect && /^\/(?![/\\])/.test(redirect)) return redirect;
  return "/dashboard";
}

export function useAfterSignInPath(): string {
  return afterSignInPath(useSearchParams()[0].get("redirect"));
}
