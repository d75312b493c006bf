/** A start that cannot go on for a reason the operator fixes (a port in use, a data folder in use): one line, no stack trace. */
export class StartError extends Error {}
