export interface CredentialEnv {
  /** GIT_CONFIG_COUNT/KEY/VALUE variables: the header lives only in this command's environment. */
  env: Record<string, string>;
  /** What to mask out of any error text. */
  secrets: string[];
}

/**
 * The GitHub token as an `http.<url>.extraHeader`, scoped to the repository URL and passed through the
 * environment so it never appears in argv or in a config file. file:// and other non-http URLs get nothing.
 */
export function credentialEnv(repositoryUrl: string, credential: string | undefined): CredentialEnv {
  if (!credential || !/^https?:\/\//i.test(repositoryUrl)) return { env: {}, secrets: credential ? [credential] : [] };
  const encoded = Buffer.from(`x-access-token:${credential}`).toString('base64');
  return {
    env: {
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: `http.${repositoryUrl}.extraHeader`,
      GIT_CONFIG_VALUE_0: `Authorization: Basic ${encoded}`,
    },
    secrets: [credential, encoded],
  };
}
