import { describe, expect, it } from 'vitest';
import { readInstruction } from '../../../src/instruction/read-instruction.js';
import { isWholeRewrite } from '../../../src/instruction/whole-rewrite.js';

/** Whole rewrites in the phrasings people use, in the languages the reader supports. */
const WHOLE_REWRITES = [
  'Rewrite the whole backend in Rust.',
  'Rewrite in Rust\nJust rewrite it in Rust.',
  'port everything to Go',
  'redo the app in Kotlin',
  'migrate the entire codebase to TypeScript',
  'start over from scratch',
  "let's start over from scratch",
  'Rust rewrite\nRewrite entire project in rust, it do be faster',
  'I will likely be moving away from rust and rewriting the project in C++.',
  'can we port the app to Go?',
  'rebuild the whole thing in Next.js',
  'we should rewrite our backend in Elixir',
  'Convert the whole codebase to Python',
  'rewrite it all in Go',
  'throw away the frontend and rebuild it in Svelte',
  'a full rewrite of the app please',
  'the backend should be rewritten in Go',
  'Port our codebase to Rust',
  'migrate our entire infrastructure from AWS to GCP',
  'split the monolith into microservices',
  // German, Spanish, Portuguese, French, Italian
  'Schreib das ganze Backend in Rust neu.',
  'Bitte die gesamte Anwendung nach Go portieren',
  'Das Projekt von Grund auf neu schreiben',
  'Schreib es in Rust neu',
  'Reescribe todo el backend en Rust',
  'migrar todo el proyecto a Go',
  'rehacer la aplicación desde cero',
  'Reescrever o sistema inteiro em Kotlin',
  "Réécrire toute l'application en Go",
  'riscrivere tutto il progetto in Rust',
  // Japanese, Chinese
  'バックエンド全体をRustで書き直してください',
  '一から作り直して',
  'Rustで書き直して',
  'アプリをGoに移植して',
  '用Rust重写整个后端',
  '全部重写',
  '把项目迁移到Go',
];

/** Scoped asks that share the words: a function, a table, a message, an upgrade, a translation. */
const SCOPED_ASKS = [
  "rewrite the parser's error message",
  'port this function to Rust',
  'migrate the users table',
  'rewrite the README',
  'convert the config to YAML',
  'migrate the tests to vitest',
  'Actualizar mi proyecto de Java 7 a Java 8.',
  'upgrade to Java 8',
  'rewrite `formatBytes` in src/lib/format.ts to use Intl',
  'port src/utils/slug.js to TypeScript',
  'move the button to the left',
  'rewrite the whole error message',
  'Rewrite the whole test suite to use vitest',
  'translate the whole app into German',
  'migrate the entire database to Postgres',
  'rewrite the CSV exporter to stream rows',
  "let's go and rewrite the retry logic",
  'rewrite the login page in React',
  'Move everything in utils/ to lib/',
  'rewrite the intro to express gratitude',
  'add a Go client for the API',
  'Update the Python version in the Dockerfile',
  'Schreib den Parser in Rust neu',
  'この関数をRustに移植して',
  '把这个函数用Rust重写',
  'migrar la tabla de usuarios',
  'porter cette fonction en Rust',
];

describe('whole rewrites', () => {
  it.each(WHOLE_REWRITES)('catches %j', (text) => {
    expect(isWholeRewrite(text)).toBe(true);
    expect(readInstruction(text)).toMatchObject({ verdict: 'unrealistic', missing: ['scope'], hold: 'whole-rewrite' });
  });

  it.each(SCOPED_ASKS)('lets the scoped ask %j through', (text) => {
    expect(isWholeRewrite(text)).toBe(false);
    expect(readInstruction(text).verdict).not.toBe('unrealistic');
  });
});
