const TEST_PATH = [
  /(?:^|\/)(?:test|tests|__tests__|spec|specs|e2e)\//i,
  /\.(?:test|spec)\.[cm]?[jt]sx?$/i,
  /(?:^|\/)test_[^/]+\.py$/i,
  /_test\.(?:py|go|rb|exs?)$/i,
  /(?:Test|Tests|Spec)\.(?:java|kt|scala|cs|swift)$/,
  /_spec\.rb$/i,
];

/** Whether a repository path is a test file by the common conventions of JS/TS, Python, Go, Ruby, JVM and Rust. */
export function isTestFile(path: string): boolean {
  return TEST_PATH.some((pattern) => pattern.test(path));
}
