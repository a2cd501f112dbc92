import { updateMirror } from '../../../../src/workspace/mirror-cache.js';

const options = JSON.parse(process.argv[2] ?? '{}') as Parameters<typeof updateMirror>[0];
const mirror = await updateMirror(options);
process.stdout.write(JSON.stringify(mirror));
