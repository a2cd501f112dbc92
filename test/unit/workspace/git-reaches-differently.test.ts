import { describe, expect, it } from 'vitest';
import { gitReachesDifferently } from '../../../src/workspace/remote-refs.js';

const GITHUB = 'https://github.com/acme/web.git';

describe('gitReachesDifferently', () => {
  const reaches = (settings: string[], url = GITHUB, env: NodeJS.ProcessEnv = {}) => gitReachesDifferently(url, settings, env);

  it('is false with no proxy and no setting, or only certificate and tuning settings', () => {
    expect(reaches([])).toBe(false);
    expect(reaches(['http.sslverify false', 'http.sslcainfo /etc/ssl/certs/ca-certificates.crt', 'http.postbuffer 524288000'])).toBe(false);
  });

  it('is true with a proxy variable', () => {
    for (const name of ['http_proxy', 'HTTPS_PROXY', 'all_proxy']) expect(reaches([], GITHUB, { [name]: 'http://proxy:3128' })).toBe(true);
  });

  it('is true with an http or credential setting for every URL or for this host, not for another host', () => {
    expect(reaches(['http.proxy http://proxy:3128'])).toBe(true);
    expect(reaches(['credential.helper store'])).toBe(true);
    expect(reaches(['http.https://github.com.extraheader Authorization: Basic abc'])).toBe(true);
    expect(reaches(['http.https://github.com/acme/.sslcert /client.pem'])).toBe(true);
    expect(reaches(['http.https://*.example.com.proxy http://proxy:3128'], 'https://ghe.example.com/acme/web.git')).toBe(true);
    expect(reaches(['http.https://github.com.extraheader Authorization: Basic abc'], 'https://ghe.example.com/acme/web.git')).toBe(false);
    expect(reaches(['credential.https://source.developers.google.com.helper gcloud.sh'])).toBe(false);
    expect(reaches(['http.http://github.com.proxy http://proxy:3128'])).toBe(false);
  });

  it('is true when a url rewrite applies to the URL, not for a push-only or unrelated one', () => {
    expect(reaches(['url.git@github.com:.insteadof https://github.com/'])).toBe(true);
    expect(reaches(['url.git@github.com:.pushinsteadof https://github.com/'])).toBe(false);
    expect(reaches(['url.https://mirror.example.com/.insteadof https://gitlab.com/'])).toBe(false);
  });

  it('is true with core.askpass or a configuration that could not be read', () => {
    expect(reaches(['core.askpass /usr/bin/ksshaskpass'])).toBe(true);
    expect(reaches(['unreadable'])).toBe(true);
  });
});
