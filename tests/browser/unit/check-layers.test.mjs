// Unit tests of tools/check-layers: the rooms come from the CMake calls, a table in the docs that disagrees
// with them fails naming the room and both sides, and an import of web/lib that points up or comes back round
// fails naming the file, its line and the layers. The tree's own check runs in the test command.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const check = require('../../../tools/check-layers');

const doc = `# Architecture

## The layers

\`\`\`
app           the controller
model         the scenario
base          errors
\`\`\`

| room  | builds on       | must not know |
|-------|-----------------|---------------|
| base  | nothing of ours | everything    |
| model | base            | figures       |
| app   | model           | ImGui         |

## The page's modules

| layer | modules |
|-------|---------|
| words | \`tour.mjs\`, notices.mjs |
| views | walkthrough-view.mjs |
| init  | init.mjs |
`;

test('a room and what it builds on are read from its tierscope_room() call, comments and OBJECT aside', () => {
  const calls = check.roomCalls('# tierscope_room(old DEPS x)\ntierscope_room(platform OBJECT\n  SOURCES main.cpp web_bridge.cpp\n  DEPS ui)  # the top\n');
  assert.deepEqual(calls, [{ room: 'platform', deps: ['ui'], line: 2 }]);
  assert.deepEqual(check.roomCalls('tierscope_room(base SOURCES errors.cpp text.cpp)')[0].deps, []);
});

test('the docs agree with CMake: nothing to report', () => {
  const cmake = { base: [], model: ['base'], app: ['model'] };
  assert.deepEqual(check.compareRooms(cmake, check.roomsFromDoc(doc), check.pictureRooms(doc)), []);
  assert.deepEqual(check.roomCycles(cmake), []);
});

test('where the docs and CMake disagree, each difference is named with both sides', () => {
  const cmake = { base: [], model: ['base'], app: ['model', 'base'], ui: ['app'] };
  const problems = check.compareRooms(cmake, check.roomsFromDoc(doc), check.pictureRooms(doc));
  assert.ok(problems.some((p) => p.includes('the table says app builds on model; src/app/CMakeLists.txt says base, model')), problems.join('\n'));
  assert.ok(problems.some((p) => p.includes('the table has no row for room ui (src/ui/CMakeLists.txt: builds on app)')), problems.join('\n'));
  assert.ok(problems.some((p) => p.includes('the layer picture does not show room ui')), problems.join('\n'));
  const gone = check.compareRooms({ base: [], model: ['base'] }, check.roomsFromDoc(doc), check.pictureRooms(doc));
  assert.ok(gone.some((p) => p.includes('a row for app, which is no room of src/')), gone.join('\n'));
  assert.deepEqual(check.roomCycles({ a: ['b'], b: ['a'] }).length, 2);
});

test('an import of web/lib that points up, or a module no layer names, fails naming the file and line', () => {
  const layers = check.moduleLayersFromDoc(doc);
  assert.deepEqual(layers.map((l) => l.layer), ['words', 'views', 'init']);
  assert.deepEqual(layers[0].modules, ['tour.mjs', 'notices.mjs']);
  const good = {
    'tour.mjs': 'export const STEPS = [];\nconst s = "comes from \'x\'";\n',
    'notices.mjs': "import { STEPS } from './tour.mjs';\n",
    'walkthrough-view.mjs': "import {\n  STEPS,\n} from './tour.mjs';\nconst later = () => import('./tour.mjs');\n",
    'init.mjs': "import { createWalkthrough } from './walkthrough-view.mjs';\nexport { STEPS } from './tour.mjs';\n",
  };
  assert.deepEqual(check.checkImports(good, layers), []);
  const up = { ...good, 'notices.mjs': "// import x from './init.mjs' (a comment is no import)\nconst v = () => import('./init.mjs');\n" };
  const problems = check.checkImports(up, layers);
  assert.deepEqual(problems, ['web/lib/notices.mjs:2: imports init.mjs (init), which points up: notices.mjs is in words, which may import words']);
  const unnamed = check.checkImports({ ...good, 'extra.mjs': '' }, layers);
  assert.ok(unnamed.some((p) => p.startsWith('web/lib/extra.mjs: a module the layers of the page\'s modules do not name')), unnamed.join('\n'));
  const cycle = check.checkImports({ ...good, 'tour.mjs': "import { n } from './notices.mjs';\n" }, layers);
  assert.ok(cycle.some((p) => p.startsWith('import cycle: ') && p.includes('tour.mjs → notices.mjs → tour.mjs')), cycle.join('\n'));
});
