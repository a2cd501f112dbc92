import semver from 'semver';

/** Node's LTS lines by code name (`lts/iron` in an .nvmrc). */
const LTS_CODENAMES: Record<string, number> = {
  argon: 4,
  boron: 6,
  carbon: 8,
  dubnium: 10,
  erbium: 12,
  fermium: 14,
  gallium: 16,
  hydrogen: 18,
  iron: 20,
  jod: 22,
  krypton: 24,
};

/**
 * The newest of `available` that a version request names, as nvm and setup-node read it: `18`, `v18.19.1`, `18.x`,
 * `^18 || ^20`, `lts/*` (the newest even line that has reached its LTS releases, x.9 or later), `lts/iron`,
 * `node`/`latest`/`current`. Undefined when the request names none of them or cannot be read.
 */
export function resolveNodeVersion(request: string, available: readonly string[]): string | undefined {
  const releases = available.filter((version) => semver.valid(version) && !semver.prerelease(version));
  const spec = request
    .trim()
    .toLowerCase()
    .replace(/^v(?=\d)/, '');
  if (!spec) return undefined;
  if (['node', 'latest', 'current', 'stable'].includes(spec)) return semver.maxSatisfying(releases, '*') ?? undefined;
  const lts = /^lts\/(.+)$/.exec(spec)?.[1];
  if (lts) {
    const major = lts === '*' ? newestLtsMajor(releases) : LTS_CODENAMES[lts];
    return major === undefined ? undefined : (semver.maxSatisfying(releases, `${major}.x`) ?? undefined);
  }
  const range = semver.validRange(spec.replace(/\bv(?=\d)/g, ''));
  return range ? (semver.maxSatisfying(releases, range) ?? undefined) : undefined;
}

/** Whether `version` meets a request such as package.json `engines.node` (`>=18`); true when the request cannot be read. */
export function satisfiesNode(version: string, request: string): boolean {
  const range = semver.validRange(request.trim().replace(/\bv(?=\d)/g, ''));
  return !range || semver.satisfies(version, range);
}

function newestLtsMajor(releases: readonly string[]): number | undefined {
  const majors = releases.filter((version) => semver.major(version) % 2 === 0 && semver.minor(version) >= 9).map((version) => semver.major(version));
  return majors.length ? Math.max(...majors) : undefined;
}
