/**
 * How a reader runs `svc`, in every hint the service prints: the
 * repository's npm script, on the Node that `npm install` brought. Never
 * `npx svc`: npx looks a name it does not find installed up in the npm
 * registry, where `svc` is an unrelated package, and offers to run it (or
 * runs it unasked without a terminal). From another folder:
 * `npm --prefix /path/to/the/repository run svc -- …`.
 */
export const SVC = 'npm run svc --';
