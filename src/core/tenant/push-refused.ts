/**
 * A push that sent nothing, or stopped, for a reason the user acts on (a conflict, a problem in the folder, a change
 * on the service meanwhile): its message says which, and what to do. Apart from push.ts so that telling it from other
 * failures (the command-line tool does, for every command) loads no push.
 */
export class PushRefused extends Error {}
