/**
 * JSON.stringify of a view, made once per object: the bytes an idempotent
 * request stores for its key are the bytes its first answer sends
 * (http/respond.ts), without serialising the view twice.
 */
const viewJsonByObject = new WeakMap<object, string>();

/** JSON.stringify of a view, from the first call for the same object. */
export function viewJson(view: unknown): string {
  if (typeof view !== 'object' || view === null) return JSON.stringify(view);
  let json = viewJsonByObject.get(view);
  if (json === undefined) {
    json = JSON.stringify(view);
    viewJsonByObject.set(view, json);
  }
  return json;
}
