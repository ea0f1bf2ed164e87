// Chart series from the page and from the CLI hold values the browser's and the machine's maths libraries
// may round differently in the last place (pow, log); everything else must be equal.
import assert from 'node:assert/strict';

export function sameChart(a, b, where = 'chart') {
  if (typeof a === 'number' && typeof b === 'number') {
    assert.ok(a === b || Math.abs(a - b) <= 1e-12 * Math.max(Math.abs(a), Math.abs(b)), `${where}: ${a} vs ${b}`);
  } else if (a && b && typeof a === 'object') {
    assert.deepEqual(Object.keys(a), Object.keys(b), where);
    for (const k of Object.keys(a)) sameChart(a[k], b[k], `${where}.${k}`);
  } else assert.equal(a, b, where);
}
