/**
 * `npm run docs:generate`: writes the environment-variable table and the wrench.config.yml keys into
 * docs/configuration.md from the zod schemas that validate them (src/config/reference.ts). Run it after adding or
 * changing an option; test/unit/config/reference.test.ts fails while the committed page differs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withGeneratedSections } from '../src/config/reference.js';

const page = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../docs/configuration.md');
const before = readFileSync(page, 'utf8');
const after = withGeneratedSections(before);
if (after !== before) writeFileSync(page, after);
console.log(after === before ? 'docs/configuration.md is up to date' : 'docs/configuration.md written');
