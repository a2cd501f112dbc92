import { stripVTControlCharacters } from 'node:util';

/** C0 control characters other than tab, line feed and carriage return, and DEL. */
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/**
 * Text from people and from the agent, made well-formed once at the edges it crosses (what a person wrote in Slack
 * as Wrench reads it; commit messages, pull request titles, bodies and comments, Slack messages on the way out): a
 * lone surrogate becomes U+FFFD, terminal escape sequences and the other C0 controls (NUL, which git refuses in a
 * commit message, a bell, a backspace) are dropped; tab, line feed and carriage return stay. Nothing is refused: odd
 * bytes never fail a run.
 */
export function wellFormedText(text: string): string {
  const wellFormed = text.toWellFormed();
  if (!CONTROL_OR_ESCAPE.test(wellFormed)) return wellFormed;
  return stripVTControlCharacters(wellFormed).replace(CONTROLS, '');
}

const CONTROL_OR_ESCAPE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u009b]/;
