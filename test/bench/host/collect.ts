// A full garbage collection on demand in the extension host, which runs without --expose-gc: the flag, set now,
// exposes gc() to a context made after it.
import * as v8 from 'node:v8';
import * as vm from 'node:vm';

export function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}
