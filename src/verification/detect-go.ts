import { detection, type Detection } from './detection.js';
import type { RepoFiles } from './repo-files.js';

/** `go test ./...` and `go vet ./...` for a Go module; modules are downloaded when go.sum lists any. */
export async function detectGo(files: RepoFiles): Promise<Detection[]> {
  if (!(await files.exists('go.mod'))) return [];
  const found = [detection('test', 'go test ./...', 'go.mod'), detection('lint', 'go vet ./...', 'go.mod')];
  if ((await files.read('go.sum'))?.trim()) found.push(detection('setup', 'go mod download', 'go.sum'));
  return found;
}
