import type * as FlowMapCode from '../core/flow-map/first-use';

let loaded: typeof FlowMapCode | undefined;

/** The core's flow map, required at the first map rather than at activation (scripts/build.mjs keeps it apart). */
export function flowMapCode(): typeof FlowMapCode {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('../core/flow-map/first-use') as typeof FlowMapCode;
  return loaded;
}
