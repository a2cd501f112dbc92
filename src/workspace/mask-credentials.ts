const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi;
const AUTHORIZATION_VALUE = /(authorization:\s*(?:basic|bearer|token)\s+)[^\s'"]+/gi;
const GITHUB_TOKEN = /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})\b/g;

/** Hides URL userinfo, Authorization header values, GitHub-looking tokens and any given secret. */
export function maskCredentials(text: string, secrets: readonly string[] = []): string {
  let masked = text;
  for (const secret of secrets) {
    if (secret.length >= 4) masked = masked.split(secret).join('***');
  }
  return masked.replace(URL_USERINFO, '$1***@').replace(AUTHORIZATION_VALUE, '$1***').replace(GITHUB_TOKEN, '***');
}
