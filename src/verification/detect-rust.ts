import { detection, type Detection } from './detection.js';
import { firstExisting, type RepoFiles } from './repo-files.js';
import { tomlTable } from './toml-table.js';

/** `cargo test` for a Cargo project; clippy only when the project configures it. */
export async function detectRust(files: RepoFiles): Promise<Detection[]> {
  const manifest = await files.read('Cargo.toml');
  if (manifest === undefined) return [];
  const found = [detection('test', 'cargo test', 'Cargo.toml')];
  const clippy =
    (await firstExisting(files, ['clippy.toml', '.clippy.toml'])) ??
    (tomlTable(manifest, 'lints.clippy') || tomlTable(manifest, 'workspace.lints.clippy') ? 'Cargo.toml [lints.clippy]' : undefined);
  if (clippy) found.push(detection('lint', 'cargo clippy --all-targets -- -D warnings', clippy));
  if (await files.exists('Cargo.lock')) found.push(detection('setup', 'cargo fetch', 'Cargo.lock'));
  return found;
}
