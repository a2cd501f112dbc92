/** The texts of Anthropic's text editor tool documentation, and Wrench's own in the same style. */
export const FILE_NOT_FOUND = 'Error: File not found';
export const NO_MATCH = 'Error: No match found for replacement. Please check your text and try again.';
export const PERMISSION_DENIED_WRITE = 'Error: Permission denied. Cannot write to file.';
export const PERMISSION_DENIED_READ = 'Error: Permission denied. Cannot read file.';
export const REPLACED = 'Successfully replaced text at exactly one location.';
export const COMMANDS = ['view', 'create', 'str_replace', 'insert'] as const;

export function multipleMatches(lines: readonly number[]): string {
  const where = lines.length === 1 ? `line ${lines[0]}` : `lines ${lines.join(', ')}`;
  return `Error: Found ${lines.length} matches for replacement text. Please provide more context to make a unique match. The matches start on ${where}.`;
}

export function unknownCommand(command: unknown, toolName: string): string {
  return `Error: Unrecognized command ${String(command)}. The allowed commands for the ${toolName} tool are: ${COMMANDS.join(', ')}`;
}

export function missingParameter(name: string, command: string): string {
  return `Error: Parameter \`${name}\` is required for command: ${command}`;
}
